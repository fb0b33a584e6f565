export * from "./locations";
export * from "./auth";
export * from "./analytics";
