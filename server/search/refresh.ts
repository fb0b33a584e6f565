/**
 * The process's current search index and how it follows the catalogue (docs/operations.md,
 * "What instances share"). The database is the source of truth: the index is built from it at start-up,
 * then changed in place from its change log (`location_changes`) after a local write (notify.ts)
 * and when another instance announces one (listener.ts), in time proportional to the rows changed.
 * It is rebuilt only when the log cannot tell (too many changes, an index older than the log) and
 * to fold the rows appended since the build into the tree. A failed rebuild keeps serving the
 * previous index, and before any index was built, one holding only the sample location
 * (docs/product.md section 8, "Database failure": return cached data, else the built-in sample location).
 */
import type { Database } from "../db/client";
import { getDatabase, hasDatabase } from "../db";
import { logger } from "../logger";
import { SAMPLE_LOCATION } from "../locations/sample";
import { buildSearchIndex, changeHorizon, changesSince, loadSearchRows } from "./load";
import { createSearchIndex, type SearchIndex } from "./search-index";
import { searchRowFromLocation } from "./source-row";

interface IndexState {
  current: SearchIndex | undefined;
  sample: SearchIndex | undefined;
  /** The change-log horizon the current index reflects (load.ts `changeHorizon`). */
  horizon: string | undefined;
  /** When the current index last read the log (ms). */
  caughtUpAt: number;
  /** Rebuilds and catch-ups run one after another, in the order asked. */
  tail: Promise<unknown>;
  /** A rebuild or catch-up asked for but not started yet: later asks share it. */
  queuedRebuild: Promise<SearchIndex> | undefined;
  queuedCatchUp: Promise<SearchIndex> | undefined;
  lazyStarted: boolean;
}

// On globalThis so that a development server re-evaluating this module (Vite HMR) keeps the
// index it already built instead of falling back to the sample.
const STATE_KEY = Symbol.for("rv-storage.search-index");
const state: IndexState = ((globalThis as Record<symbol, unknown>)[STATE_KEY] as IndexState | undefined) ?? {
  current: undefined,
  sample: undefined,
  horizon: undefined,
  caughtUpAt: 0,
  tail: Promise.resolve(),
  queuedRebuild: undefined,
  queuedCatchUp: undefined,
  lazyStarted: false,
};
(globalThis as Record<symbol, unknown>)[STATE_KEY] = state;

function sampleIndex(): SearchIndex {
  state.sample ??= createSearchIndex([searchRowFromLocation(SAMPLE_LOCATION)], "sample");
  return state.sample;
}

/**
 * The index to query now. Cheap: returns the current snapshot (never a half-built one). If none
 * was built yet, the sample index; and when a database is connected, a build starts in the
 * background so that a process that skipped `boot()` heals itself.
 */
export function getSearchIndex(): SearchIndex {
  if (state.current) return state.current;
  if (!state.lazyStarted && hasDatabase()) {
    state.lazyStarted = true;
    void refreshSearchIndex();
  }
  return sampleIndex();
}

/** Swaps in an index built elsewhere (tests, the benchmark); `undefined` forgets the current one. */
export function setSearchIndex(index: SearchIndex | undefined): void {
  state.current = index;
  if (index === undefined) state.lazyStarted = false;
}

/** More changes than this at once are read by a rebuild rather than one by one. */
export const MAX_CHANGES_IN_PLACE = 50_000;
/** The change log keeps this long (the daily job "forget old catalogue changes"). */
export const CHANGE_LOG_DAYS = 3;
const DAY_MS = 24 * 60 * 60_000;

/** Appended rows are folded into the tree by a rebuild past this many (they cost every query a scan). */
export function foldThreshold(index: SearchIndex): number {
  return Math.min(MAX_CHANGES_IN_PLACE, Math.max(5_000, Math.floor(index.size / 20)));
}

function serially<T>(task: () => Promise<T>): Promise<T> {
  const run = state.tail.then(task, task);
  state.tail = run.catch(() => {});
  return run;
}

/**
 * Rebuilds from the database (the process-wide one unless `db` is given) and swaps the result in,
 * then applies what changed while it read. Never rejects: on failure it logs and resolves to the
 * index still being served. Calls made before a queued rebuild started share it.
 */
export function refreshSearchIndex(db?: Database): Promise<SearchIndex> {
  if (state.queuedRebuild) return state.queuedRebuild;
  const queued = serially(() => {
    state.queuedRebuild = undefined;
    return rebuild(db ?? getDatabase());
  });
  state.queuedRebuild = queued;
  return queued;
}

/**
 * Brings the index up to date with the change log, in place: the listings changed since it last
 * read are read again and replace their rows (or leave). Resolves once the index shows every
 * change committed before the call. Never rejects; calls made before a queued one started share it.
 */
export function applyCatalogueChanges(db?: Database): Promise<SearchIndex> {
  if (state.queuedRebuild) return state.queuedRebuild;
  if (state.queuedCatchUp) return state.queuedCatchUp;
  const queued = serially(() => {
    state.queuedCatchUp = undefined;
    return catchUp(db ?? getDatabase());
  });
  state.queuedCatchUp = queued;
  return queued;
}

async function rebuild(db: Database): Promise<SearchIndex> {
  const started = performance.now();
  try {
    // Taken before the read: what committed before it is in the rows, the rest is applied after.
    const horizon = await changeHorizon(db);
    const index = await buildSearchIndex(db);
    state.current = index;
    state.horizon = horizon;
    state.caughtUpAt = Date.now();
    logger.info(
      { locations: index.size, skipped: index.skipped, ms: Math.round(performance.now() - started) },
      "search index built",
    );
    return await catchUp(db);
  } catch (error) {
    const serving = state.current ?? sampleIndex();
    logger.error(
      { err: error, serving: serving.source, locations: serving.size },
      "search index rebuild failed; serving the previous index",
    );
    return serving;
  }
}

async function catchUp(db: Database): Promise<SearchIndex> {
  const index = state.current;
  // No index from the database yet, or one older than the log's memory: only a rebuild can tell.
  if (!index || index.source !== "database" || state.horizon === undefined) return rebuild(db);
  if (Date.now() - state.caughtUpAt > (CHANGE_LOG_DAYS - 1) * DAY_MS) return rebuild(db);
  try {
    const changes = await changesSince(db, state.horizon, MAX_CHANGES_IN_PLACE);
    if (changes.more) return rebuild(db);
    if (changes.ids.length > 0) {
      const rows = await loadSearchRows(db, changes.ids);
      const present = new Set(rows.map((row) => row.id));
      index.apply({ rows, removed: changes.ids.filter((id) => !present.has(id)) });
    }
    state.horizon = changes.horizon;
    state.caughtUpAt = Date.now();
    if (index.appended > foldThreshold(index)) {
      logger.info({ appended: index.appended }, "search index folding its appended rows into a new build");
      void refreshSearchIndex(db);
    }
    return index;
  } catch (error) {
    logger.error({ err: error, locations: index.size }, "search index could not apply the catalogue's changes");
    return index;
  }
}
