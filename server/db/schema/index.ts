export * from "./locations";
export * from "./auth";
