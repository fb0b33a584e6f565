import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { getDatabase } from "../db";
import { logger } from "../logger";
import { INSTANCE_ID, LOCATIONS_CHANNEL } from "./channel";
import { applyCatalogueChanges } from "./refresh";
import type { SearchIndex } from "./search-index";

/**
 * Call after a write to `locations` has committed: tells every other instance (through Postgres
 * NOTIFY; harmless on PGlite, where no other process shares the database) and applies the change
 * log to this process's index in place (refresh.ts). Resolves once the local index shows the
 * write, so a redirect that follows sees it. Never rejects: a failed NOTIFY or update is logged.
 *
 * `refreshLocal: false` skips the local update, for a command-line writer that serves no
 * searches.
 */
export async function notifyLocationsChanged(
  db?: Database,
  { refreshLocal = true }: { refreshLocal?: boolean } = {},
): Promise<SearchIndex | undefined> {
  let database: Database;
  try {
    database = db ?? getDatabase();
  } catch (error) {
    logger.warn({ err: error }, "catalogue change announced without a database connection");
    return undefined;
  }
  try {
    await database.execute(sql`select pg_notify(${LOCATIONS_CHANNEL}, ${INSTANCE_ID})`);
  } catch (error) {
    logger.warn({ err: error }, "could not announce a catalogue change to other instances");
  }
  return refreshLocal ? applyCatalogueChanges(database) : undefined;
}
