export * from "./locations";
export * from "./auth";
export * from "./analytics";
export * from "./rate-limits";
