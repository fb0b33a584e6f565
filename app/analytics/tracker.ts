import { classifyTrafficSource } from "../../domain/traffic-source";
import {
  ANALYTICS,
  EVENTS_ENDPOINT,
  INGEST_LIMITS,
  type AnalyticsEvent,
  type AnalyticsEventType,
  type AnalyticsViewport,
  type ClickType,
} from "../../domain/analytics-types";

/**
 * The browser tracker (docs/product.md sections 4, 7, 8, 9): analytics sessions that end after 30 minutes
 * idle, events queued in storage (so nothing is lost offline or when the page closes), batches of
 * 50 or every 5 minutes, a forced flush 2 s after a page view or click, a beacon on page hide,
 * 3 retries 2 s apart, and only console warnings on failure. Everything it touches in the browser
 * comes in through `TrackerEnv`, so the unit tests drive it with fake timers and fakes.
 */

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type SendResult = "ok" | "retry" | "drop";

export interface Transport {
  /** Sends a batch with fetch: ok, retry later (network, 401, 429, 5xx) or drop (rejected as malformed). */
  send(events: AnalyticsEvent[]): Promise<SendResult>;
  /** navigator.sendBeacon: true when the browser queued it. */
  beacon(events: AnalyticsEvent[]): boolean;
}

export interface TrackerEnv {
  now(): number;
  storage: StorageLike;
  transport: Transport;
  /** Whether a sign-in session (anonymous or not) exists yet. */
  hasAuthSession(): boolean;
  isOnline(): boolean;
  /** Do-Not-Track or Global Privacy Control: send only what the aggregate counters need. */
  doNotTrack: boolean;
  newId(): string;
  /** The page as the tracker reports it. */
  page(): { url: string; referrer: string; origin: string; userAgent: string; viewport: AnalyticsViewport };
  userId?: () => string | null;
  warn(message: string, detail?: unknown): void;
}

export interface AnalyticsSession {
  sessionId: string;
  startTime: number;
  lastActivity: number;
  pageViews: number;
  isNewSession: boolean;
}

export const SESSION_KEY = "rv.analytics.session";
export const QUEUE_KEY = "rv.analytics.queue";
/** Events kept in storage at most; the oldest go first (a tab offline for days). */
const MAX_QUEUED = 1_000;

export interface TrackInput {
  eventType: AnalyticsEventType;
  locationId?: string | null;
  elementType?: ClickType | null;
}

/** Whether two addresses have the same origin and path (their queries may differ). */
function samePath(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && x.pathname === y.pathname;
  } catch {
    return false;
  }
}

export class Tracker {
  /** The queue as last read or written; storage is the truth, shared by the tabs of the site. */
  private memory: AnalyticsEvent[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushAt = Infinity;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(private readonly env: TrackerEnv) {}

  /** Starts the heartbeat and sends what earlier pages left queued. */
  start(isVisible: () => boolean = () => true): void {
    this.heartbeat = setInterval(() => {
      if (isVisible()) this.touch();
    }, ANALYTICS.heartbeatMs);
    if (this.readQueue().length > 0) this.schedule(ANALYTICS.forcedFlushMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.flushTimer) clearTimeout(this.flushTimer);
  }

  get pending(): readonly AnalyticsEvent[] {
    return this.readQueue();
  }

  /** The current analytics session, replaced by a new one after 30 minutes without activity. */
  session(): AnalyticsSession {
    const now = this.env.now();
    const stored = this.readJson<AnalyticsSession>(SESSION_KEY);
    if (stored && typeof stored.sessionId === "string" && now - stored.lastActivity < ANALYTICS.sessionTimeoutMs) {
      return { ...stored, isNewSession: false };
    }
    const fresh: AnalyticsSession = {
      sessionId: this.env.newId(),
      startTime: now,
      lastActivity: now,
      pageViews: 0,
      isNewSession: true,
    };
    this.writeJson(SESSION_KEY, fresh);
    return fresh;
  }

  /** Heartbeat: the visitor is still here (the page is visible), so the session stays alive. */
  touch(): void {
    const session = this.session();
    this.writeJson(SESSION_KEY, { ...session, lastActivity: this.env.now() });
  }

  track(input: TrackInput): AnalyticsEvent {
    const session = this.session();
    const now = this.env.now();
    this.writeJson(SESSION_KEY, {
      ...session,
      lastActivity: now,
      pageViews: session.pageViews + (input.eventType === "page_view" ? 1 : 0),
    });
    const page = this.env.page();
    const event: AnalyticsEvent = {
      eventId: this.env.newId(),
      eventType: input.eventType,
      timestamp: new Date(now).toISOString(),
      sessionId: session.sessionId,
      url: page.url,
      locationId: input.locationId ?? null,
      elementType: input.eventType === "click" ? (input.elementType ?? null) : null,
    };
    if (this.env.doNotTrack) {
      // Only what the counters need: no query string, no browser, no account, the referrer's class.
      event.url = page.url.split(/[?#]/)[0]!;
      if (input.eventType === "page_view") {
        event.trafficSource = classifyTrafficSource(page.referrer, page.origin);
        if (samePath(page.referrer, page.url)) event.samePath = true;
      }
    } else {
      event.userAgent = page.userAgent.slice(0, INGEST_LIMITS.maxUserAgent);
      event.referrer = page.referrer.slice(0, INGEST_LIMITS.maxUrl) || null;
      event.viewport = page.viewport;
      event.userId = this.env.userId?.() ?? null;
    }
    event.url = event.url.slice(0, INGEST_LIMITS.maxUrl);
    const queue = this.readQueue();
    queue.push(event);
    this.saveQueue(queue);
    if (queue.length >= ANALYTICS.batchSize) this.schedule(0);
    else if (input.eventType === "page_view" || input.eventType === "click") this.schedule(ANALYTICS.forcedFlushMs);
    else this.schedule(ANALYTICS.batchAgeMs);
    return event;
  }

  /** Flushes no later than `delayMs` from now (an earlier scheduled flush stays). */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = this.env.now() + delayMs;
    if (this.flushTimer && at >= this.flushAt) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushAt = at;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushAt = Infinity;
      void this.flush();
    }, delayMs);
  }

  /** Sends everything queued, in batches of 50. Never throws; failures keep the events queued. */
  flush(): Promise<void> {
    this.flushing ??= this.sendAll().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendAll(): Promise<void> {
    if (this.readQueue().length === 0) return;
    if (!this.env.isOnline()) return; // the `online` event flushes
    if (!(await this.waitForAuth())) {
      this.env.warn("analytics: no session yet; events stay queued");
      this.schedule(ANALYTICS.batchAgeMs);
      return;
    }
    for (let queue = this.readQueue(); queue.length > 0 && !this.stopped; queue = this.readQueue()) {
      const batch = queue.slice(0, ANALYTICS.batchSize);
      const result = await this.sendWithRetries(batch);
      if (result === "retry") {
        // Requeued: they are still at the head of the queue; try again at the next flush.
        this.env.warn(`analytics: ${batch.length} events kept for later after ${ANALYTICS.retries} retries`);
        this.schedule(ANALYTICS.batchAgeMs);
        return;
      }
      if (result === "drop") this.env.warn(`analytics: the server rejected ${batch.length} events`);
      const sent = new Set(batch.map((e) => e.eventId));
      this.saveQueue(this.readQueue().filter((e) => !sent.has(e.eventId)));
    }
  }

  private async sendWithRetries(batch: AnalyticsEvent[]): Promise<SendResult> {
    for (let attempt = 0; ; attempt++) {
      let result: SendResult;
      try {
        result = await this.env.transport.send(batch);
      } catch (error) {
        this.env.warn("analytics: sending failed", error);
        result = "retry";
      }
      if (result !== "retry" || attempt >= ANALYTICS.retries || !this.env.isOnline()) return result;
      await new Promise((resolve) => setTimeout(resolve, ANALYTICS.retryDelayMs));
    }
  }

  private waitForAuth(): Promise<boolean> {
    if (this.env.hasAuthSession()) return Promise.resolve(true);
    return new Promise((resolve) => {
      let waited = 0;
      const timer = setInterval(() => {
        waited += ANALYTICS.authPollMs;
        if (this.env.hasAuthSession() || waited >= ANALYTICS.authWaitMs) {
          clearInterval(timer);
          resolve(this.env.hasAuthSession());
        }
      }, ANALYTICS.authPollMs);
    });
  }

  /**
   * The page is going away (pagehide, or hidden, which on phones may be the last chance): hand
   * the queue to navigator.sendBeacon in chunks under its 64 KiB limit. What the browser refuses
   * stays in storage for the next page.
   */
  beacon(): void {
    const queue = this.readQueue();
    if (queue.length === 0 || !this.env.isOnline() || !this.env.hasAuthSession()) return;
    const sent = new Set<string>();
    let chunk: AnalyticsEvent[] = [];
    let size = 2;
    const send = () => {
      if (chunk.length === 0) return true;
      const ok = this.env.transport.beacon(chunk);
      if (ok) for (const e of chunk) sent.add(e.eventId);
      chunk = [];
      size = 2;
      return ok;
    };
    for (const event of queue) {
      const bytes = JSON.stringify(event).length + 1;
      if (chunk.length >= ANALYTICS.batchSize || size + bytes > INGEST_LIMITS.beaconBytes) {
        if (!send()) break;
      }
      chunk.push(event);
      size += bytes;
    }
    send();
    this.saveQueue(this.readQueue().filter((e) => !sent.has(e.eventId)));
  }

  /** Back online: send what queued up meanwhile. */
  online(): void {
    void this.flush();
  }

  private readQueue(): AnalyticsEvent[] {
    let raw: string | null;
    try {
      raw = this.env.storage.getItem(QUEUE_KEY);
    } catch {
      return [...this.memory]; // storage unavailable (private mode): this page's memory only
    }
    if (raw === null) return this.memory.length > 0 && this.storageFailed ? [...this.memory] : [];
    try {
      const parsed = JSON.parse(raw) as unknown;
      return Array.isArray(parsed) ? (parsed as AnalyticsEvent[]) : [];
    } catch {
      return [];
    }
  }

  private storageFailed = false;

  private saveQueue(queue: AnalyticsEvent[]): void {
    this.memory = queue.length > MAX_QUEUED ? queue.slice(-MAX_QUEUED) : queue;
    try {
      if (this.memory.length === 0) this.env.storage.removeItem(QUEUE_KEY);
      else this.env.storage.setItem(QUEUE_KEY, JSON.stringify(this.memory));
      this.storageFailed = false;
    } catch (error) {
      this.storageFailed = true;
      this.env.warn("analytics: storage is full or unavailable", error);
    }
  }

  private readJson<T>(key: string): T | null {
    try {
      const raw = this.env.storage.getItem(key);
      return raw ? (JSON.parse(raw) as T) : null;
    } catch {
      return null;
    }
  }

  private writeJson(key: string, value: unknown): void {
    try {
      this.env.storage.setItem(key, JSON.stringify(value));
    } catch (error) {
      this.env.warn("analytics: storage is full or unavailable", error);
    }
  }
}

/** The real transport: fetch for batches, sendBeacon (text/plain, no preflight) on page hide. */
export function browserTransport(endpoint = EVENTS_ENDPOINT): Transport {
  return {
    async send(events) {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(events),
        credentials: "same-origin",
        keepalive: true,
      });
      if (response.ok) return "ok";
      // Malformed or oversized batches will never succeed: drop them rather than loop.
      if (response.status === 400 || response.status === 413 || response.status === 415) return "drop";
      return "retry";
    },
    beacon(events) {
      if (typeof navigator.sendBeacon !== "function") return false;
      return navigator.sendBeacon(endpoint, new Blob([JSON.stringify(events)], { type: "text/plain" }));
    },
  };
}
