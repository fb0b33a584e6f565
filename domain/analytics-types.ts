/**
 * The analytics event contract shared by the browser tracker and the ingestion endpoint
 * (docs/product.md section 3, "Analytics event"), and the constants of docs/product.md section 9. No zod here:
 * this module ships to the browser; the server validates with `domain/analytics-events.ts`.
 */

export const EVENT_TYPES = ["page_view", "list_view", "click"] as const;
export type AnalyticsEventType = (typeof EVENT_TYPES)[number];

export const CLICK_TYPES = ["contact_button", "phone", "website", "directions"] as const;
export type ClickType = (typeof CLICK_TYPES)[number];

export const TRAFFIC_SOURCES = [
  "google",
  "facebook",
  "twitter",
  "instagram",
  "linkedin",
  "youtube",
  "bing",
  "yahoo",
  "internal",
  "direct",
  "other",
] as const;
export type TrafficSource = (typeof TRAFFIC_SOURCES)[number];

export interface AnalyticsViewport {
  width: number;
  height: number;
}

export interface AnalyticsEvent {
  /** Client-generated, unique per event: a retried batch carries the same ids and is counted once. */
  eventId: string;
  eventType: AnalyticsEventType;
  /** ISO 8601 time the event happened in the browser. */
  timestamp: string;
  /** The analytics session (idle under 30 minutes), not the sign-in session. */
  sessionId: string;
  url: string;
  userAgent?: string | null;
  referrer?: string | null;
  /** Set instead of `referrer` when the visitor asks not to be tracked (DNT / GPC). */
  trafficSource?: TrafficSource | null;
  /**
   * Set instead of `referrer` on a page view under DNT / GPC: the page before had the same path
   * (a re-sort, filter or later page of the same list), so search demand does not count it again.
   */
  samePath?: boolean | null;
  viewport?: AnalyticsViewport | null;
  userId?: string | null;
  locationId?: string | null;
  /** Required for clicks, absent otherwise. */
  elementType?: ClickType | null;
}

/** docs/product.md section 9, "Analytics". */
export const ANALYTICS = {
  batchSize: 50,
  batchAgeMs: 5 * 60_000,
  sessionTimeoutMs: 30 * 60_000,
  heartbeatMs: 60_000,
  retries: 3,
  retryDelayMs: 2_000,
  forcedFlushMs: 2_000,
  authPollMs: 100,
  authWaitMs: 2_000,
} as const;

/** Limits the endpoint enforces; the tracker sends batches within them. */
export const INGEST_LIMITS = {
  maxBatch: 100,
  maxBodyBytes: 256 * 1024,
  maxUrl: 2048,
  maxUserAgent: 512,
  maxId: 128,
  /** Browsers refuse beacons above 64 KiB; the tracker splits below this. */
  beaconBytes: 60 * 1024,
} as const;

export const EVENTS_ENDPOINT = "/api/analytics/events";
