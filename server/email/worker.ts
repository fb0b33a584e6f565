import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { emailOutbox, type EmailOutboxRow } from "../db/schema";
import { logger } from "../logger";
import { startOutboxPoller, type OutboxPoller } from "../outbox-poller";
import { isPermanentFailure, type MailTransport } from "./transport";

/** Attempts before a message is marked `failed` and left for an operator (docs/operations.md). */
export const MAX_ATTEMPTS = 10;

/**
 * The wait after the Nth failed attempt (index N - 1), the last one repeating: just over four days
 * (103 h) from the first attempt to the tenth, long enough to outlast a weekend outage.
 */
export const RETRY_DELAYS_MS = [
  30_000, // 30 s
  2 * 60_000, // 2 min
  10 * 60_000, // 10 min
  60 * 60_000, // 1 h
  6 * 60 * 60_000, // 6 h
  24 * 60 * 60_000, // then daily
];

/**
 * How long a claimed row stays invisible to other workers while this one sends it. A worker that
 * dies mid-send leaves the row to be sent again after the lease (at-least-once delivery).
 */
export const LEASE_MS = 5 * 60_000;

/** The longest one SMTP send can take with the transport's timeouts, and then some. */
const SEND_BUDGET_MS = 60_000;

export function retryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
}

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
  /** Claimed but handed back untried because the lease was running out. */
  released: number;
}

/**
 * Sends the email that is due, once.
 *
 * 1. A short transaction claims up to `batch` due rows (`status = 'pending'` and
 *    `next_attempt_at <= now`) with `SELECT … FOR UPDATE SKIP LOCKED`, counts the attempt and
 *    moves `next_attempt_at` to now + lease. Another worker, here or in another instance, skips
 *    the rows locked by the claim and finds them not due once it commits, so no two workers send
 *    the same row at the same time; and no lock is held while talking to the mail server.
 * 2. Each row is sent outside any transaction, then marked `sent`, or scheduled for a retry
 *    with back-off, or marked `failed` after `MAX_ATTEMPTS` (or at once for a permanent refusal,
 *    see `isPermanentFailure`).
 *
 * A crash between sending and marking sends that row again after the lease: delivery is at
 * least once, and the Message-ID is the same every time so a receiver can tell.
 *
 * `now` is the clock for the claim and every time written, so a test can run the worker in the
 * future; the lease budget itself is measured with the real clock.
 */
export async function deliverDueEmail(
  db: Database,
  transport: MailTransport,
  options: { now?: Date; batch?: number } = {},
): Promise<DeliveryResult> {
  const now = options.now ?? new Date();
  const claimed = await claimDue(db, now, options.batch ?? 20);
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0, released: 0 };
  const started = performance.now();

  for (const [index, row] of claimed.entries()) {
    if (performance.now() - started > LEASE_MS - SEND_BUDGET_MS) {
      result.released = await release(db, claimed.slice(index));
      break;
    }
    let deliveredAs: string;
    try {
      ({ deliveredAs } = await transport.send({
        id: row.id,
        kind: row.kind,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        replyTo: row.replyTo,
        createdAt: row.createdAt,
      }));
    } catch (error) {
      const outcome = await recordFailure(db, row, error, now);
      result[outcome]++;
      continue;
    }
    await db
      .update(emailOutbox)
      .set({ status: "sent", sentAt: now, deliveredAs, lastError: null })
      .where(eq(emailOutbox.id, row.id));
    result.sent++;
  }
  return result;
}

async function recordFailure(
  db: Database,
  row: EmailOutboxRow,
  error: unknown,
  now: Date,
): Promise<"failed" | "retrying"> {
  const message = describeError(error);
  const permanent = isPermanentFailure(error);
  const givesUp = permanent || row.attempts >= MAX_ATTEMPTS;
  // Only while the row is still ours: had the lease run out and another worker taken it (and
  // maybe sent it), that claim counted a further attempt, and its outcome stands.
  await db
    .update(emailOutbox)
    .set(
      givesUp
        ? { status: "failed", lastError: message }
        : { nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts)), lastError: message },
    )
    .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, "pending"), eq(emailOutbox.attempts, row.attempts)));
  const fields = { emailId: row.id, kind: row.kind, attempts: row.attempts, error: message };
  if (givesUp) {
    logger.error(
      { ...fields, permanent },
      permanent ? "email refused by the mail server; not retried" : "email failed for good after every retry",
    );
    return "failed";
  }
  logger.warn({ ...fields, retryInMs: retryDelayMs(row.attempts) }, "email not sent; it will be retried");
  return "retrying";
}

async function claimDue(db: Database, now: Date, batch: number): Promise<EmailOutboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      // PostgreSQL keeps microseconds and a Date milliseconds: a row written in the millisecond of
      // `now` (enqueued, then kicked at once) is due too, not left for the next poll.
      .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, new Date(now.getTime() + 1))))
      .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
      .limit(batch)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const rows = await tx
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        inArray(
          emailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  });
}

/** Hands rows back untried: due again at once, and the attempt the claim counted uncounted. */
async function release(db: Database, rows: EmailOutboxRow[]): Promise<number> {
  let released = 0;
  for (const row of rows) {
    const done = await db
      .update(emailOutbox)
      .set({ attempts: row.attempts - 1, nextAttemptAt: new Date() })
      .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, "pending"), eq(emailOutbox.attempts, row.attempts)))
      .returning({ id: emailOutbox.id });
    released += done.length;
  }
  return released;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 1000);
  const { code, response } = error as Error & { code?: unknown; response?: unknown };
  const parts = [
    typeof code === "string" ? code : undefined,
    error.message,
    typeof response === "string" ? response : undefined,
  ];
  return [...new Set(parts.filter(Boolean))].join(": ").slice(0, 1000);
}

export type EmailWorker = OutboxPoller;

/** Polls the outbox every `intervalMs` (default 5 s), 20 messages a batch (server/outbox-poller.ts). */
export function startEmailWorker(
  db: Database,
  transport: MailTransport,
  options: { intervalMs?: number; batch?: number } = {},
): EmailWorker {
  logger.info(`email is ${transport.describe()}`);
  return startOutboxPoller({
    failure: "email delivery run failed",
    intervalMs: options.intervalMs ?? 5000,
    batch: options.batch ?? 20,
    drain: async (batch) => {
      const result = await deliverDueEmail(db, transport, { batch });
      return result.sent + result.retrying + result.failed + result.released;
    },
  });
}
