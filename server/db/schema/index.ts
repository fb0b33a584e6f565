export * from "./locations";
