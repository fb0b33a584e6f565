/**
 * The process's current search index and how it is replaced. The database is the source of
 * truth; the index is rebuilt from it at start-up, after a local write (notify.ts) and when
 * another instance announces one (listener.ts). A failed rebuild keeps serving the previous
 * index, and before any index was built, one holding only the sample location (docs/product.md section 8,
 * "Database failure": return cached data, else the built-in sample location).
 */
import type { Database } from "../db/client";
import { getDatabase, hasDatabase } from "../db";
import { logger } from "../logger";
import { SAMPLE_LOCATION } from "../locations/sample";
import { buildSearchIndex } from "./load";
import { createSearchIndex, type SearchIndex } from "./search-index";
import { searchRowFromLocation } from "./source-row";

interface IndexState {
  current: SearchIndex | undefined;
  sample: SearchIndex | undefined;
  running: Promise<SearchIndex> | undefined;
  queued: Promise<SearchIndex> | undefined;
  lazyStarted: boolean;
}

// On globalThis so that a development server re-evaluating this module (Vite HMR) keeps the
// index it already built instead of falling back to the sample.
const STATE_KEY = Symbol.for("rv-storage.search-index");
const state: IndexState = ((globalThis as Record<symbol, unknown>)[STATE_KEY] as IndexState | undefined) ?? {
  current: undefined,
  sample: undefined,
  running: undefined,
  queued: undefined,
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

/**
 * Rebuilds from the database (the process-wide one unless `db` is given) and swaps the result in.
 * Never rejects: on failure it logs and resolves to the index still being served. Calls made while
 * a rebuild runs share one follow-up rebuild, which starts after it, so the last write is always
 * seen and at most two reads are ever in flight.
 */
export function refreshSearchIndex(db?: Database): Promise<SearchIndex> {
  if (!state.running) {
    state.running = rebuild(db).finally(() => {
      state.running = undefined;
    });
    return state.running;
  }
  state.queued ??= state.running.then(() => {
    state.queued = undefined;
    return refreshSearchIndex(db);
  });
  return state.queued;
}

async function rebuild(db: Database | undefined): Promise<SearchIndex> {
  const started = performance.now();
  try {
    const index = await buildSearchIndex(db ?? getDatabase());
    state.current = index;
    logger.info(
      { locations: index.size, skipped: index.skipped, ms: Math.round(performance.now() - started) },
      "search index built",
    );
    return index;
  } catch (error) {
    const serving = state.current ?? sampleIndex();
    logger.error(
      { err: error, serving: serving.source, locations: serving.size },
      "search index rebuild failed; serving the previous index",
    );
    return serving;
  }
}
