export { enqueueEmail } from "./outbox";
/** Placeholder until the outbox branch lands. */
export function kickEmail(): void {}
