import { getConfig, type Config } from "../config";
import type { Database } from "../db/client";
import { logger } from "../logger";
import { setCachePurging } from "./purges";
import { startPurgeWorker, type PurgeWorker } from "./purge-worker";
import { createCacheRefresher, type CacheRefresher } from "./refresher";

export { enqueuePurge, setCachePurging } from "./purges";

/** The process's worker, while the app runs with a shared cache (server/app.ts boot); none otherwise. */
let worker: PurgeWorker | undefined;

/** Whether this site has a shared cache to purge (CACHE_PURGE_URL). */
export function sharedCacheConfigured(config: Pick<Config, "CACHE_PURGE_URL"> = getConfig()): boolean {
  return Boolean(config.CACHE_PURGE_URL);
}

/**
 * Tells the database whether pages are purged (the triggers read it), and with CACHE_PURGE_URL
 * starts refreshing the queued pages in the cache. Runs in every app instance; they share the
 * queue safely (server/cache/purge-worker.ts). Every instance must have the same setting: the
 * last one to start decides for all.
 */
export async function startCachePurges(
  db: Database,
  options: { config?: Config; refresher?: CacheRefresher; intervalMs?: number } = {},
): Promise<void> {
  if (worker) return;
  const config = options.config ?? getConfig();
  const enabled = sharedCacheConfigured(config);
  await setCachePurging(db, enabled);
  if (!enabled) return;
  const refresher =
    options.refresher ?? createCacheRefresher({ baseUrl: config.CACHE_PURGE_URL!, token: config.CACHE_PURGE_TOKEN! });
  logger.info({ cache: config.CACHE_PURGE_URL }, "changed pages are refreshed in the shared cache");
  worker = startPurgeWorker(db, refresher, { intervalMs: options.intervalMs });
}

export async function stopCachePurges(): Promise<void> {
  const current = worker;
  worker = undefined;
  await current?.stop();
}

/**
 * Asks the worker to refresh now rather than at the next poll (up to 2 s later). Call it after the
 * transaction that queued a page has committed. Does nothing when no worker runs (no shared cache,
 * unit tests, command-line tools).
 */
export function kickPurges(): void {
  worker?.kick();
}
