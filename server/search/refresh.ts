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
import {
  buildSearchIndex,
  changeHorizon,
  changesSince,
  countIndexable,
  databaseIdentity,
  horizonReached,
  loadSearchRows,
} from "./load";
import { createSearchIndex, SearchIndex } from "./search-index";
import { readSnapshot } from "./snapshot";
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
  /** Where the index is saved after a build and read at start-up (startSearch); none in tests. */
  snapshotFile: string | undefined;
  /** When the last snapshot was written or read (ms), 0 for none. */
  snapshotAt: number;
  snapshotWriting: boolean;
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
  snapshotFile: undefined,
  snapshotAt: 0,
  snapshotWriting: false,
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
    // Saved for the next start (and the other instances' starts) once it has caught up.
    state.snapshotAt = 0;
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
    } else if (state.snapshotFile && !state.snapshotWriting && Date.now() - state.snapshotAt > SNAPSHOT_EVERY_MS) {
      void saveSnapshot(db, state.snapshotFile);
    }
    return index;
  } catch (error) {
    logger.error({ err: error, locations: index.size }, "search index could not apply the catalogue's changes");
    return index;
  }
}

/** A snapshot is written after every build, and again once the last is this old. */
export const SNAPSHOT_EVERY_MS = 6 * 60 * 60_000;

/**
 * Writes the current index to the snapshot file, in the serial queue so that no change is applied
 * while its arrays are being written. Never rejects: a failed write is logged and tried again after
 * the next catch-up.
 */
function saveSnapshot(db: Database, file: string): Promise<void> {
  state.snapshotWriting = true;
  return serially(async () => {
    const index = state.current;
    const horizon = state.horizon;
    if (!index || index.source !== "database" || horizon === undefined) return;
    const started = performance.now();
    try {
      const database = await databaseIdentity(db);
      const bytes = await index.saveTo(file, { horizon, database, takenAt: state.caughtUpAt });
      state.snapshotAt = Date.now();
      logger.info(
        { file, megabytes: Math.round(bytes / 1e6), ms: Math.round(performance.now() - started) },
        "search index snapshot saved",
      );
    } catch (error) {
      state.snapshotAt = Date.now();
      logger.error({ err: error, file }, "search index snapshot could not be saved");
    }
  }).finally(() => {
    state.snapshotWriting = false;
  });
}

/**
 * Start-up from a snapshot (docs/operations.md, "Search index"): reads the file, checks it was taken
 * from this database within the change log's memory, applies what changed since, and checks the
 * count of listings against the table. Resolves to the index when it is in use; undefined when
 * there was no usable snapshot (the reason is logged), and the caller builds from the database.
 */
export async function startFromSnapshot(db: Database, file: string): Promise<SearchIndex | undefined> {
  const started = performance.now();
  let loaded;
  try {
    loaded = await readSnapshot(file);
  } catch (error) {
    logger.warn({ err: error, file }, "search index snapshot unusable; building from the database");
    return undefined;
  }
  if (!loaded) return undefined;
  const { columns, info } = loaded;
  const refuse = (reason: string) => {
    logger.info({ file, reason }, "search index snapshot not used; building from the database");
    return undefined;
  };
  try {
    if (info.database !== (await databaseIdentity(db))) return refuse("taken from another database");
    if (Date.now() - info.takenAt > (CHANGE_LOG_DAYS - 1) * DAY_MS) return refuse("older than the change log");
    if (!(await horizonReached(db, info.horizon))) return refuse("ahead of this database's transactions");
  } catch (error) {
    logger.warn({ err: error }, "search index snapshot could not be checked; building from the database");
    return undefined;
  }
  const index = new SearchIndex(columns, { source: "database", skipped: info.skipped, fromSnapshot: true });
  await serially(async () => {
    state.current = index;
    state.horizon = info.horizon;
    state.caughtUpAt = info.takenAt;
    state.snapshotAt = info.takenAt;
  });
  // Caught up to now, the index must hold every listing the table lists with a point; writes made
  // meanwhile can make one count differ, so it catches up once more before giving up.
  for (let attempt = 0; ; attempt++) {
    const current = await applyCatalogueChanges(db);
    if (current !== index) return current;
    const expected = await countIndexable(db).catch(() => undefined);
    if (expected === index.size) break;
    if (attempt === 2 || expected === undefined) {
      logger.warn({ expected, indexed: index.size }, "search index snapshot disagrees with the catalogue; rebuilding");
      return refreshSearchIndex(db);
    }
  }
  logger.info(
    { file, locations: index.size, appended: index.appended, ms: Math.round(performance.now() - started) },
    "search index started from its snapshot",
  );
  return index;
}

/** Turns snapshots on (start-up): written to `file` after builds, read by `startFromSnapshot`. */
export function keepSnapshotsIn(file: string | undefined): void {
  state.snapshotFile = file;
}
