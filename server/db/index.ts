import { getConfig } from "../config";
import { databaseOptionsFromConfig, openDatabase, type Database, type DatabaseHandle } from "./client";

/**
 * The process-wide database. `connectDatabase` runs once at start-up (server/app.ts boot) or in
 * a command-line tool; services then call `getDatabase()`.
 */
let current: DatabaseHandle | undefined;

export async function connectDatabase(handle?: DatabaseHandle): Promise<DatabaseHandle> {
  if (current) return current;
  current = handle ?? (await openDatabase(databaseOptionsFromConfig(getConfig())));
  return current;
}

export function getDatabase(): Database {
  if (!current) throw new Error("The database is not connected yet (connectDatabase was not called)");
  return current.db;
}

export function hasDatabase(): boolean {
  return current !== undefined;
}

export async function disconnectDatabase(): Promise<void> {
  const handle = current;
  current = undefined;
  await handle?.close();
}
