/**
 * Reservation requests (docs/product.md section 17, "Reservation requests"): a lead of kind
 * "reservation" that its owner accepts or declines within RESERVATION_ANSWER_HOURS, or that a
 * daily job expires. Every answer emails both sides through the outbox in the transaction that
 * records it, and goes in the audit trail. Submitting one is the lead form's (./service.ts).
 */
import { and, count, eq, gt, gte, inArray, lt, lte, sql } from "drizzle-orm";
import type { ReservationStatus } from "../../domain/leads";
import { RESERVATION_MESSAGES, RESERVATION_NOTE_MAX, shownReservationStatus } from "../../domain/reservations";
import { displayUsPhone } from "../../domain/claim-form";
import { recordAudit, SYSTEM_ACTOR } from "../audit/record";
import { serverNow } from "../clock";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import { leadMessages, leads, locations, users } from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { AppError } from "../errors";
import { logger } from "../logger";
import { describe, NOT_TEXT, oneLine, readableLead, type LeadViewer } from "./service";

const tx = (t: unknown) => t as Database;
const DAY_MS = 86_400_000;
/** Requests expired per transaction by the daily job: a backlog is worked through in short steps. */
const EXPIRE_BATCH = 200;

export type ReservationAnswer = "accept" | "decline";

/** The owner's optional note when declining: plain text, capped; empty is none. */
export function parseReservationNote(raw: string): string | null {
  const note = raw.replace(/\r\n?/g, "\n").trim();
  if (!note) return null;
  if (note.length > RESERVATION_NOTE_MAX) throw new AppError("bad_request", 400, RESERVATION_MESSAGES.noteTooLong);
  if (NOT_TEXT.test(note)) throw new AppError("bad_request", 400, RESERVATION_MESSAGES.noteNotText);
  return note;
}

async function ownerOf(db: Database, userId: string | null) {
  if (!userId) return undefined;
  const [row] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  return row;
}

/**
 * The owner it was sent to (or an admin) accepts or declines pending request `leadId`. Refused
 * with 409, changing nothing, when it is a question, was withdrawn, was answered already or its
 * time ran out (even before the daily job marked it expired); another owner's is a 404.
 * Accepting marks the lead Won, declining Lost. Returns the new status.
 */
export async function answerReservation(
  db: Database,
  request: {
    viewer: LeadViewer;
    leadId: string;
    answer: ReservationAnswer;
    /** Declining only: a short note to the visitor. */
    note?: string;
    requestId?: string | null;
    now?: Date;
  },
): Promise<ReservationStatus> {
  const note = request.answer === "decline" ? parseReservationNote(request.note ?? "") : null;
  const now = request.now ?? serverNow();
  const site = publicUrl(getConfig());
  const status: ReservationStatus = request.answer === "accept" ? "accepted" : "declined";
  await db.transaction(async (t) => {
    const db = tx(t);
    const lead = await readableLead(db, request.viewer, request.leadId);
    if (lead.kind !== "reservation" || !lead.reservationStatus)
      throw new AppError("conflict", 409, RESERVATION_MESSAGES.notReservation);
    if (lead.status === "withdrawn" || !lead.email) throw new AppError("conflict", 409, RESERVATION_MESSAGES.withdrawn);
    const shown = shownReservationStatus(lead.reservationStatus, lead.expiresAt, now);
    if (shown !== "pending") throw new AppError("conflict", 409, RESERVATION_MESSAGES.alreadyAnswered(shown));
    // Conditional: of two answers at once (two tabs, an owner and an admin), one wins.
    const [claimed] = await db
      .update(leads)
      .set({
        reservationStatus: status,
        answeredAt: now,
        status: status === "accepted" ? "won" : "lost",
        updatedAt: now,
      })
      .where(and(eq(leads.id, lead.id), eq(leads.reservationStatus, "pending"), gt(leads.expiresAt, now)))
      .returning({ id: leads.id });
    if (!claimed) throw new AppError("conflict", 409, RESERVATION_MESSAGES.alreadyAnswered(status));
    const owner = (await ownerOf(db, lead.recipientUserId)) ?? { email: request.viewer.email, name: null };
    const details = describe(lead).map((l) => `  ${l}`);
    const visitorEmailId = await enqueueEmail(db, {
      kind: `reservation.${status}`,
      to: lead.email,
      replyTo: owner.email,
      subject: `${lead.listingName} ${status} your reservation request`.slice(0, 300),
      text: [
        `Hello${lead.name ? ` ${lead.name}` : ""},`,
        "",
        status === "accepted"
          ? `Good news: ${lead.listingName} accepted your reservation request. They will contact you to arrange the move-in and payment; reply to this email to write to them.`
          : `${lead.listingName} declined your reservation request.`,
        ...(note ? ["", "Their note:", "", ...note.split("\n").map((l) => `  ${l}`)] : []),
        "",
        "Your request:",
        "",
        ...details,
        "",
        status === "accepted" ? "No payment was taken on our site." : `Other facilities near it: ${site}/rv-storage`,
      ].join("\n"),
    });
    const answeredBy = request.viewer.userId === lead.recipientUserId ? "You" : "Our team";
    await enqueueEmail(db, {
      kind: "reservation.answered",
      to: owner.email,
      replyTo: lead.email,
      subject: oneLine(
        `${answeredBy} ${status} ${lead.name ?? "a visitor"}'s reservation request at ${lead.listingName}`,
      ).slice(0, 300),
      text: [
        `Hello${owner.name ? ` ${owner.name}` : ""},`,
        "",
        `${answeredBy} ${status} the reservation request of ${lead.name ?? "a visitor"} at ${lead.listingName}; we emailed them.`,
        "",
        ...details,
        `  Contact: ${lead.email}${lead.phone ? `, ${displayUsPhone(lead.phone)}` : ""}`,
        ...(note ? ["", "Your note:", "", ...note.split("\n").map((l) => `  ${l}`)] : []),
        "",
        status === "accepted"
          ? "Reply to this email to arrange the move-in with them. No payment was taken on our site."
          : "Reply to this email to write to them.",
        `Your reservation requests: ${site}/owner/leads?kind=reservation`,
      ].join("\n"),
    });
    // The note joins the lead's thread, as a reply would (it does not count as "Stored here": only
    // an accepted request does, docs/product.md section 16).
    if (note)
      await db.insert(leadMessages).values({
        leadId: lead.id,
        authorUserId: request.viewer.userId,
        authorName: request.viewer.name || request.viewer.email,
        body: note,
        emailId: visitorEmailId,
        createdAt: now,
      });
    await recordAudit(db, {
      actor: { userId: request.viewer.userId, email: request.viewer.email },
      action: `lead.reservation.${request.answer}`,
      subject: { type: "lead", id: lead.id },
      before: { reservationStatus: "pending", status: lead.status },
      after: { reservationStatus: status, status: status === "accepted" ? "won" : "lost" },
      requestId: request.requestId,
    });
  });
  kickEmail();
  return status;
}

/**
 * The daily job: pending requests past their expiry become expired (answered now), and both sides
 * are emailed once (none for a request the visitor withdrew). Rows are claimed by a conditional
 * UPDATE in the transaction that queues their emails, skipping rows another instance holds, so
 * several instances at once, or a second run, never email twice. Returns how many expired.
 */
export async function expireReservationRequests(db: Database, now = serverNow()): Promise<number> {
  const site = publicUrl(getConfig());
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (t) => {
      const db = tx(t);
      const due = and(eq(leads.kind, "reservation"), eq(leads.reservationStatus, "pending"), lte(leads.expiresAt, now));
      const rows = await db
        .update(leads)
        .set({ reservationStatus: "expired", answeredAt: now, updatedAt: now })
        .where(
          and(
            due,
            inArray(
              leads.id,
              db
                .select({ id: leads.id })
                .from(leads)
                .where(due)
                .limit(EXPIRE_BATCH)
                .for("update", { skipLocked: true }),
            ),
          ),
        )
        .returning();
      for (const lead of rows) {
        const [listing] = await db
          .select({ name: locations.name })
          .from(locations)
          .where(eq(locations.placeId, lead.locationId));
        const listingName = listing?.name ?? "The facility";
        const details = describe(lead).map((l) => `  ${l}`);
        const withdrawn = lead.status === "withdrawn";
        if (lead.email && !withdrawn)
          await enqueueEmail(db, {
            kind: "reservation.expired",
            to: lead.email,
            subject: `${listingName} did not answer your reservation request`.slice(0, 300),
            text: [
              "Hello,",
              "",
              `${listingName} did not accept or decline your reservation request in time, so it expired. Nothing was reserved, and no payment was taken.`,
              "",
              "Your request:",
              "",
              ...details,
              "",
              `Other facilities near it: ${site}/rv-storage`,
            ].join("\n"),
          });
        const owner = withdrawn ? undefined : await ownerOf(db, lead.recipientUserId);
        if (owner)
          await enqueueEmail(db, {
            kind: "reservation.expired.owner",
            to: owner.email,
            ...(lead.email ? { replyTo: lead.email } : {}),
            subject: oneLine(`A reservation request at ${listingName} expired without an answer`).slice(0, 300),
            text: [
              `Hello${owner.name ? ` ${owner.name}` : ""},`,
              "",
              `The reservation request of ${lead.name ?? "a visitor"} at ${listingName} was not answered in time, so it expired; we told them.`,
              "",
              ...details,
              "",
              `Your reservation requests: ${site}/owner/leads?kind=reservation`,
            ].join("\n"),
          });
        await recordAudit(db, {
          actor: SYSTEM_ACTOR,
          action: "lead.reservation.expire",
          subject: { type: "lead", id: lead.id },
          before: { reservationStatus: "pending" },
          after: { reservationStatus: "expired" },
        });
      }
      return rows.length;
    });
    total += expired;
    if (expired < EXPIRE_BATCH) break;
  }
  if (total > 0) {
    kickEmail();
    logger.info({ expired: total }, "unanswered reservation requests expired");
  }
  return total;
}

/** Pending requests sent to `recipientUserId` still within their time: the console's tab count. */
export async function pendingReservationCount(db: Database, recipientUserId: string, now = serverNow()) {
  const [row] = await db
    .select({ n: count() })
    .from(leads)
    .where(
      and(eq(leads.recipientUserId, recipientUserId), eq(leads.reservationStatus, "pending"), gt(leads.expiresAt, now)),
    );
  return row?.n ?? 0;
}

const dayStart = (date: string) => new Date(`${date}T00:00:00Z`);
const dayAfter = (date: string) => new Date(dayStart(date).getTime() + DAY_MS);

/**
 * Reservation requests per UTC day for listings `ids` (every listing when null) in [from, to]:
 * those sent each day, and those accepted each day (by the day of the answer). The analytics'
 * conversions (docs/product.md section 10, "Analytics").
 */
export async function reservationsPerDay(
  db: Database,
  ids: readonly string[] | null,
  from: string,
  to: string,
): Promise<{ requests: Map<string, number>; accepted: Map<string, number> }> {
  if (ids !== null && ids.length === 0) return { requests: new Map(), accepted: new Map() };
  const inListings = ids === null ? undefined : inArray(leads.locationId, [...ids]);
  const perDay = (column: typeof leads.createdAt | typeof leads.answeredAt) =>
    sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [sent, accepted] = await Promise.all([
    db
      .select({ day: perDay(leads.createdAt), n: count() })
      .from(leads)
      .where(
        and(
          eq(leads.kind, "reservation"),
          inListings,
          gte(leads.createdAt, dayStart(from)),
          lt(leads.createdAt, dayAfter(to)),
        ),
      )
      .groupBy(sql`1`),
    db
      .select({ day: perDay(leads.answeredAt), n: count() })
      .from(leads)
      .where(
        and(
          eq(leads.reservationStatus, "accepted"),
          inListings,
          gte(leads.answeredAt, dayStart(from)),
          lt(leads.answeredAt, dayAfter(to)),
        ),
      )
      .groupBy(sql`1`),
  ]);
  const toMap = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [String(r.day), Number(r.n)]));
  return { requests: toMap(sent), accepted: toMap(accepted) };
}
