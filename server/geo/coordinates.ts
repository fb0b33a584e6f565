// The coordinate helpers are pure, so they live with the browser-safe code; the gazetteer re-exports them.
export * from "../../domain/coordinates";
