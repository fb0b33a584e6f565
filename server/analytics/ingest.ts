import { inArray } from "drizzle-orm";
import { classifyTrafficSource } from "../../domain/traffic-source";
import { analyticsBatchSchema, describeIssues, type ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { AppError, badRequest } from "../errors";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { logger } from "../logger";
import { recordPageViews } from "../search/demand";
import { ipBudgetKey, storedPath, storedReferrer } from "./caps";
import { storeEvents, type EventOutcome, type EventRow } from "./store";

/** Events dated further back than this (a long-offline tab) or ahead of the clock are ignored. */
const MAX_AGE_MS = 7 * 86_400_000;
const MAX_SKEW_MS = 5 * 60_000;
/** The most events one transaction of the writer takes from the queue. */
const MAX_ROWS_PER_TRANSACTION = 5_000;
/**
 * Transactions in flight at once: two keep PostgreSQL busy on both cores while the next group
 * forms; they lock rows in the same order, and a rare deadlock with each other is retried.
 */
const WRITERS = Math.max(1, Number(process.env.ANALYTICS_WRITERS) || 2);
/** Events waiting for a transaction beyond which new batches are refused (503, retried later). */
const MAX_WAITING_ROWS = 50_000;

export interface Sender {
  /** The sign-in session (anonymous or not) that sent the batch. */
  authSessionId: string;
  userId: string | null;
  /** The site's origin, for telling internal referrers from external ones. */
  siteOrigin: string;
  /** The client's address as the server sees it (server/http/rate-limit.ts `clientIp`): its daily budget. */
  clientIp: string;
}

export interface IngestResult {
  received: number;
  /** New events, counted now. */
  stored: number;
  /** Events already stored by an earlier attempt of the same batch: not counted again. */
  duplicates: number;
  /** Events dated more than 7 days back or in the future: dropped. */
  ignored: number;
  /** Events over a cap (server/analytics/caps.ts): accepted, counted nowhere, not stored. */
  dropped: number;
}

/** Parses a request body (already JSON-decoded) into events, or a 400 naming the problems. */
export function parseBatch(body: unknown): ValidatedAnalyticsEvent[] {
  const parsed = analyticsBatchSchema.safeParse(body);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error);
    throw badRequest(`invalid events: ${problems.join("; ")}`, { errors: problems });
  }
  return parsed.data;
}

/** Place ids known to exist, per database: listings are rarely deleted, and a miss re-checks. */
const knownIds = new WeakMap<Database, Set<string>>();

async function unknownLocationIds(db: Database, ids: Set<string>): Promise<string[]> {
  let known = knownIds.get(db);
  if (!known) knownIds.set(db, (known = new Set()));
  const missing = [...ids].filter((id) => !known.has(id));
  if (missing.length === 0) return [];
  const found = await db.select({ id: locations.placeId }).from(locations).where(inArray(locations.placeId, missing));
  if (known.size > 2_000_000) known.clear();
  for (const { id } of found) known.add(id);
  return missing.filter((id) => !known.has(id));
}

export function toEventRow(
  event: ValidatedAnalyticsEvent,
  sender: Sender,
  receivedAt = new Date(),
  ipKey = ipBudgetKey(sender.clientIp),
): EventRow {
  const referrer = event.referrer || null;
  return {
    eventId: event.eventId,
    eventType: event.eventType,
    occurredAt: new Date(event.timestamp),
    sessionId: event.sessionId,
    authSessionId: sender.authSessionId,
    // Never trust a user id from the body: record the session's own user, and only when the
    // tracker sent one at all (it omits it under Do-Not-Track / Global Privacy Control).
    userId: event.userId ? sender.userId : null,
    locationId: event.locationId ?? null,
    elementType: event.elementType ?? null,
    // Query strings and fragments can hold e-mail addresses and tokens: keep paths only.
    url: storedPath(event.url, sender.siteOrigin),
    referrer: storedReferrer(referrer),
    trafficSource:
      event.eventType === "page_view"
        ? referrer
          ? classifyTrafficSource(referrer, sender.siteOrigin)
          : (event.trafficSource ?? "direct")
        : null,
    userAgent: event.userAgent || null,
    viewport: event.viewport ?? null,
    receivedAt,
    ipKey,
  };
}

/**
 * Validates that every location exists, then stores the batch durably (returns after the commit).
 * Throws a 400 AppError naming unknown location ids.
 */
export async function ingestEvents(
  db: Database,
  events: readonly ValidatedAnalyticsEvent[],
  sender: Sender,
  now = new Date(),
): Promise<IngestResult> {
  const ids = new Set(events.flatMap((e) => (e.locationId ? [e.locationId] : [])));
  const unknown = await unknownLocationIds(db, ids);
  if (unknown.length > 0) {
    throw badRequest(`unknown location ids: ${unknown.slice(0, 10).join(", ")}`, { unknownLocationIds: unknown });
  }
  const rows: EventRow[] = [];
  const seen = new Set<string>();
  let ignored = 0;
  // One hash per batch, not per event.
  const ipKey = ipBudgetKey(sender.clientIp);
  for (const event of events) {
    const row = toEventRow(event, sender, now, ipKey);
    const age = now.getTime() - row.occurredAt.getTime();
    if (age > MAX_AGE_MS || age < -MAX_SKEW_MS) ignored++;
    else if (!seen.has(row.eventId)) {
      seen.add(row.eventId);
      rows.push(row);
    }
  }
  const { stored, dropped, counted } = await writerFor(db).write(rows);
  if (counted.size > 0) {
    // Search demand counts the results pages among the new page views (docs/product.md section 10).
    recordPageViews(
      events.flatMap((e) =>
        e.eventType === "page_view" && counted.has(e.eventId)
          ? [{ url: e.url, referrer: e.referrer, samePath: e.samePath }]
          : [],
      ),
      sender.siteOrigin,
      now,
    );
  }
  return {
    received: events.length,
    stored,
    duplicates: events.length - ignored - stored - dropped,
    ignored,
    dropped,
  };
}

interface Written {
  stored: number;
  dropped: number;
  /** The ids of the events stored and counted now. */
  counted: Set<string>;
}

interface Pending {
  rows: EventRow[];
  resolve(written: Written): void;
  reject(error: unknown): void;
}

/**
 * Group commit: concurrent batches wait while the writers' transactions run, then the next
 * transaction takes all of them at once. Under load this turns hundreds of small transactions per
 * second into a few large ones (one fsync each).
 */
class EventWriter {
  private queue: Pending[] = [];
  private waiting = 0;
  private running = 0;

  constructor(private readonly db: Database) {}

  write(rows: EventRow[]): Promise<Written> {
    if (rows.length === 0) return Promise.resolve({ stored: 0, dropped: 0, counted: new Set() });
    if (this.waiting + rows.length > MAX_WAITING_ROWS) {
      // The database is not keeping up: shed load rather than queue without bound.
      return Promise.reject(new AppError("busy", 503, "The analytics store is busy; retry later."));
    }
    this.waiting += rows.length;
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (this.running < WRITERS) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      while (this.queue.length > 0) {
        const group: Pending[] = [];
        let size = 0;
        while (
          this.queue.length > 0 &&
          (group.length === 0 || size + this.queue[0]!.rows.length <= MAX_ROWS_PER_TRANSACTION)
        ) {
          const next = this.queue.shift()!;
          group.push(next);
          size += next.rows.length;
          this.waiting -= next.rows.length;
        }
        try {
          const outcomes: Map<string, EventOutcome> = await withRetry(() =>
            storeEvents(
              this.db,
              group.flatMap((p) => p.rows),
            ),
          );
          for (const p of group) {
            // An event id repeated in two batches of one group is new for the first batch only.
            const written: Written = { stored: 0, dropped: 0, counted: new Set() };
            for (const row of p.rows) {
              const outcome = outcomes.get(row.eventId);
              if (!outcome) continue;
              outcomes.delete(row.eventId);
              if (outcome === "counted") {
                written.stored++;
                written.counted.add(row.eventId);
              } else written.dropped++;
            }
            p.resolve(written);
          }
        } catch (error) {
          for (const p of group) p.reject(error);
        }
      }
    } finally {
      this.running--;
    }
  }
}

const writers = new WeakMap<Database, EventWriter>();
function writerFor(db: Database): EventWriter {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new EventWriter(db)));
  return writer;
}

const RETRYABLE = new Set(["40P01", "40001"]);

/** Retries a transaction that lost a deadlock or serialization race with another instance. */
async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if (attempt >= attempts || !code || !RETRYABLE.has(code)) throw error;
      logger.warn({ code, attempt }, "analytics write retried");
    }
  }
}
