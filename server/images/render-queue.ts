/**
 * One bounded queue for image work done while a visitor waits (docs/operations.md, "Limits on
 * input", Photos drawn on request). Drawing and encoding a photo takes both cores and a few
 * hundred MB for a moment; forty at once took 15 s each and starved every other request. So:
 * a few run at a time, a few more wait, and beyond that the caller is told to come back
 * (`RenderQueueFullError`, a 503 with Retry-After). Work for a key already running or waiting is
 * shared rather than repeated.
 */

/**
 * Renders at once. One: an upload's render keeps both cores busy (sharp encodes its twelve files
 * in parallel on libvips threads), so a second would only double the memory and the wait of both.
 * A demo photo's file is one encode (30-100 ms), so a cold page's photos still follow quickly.
 */
export const RENDER_CONCURRENCY = 1;
/**
 * Renders waiting for a turn; past this a request gets 503 (a browser does not retry an image).
 * Enough for a cold results page (12 cards, `PAGE_SIZE` in domain/search.ts) plus a gallery, so that a
 * visitor to a demo sees every photo; a waiting render costs no memory until its turn.
 */
export const RENDER_MAX_WAITING = 16;
/** What a refused request is told to wait: more than the time to work off a full queue (16 x 0.03-1 s). */
export const RENDER_RETRY_AFTER_SECONDS = 10;

export class RenderQueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many photos are being drawn right now; try again in a few seconds.");
    this.name = "RenderQueueFullError";
  }
}

export interface RenderQueue {
  /**
   * Runs `task` when a slot is free and resolves with its result. A call with the key of work
   * already running or waiting gets that work's promise (its own task is not run). Rejects with
   * RenderQueueFullError, without running anything, when the queue is full.
   */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Tasks running now and waiting now. */
  readonly running: number;
  readonly waiting: number;
}

export function createRenderQueue({
  concurrency = RENDER_CONCURRENCY,
  maxWaiting = RENDER_MAX_WAITING,
  retryAfterSeconds = RENDER_RETRY_AFTER_SECONDS,
}: { concurrency?: number; maxWaiting?: number; retryAfterSeconds?: number } = {}): RenderQueue {
  const byKey = new Map<string, Promise<unknown>>();
  const queue: (() => void)[] = [];
  let running = 0;

  const next = () => {
    while (running < concurrency && queue.length > 0) queue.shift()!();
  };

  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const shared = byKey.get(key);
      if (shared) return shared as Promise<T>;
      if (running >= concurrency && queue.length >= maxWaiting) {
        return Promise.reject(new RenderQueueFullError(retryAfterSeconds));
      }
      const work = new Promise<T>((resolve, reject) => {
        queue.push(() => {
          running++;
          // A task that throws synchronously still frees its slot.
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              running--;
              byKey.delete(key);
              next();
            });
        });
      });
      byKey.set(key, work);
      next();
      return work;
    },
  };
}
