import { randomUUID } from "node:crypto";

/** The Postgres notification channel that announces a change to the catalogue. */
export const LOCATIONS_CHANNEL = "locations_changed";

const KEY = Symbol.for("rv-storage.search-instance");

/**
 * This process's id, sent as the notification payload: the listener ignores its own
 * notifications, since the writer already rebuilt its index in-process.
 */
export const INSTANCE_ID: string = ((globalThis as Record<symbol, unknown>)[KEY] as string | undefined) ?? randomUUID();
(globalThis as Record<symbol, unknown>)[KEY] = INSTANCE_ID;
