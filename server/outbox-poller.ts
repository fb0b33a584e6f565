import { logger } from "./logger";

/**
 * The loop of an outbox worker (the mail outbox, server/email/worker.ts; the shared cache's purge
 * queue, server/cache/purge-worker.ts): `drain` claims and handles up to `batch` due rows and says
 * how many it claimed. It runs at once, then every `intervalMs` on an unref'd timer (it never keeps
 * the process alive); runs never overlap, a kick during a run queues one more run after it, and a
 * full batch means more may be due, so the next batch follows at once rather than a poll later.
 */
export interface OutboxPoller {
  /** Runs soon (once the current run, if any, finishes), e.g. right after a commit. */
  kick(): void;
  /** Stops polling, aborts `drain`'s signal and waits for the run under way. */
  stop(): Promise<void>;
}

export function startOutboxPoller(options: {
  /** What a failed run is logged as: "email delivery run failed". */
  failure: string;
  intervalMs: number;
  batch: number;
  drain: (batch: number, signal: AbortSignal) => Promise<number>;
}): OutboxPoller {
  const { intervalMs, batch, drain } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();

  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(run, delay);
    timer.unref();
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        for (;;) {
          again = false;
          const claimed = await drain(batch, stopping.signal);
          if (stopped || (claimed < batch && !again)) break;
        }
      } catch (error) {
        logger.warn({ err: error }, `${options.failure}; it runs again at the next poll`);
      } finally {
        running = undefined;
        schedule(intervalMs);
      }
    })();
  }

  schedule(0);
  return {
    kick: () => schedule(0),
    stop: async () => {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
