import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at } from "./columns";

/** The longest path a purge may name, its query included: what proxies commonly accept in a request line. */
export const CACHE_PURGE_PATH_MAX = 2048;

/**
 * Pages the shared cache must fetch again (server/cache, docs/operations.md "A shared cache in
 * front"): an outbox of paths, written in the transaction of the change that makes a page stale,
 * by triggers on the tables a facility page shows (migration 0031) or by an administrator. A worker
 * in each instance claims due rows with `FOR UPDATE SKIP LOCKED`, asks the cache to refresh the
 * path, and deletes the row, or counts the attempt and backs off.
 *
 * Unclaimed rows are unique by path, so fifty edits of a listing before the worker comes by are
 * one refresh. A claimed row (`claimed_at` set) leaves the index: an edit made while the page is
 * being refreshed queues a new row, because the refresh under way may have read the page before
 * that edit committed.
 */
export const cachePurges = pgTable(
  "cache_purges",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** `/location/some-slug`, with a query if an administrator gave one; never an origin. */
    path: text("path").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    /** Attempts so far, counted when a worker claims the row. */
    attempts: integer("attempts").notNull().default(0),
    /** When the row is due; while claimed, when the claim's lease ends (a dead worker's row is taken again). */
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    /** When a worker claimed it; null while it waits. */
    claimedAt: at("claimed_at"),
    lastError: text("last_error"),
  },
  (t) => [
    check(
      "cache_purges_path",
      sql`char_length(${t.path}) between 1 and ${sql.raw(String(CACHE_PURGE_PATH_MAX))} and left(${t.path}, 1) = '/'`,
    ),
    uniqueIndex("cache_purges_unclaimed_path_idx")
      .on(t.path)
      .where(sql`${t.claimedAt} is null`),
    index("cache_purges_due_idx").on(t.nextAttemptAt),
  ],
);

export type CachePurgeRow = typeof cachePurges.$inferSelect;

/**
 * Whether pages are purged at all: one row, written by every instance at start from
 * CACHE_PURGE_URL (server/cache). Without a shared cache (the default) the triggers read it, once
 * per statement, and write nothing, so a bulk load of a million listings leaves no purge behind.
 * No row counts as off: a fresh database, and the command-line tools before the site's first start.
 */
export const cachePurgeSettings = pgTable(
  "cache_purge_settings",
  {
    id: smallint("id").primaryKey().default(1),
    enabled: boolean("enabled").notNull(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [check("cache_purge_settings_one_row", sql`${t.id} = 1`)],
);
