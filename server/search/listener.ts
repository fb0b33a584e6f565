/**
 * Cross-instance refresh on PostgreSQL: a dedicated connection LISTENs on `locations_changed`
 * and, a moment after the last notification, rebuilds. A lost connection is re-opened with
 * exponential backoff, and a rebuild follows every reconnection, because notifications sent
 * while disconnected are lost for good.
 */
import pg from "pg";
import { logger } from "../logger";
import { LOCATIONS_CHANNEL } from "./channel";

export interface LocationsListenerOptions {
  connectionString: string;
  /** Runs after notifications settle (and after a reconnection). Errors are logged. */
  onChange: () => unknown;
  /** Quiet time after the last notification before `onChange` runs. */
  debounceMs?: number;
  /** A steady stream of notifications (a long import) still rebuilds at least this often. */
  maxWaitMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Notifications with this payload are ignored (this process's own writes). */
  ignorePayload?: string;
  /**
   * Told of each notification on the channel, and whether it was ignored: the event a test waits
   * for before it checks that nothing was rebuilt, instead of sleeping.
   */
  onNotification?: (notification: { payload: string; ignored: boolean }) => void;
}

export interface LocationsListener {
  /** Settles once the first LISTEN succeeded. */
  readonly ready: Promise<void>;
  readonly listening: boolean;
  stop(): Promise<void>;
}

export function listenForLocationChanges(options: LocationsListenerOptions): LocationsListener {
  const debounceMs = options.debounceMs ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 5000;
  const retryMinMs = options.retryMinMs ?? 1000;
  const retryMaxMs = options.retryMaxMs ?? 30_000;

  let client: pg.Client | undefined;
  let listening = false;
  let stopped = false;
  let everListened = false;
  let failures = 0;
  let debounceTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let pendingSince: number | undefined;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const fire = () => {
    debounceTimer = undefined;
    pendingSince = undefined;
    if (stopped) return;
    Promise.resolve()
      .then(options.onChange)
      .catch((error: unknown) => logger.error({ err: error }, "search index refresh after a notification failed"));
  };

  const schedule = () => {
    const now = Date.now();
    pendingSince ??= now;
    if (debounceTimer) clearTimeout(debounceTimer);
    const wait = Math.max(0, Math.min(debounceMs, pendingSince + maxWaitMs - now));
    debounceTimer = setTimeout(fire, wait);
    debounceTimer.unref();
  };

  const drop = (c: pg.Client, error?: unknown) => {
    if (client !== c) return;
    client = undefined;
    listening = false;
    c.end().catch(() => {});
    if (stopped) return;
    const delay = Math.min(retryMaxMs, retryMinMs * 2 ** failures);
    failures++;
    logger.warn({ err: error, retryInMs: delay }, "search index listener lost its connection; reconnecting");
    retryTimer = setTimeout(connect, delay);
    retryTimer.unref();
  };

  const connect = async () => {
    retryTimer = undefined;
    if (stopped) return;
    const c = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    client = c;
    // Without an 'error' handler a dropped connection would crash the process.
    c.on("error", (error) => drop(c, error));
    c.on("end", () => drop(c));
    c.on("notification", (message) => {
      if (message.channel !== LOCATIONS_CHANNEL) return;
      const ignored = options.ignorePayload !== undefined && message.payload === options.ignorePayload;
      options.onNotification?.({ payload: message.payload ?? "", ignored });
      if (ignored) return;
      schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${LOCATIONS_CHANNEL}`);
    } catch (error) {
      drop(c, error);
      return;
    }
    if (client !== c) return;
    listening = true;
    failures = 0;
    if (everListened) schedule();
    everListened = true;
    logger.info({ channel: LOCATIONS_CHANNEL }, "search index listening for catalogue changes");
    markReady();
  };

  void connect();

  return {
    ready,
    get listening() {
      return listening;
    },
    async stop() {
      stopped = true;
      if (debounceTimer) clearTimeout(debounceTimer);
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end().catch(() => {});
    },
  };
}
