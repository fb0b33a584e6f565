export * from "./locations";
export * from "./auth";
export * from "./analytics";
export * from "./rate-limits";
export * from "./claims";
export * from "./audit";
export * from "./email-outbox";
export * from "./notification-preferences";
