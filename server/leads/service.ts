import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import {
  COVER_WANT_LABELS,
  LEAD_LIMITS,
  LEAD_RETENTION_DAYS,
  RESERVATION_ANSWER_HOURS,
  RV_TYPE_LABELS,
  type CoverWant,
  type LeadKind,
  type LeadStatus,
  type ReservationStatus,
  type RvType,
} from "../../domain/leads";
import { RESERVATION_MESSAGES, reservationExpiry } from "../../domain/reservations";
import { displayUsPhone } from "../../domain/claim-form";
import { recordAudit } from "../audit/record";
import { serverNow } from "../clock";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import { leadMessages, leads, listingOwners, locations, users, type LeadRow } from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { AppError } from "../errors";

/**
 * Leads (docs/product.md section 14): a visitor's question about a space, stored with the emails
 * it sends in one transaction (to the owner with reply-to set to the visitor, and a receipt with a
 * withdraw link to the visitor), the owner's replies through the outbox, statuses, and the
 * contact details cleared after the retention period.
 */
const tx = (t: unknown) => t as Database;
/** A subject is one line; a name the form let through should never make an email unsendable. */
export const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

// Control characters other than the line break and tab: PostgreSQL refuses NUL, and none belongs in an email.
// eslint-disable-next-line no-control-regex -- these very characters are what must be refused
export const NOT_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Why a question was not taken: the listing left the site since its page was served. */
export const LEAD_REFUSALS = {
  deleted: "This listing was removed, so your question was not sent.",
  hidden: "This listing is not on the site right now, so your question was not sent.",
} as const;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface LeadInput {
  /** A question (the default), or a reservation request (docs/product.md section 17). */
  kind?: LeadKind;
  rvType: RvType;
  rvLengthFeet: number;
  cover: CoverWant;
  moveIn: string | null;
  name: string;
  email: string;
  phone: string | null;
  message: string;
}

export interface SubmittedLead {
  id: string;
  routedTo: "owner" | "admins";
  /** A second identical request from the same email: nothing new was stored or sent. */
  duplicate: boolean;
  listingPhone: string | null;
}

/**
 * A visitor's signed "form served at" time, so a bot cannot fake how long it took to fill. On the
 * server's clock (server/clock.ts): a browser test moves it past the minimum instead of waiting.
 */
export function formStamp(secret: string, now = serverNow().getTime()): string {
  const at = now.toString(36);
  return `${at}.${createHmac("sha256", secret).update(`lead-form:${at}`).digest("base64url").slice(0, 22)}`;
}

/** How many seconds ago a stamp was made; null when it is not one of ours. */
export function stampAgeSeconds(secret: string, stamp: string, now = serverNow().getTime()): number | null {
  const [at, mac] = stamp.slice(0, 64).split(".");
  if (!at || !mac || !/^[0-9a-z]{1,12}$/.test(at)) return null;
  const expected = createHmac("sha256", secret).update(`lead-form:${at}`).digest("base64url").slice(0, 22);
  if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return null;
  return (now - parseInt(at, 36)) / 1000;
}

/** Links in a message: http(s) URLs and bare www. addresses. */
export function linkCount(text: string): number {
  let n = 0;
  for (const word of text.split(/\s+/)) if (/^(https?:\/\/|www\.)/i.test(word)) n++;
  return n;
}

export function describe(input: Pick<LeadInput, "rvType" | "rvLengthFeet" | "cover" | "moveIn">): string[] {
  return [
    `RV: ${RV_TYPE_LABELS[input.rvType]}, ${input.rvLengthFeet} ft`,
    `Space: ${COVER_WANT_LABELS[input.cover]}`,
    `Move-in: ${input.moveIn ?? "not given"}`,
  ];
}

/**
 * Stores a lead for listing `locationId` and queues its emails. The same email asking the same
 * listing the same thing within a day is answered as sent without storing or sending it twice.
 */
export async function submitLead(
  db: Database,
  request: { locationId: string; input: LeadInput; visitorUserId: string | null; now?: Date },
): Promise<SubmittedLead> {
  const { input } = request;
  const kind = input.kind ?? "question";
  const now = request.now ?? new Date();
  const site = publicUrl(getConfig());
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    // Locked until the lead is stored: a listing hidden or deleted meanwhile takes no question.
    const [listing] = await db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        slug: locations.slug,
        phone: locations.phoneNumber,
        hiddenAt: locations.hiddenAt,
        deletedAt: locations.deletedAt,
      })
      .from(locations)
      .where(eq(locations.placeId, request.locationId))
      .for("share");
    // The same answers as the facility page's (docs/product.md section 12): gone, or not here.
    if (listing?.deletedAt) throw new AppError("gone", 410, LEAD_REFUSALS.deleted);
    if (!listing || listing.hiddenAt) throw new AppError("not_found", 404, LEAD_REFUSALS.hidden);
    const [same] = await db
      .select({ id: leads.id, routedTo: leads.routedTo })
      .from(leads)
      .where(
        and(
          eq(leads.locationId, listing.placeId),
          eq(leads.kind, kind),
          eq(leads.email, input.email),
          eq(leads.message, input.message),
          gte(leads.createdAt, new Date(now.getTime() - 86_400_000)),
        ),
      )
      .limit(1);
    if (same) return { id: same.id, routedTo: same.routedTo, duplicate: true, listingPhone: listing.phone };
    // A listing has one owner (listing_owners' key); the lead is theirs for good, even after a transfer.
    const [recipient] = await db
      .select({ userId: users.id, email: users.email, name: users.name })
      .from(listingOwners)
      .innerJoin(users, eq(users.id, listingOwners.userId))
      .where(eq(listingOwners.locationId, listing.placeId));
    const routedTo = recipient ? "owner" : "admins";
    // Only an owner can accept a reservation: a listing nobody owns takes questions only.
    if (kind === "reservation" && !recipient)
      throw new AppError("bad_request", 400, RESERVATION_MESSAGES.unowned, { field: "kind" });
    const expiresAt = kind === "reservation" ? reservationExpiry(now) : null;
    const id = randomUUID();
    const token = randomBytes(24).toString("base64url");
    await db.insert(leads).values({
      id,
      locationId: listing.placeId,
      routedTo,
      kind,
      reservationStatus: kind === "reservation" ? "pending" : null,
      expiresAt,
      rvType: input.rvType,
      rvLengthFeet: input.rvLengthFeet,
      cover: input.cover,
      moveIn: input.moveIn,
      name: input.name,
      email: input.email,
      phone: input.phone,
      message: input.message,
      withdrawTokenHash: hashToken(token),
      visitorUserId: request.visitorUserId,
      recipientUserId: recipient?.userId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const details = describe(input);
    if (kind === "reservation" && recipient && expiresAt) {
      await enqueueEmail(db, {
        kind: "reservation.new",
        to: recipient.email,
        replyTo: input.email,
        subject: oneLine(`${input.name} asks to reserve a space at ${listing.name}`).slice(0, 300),
        text: [
          `Hello${recipient.name ? ` ${recipient.name}` : ""},`,
          "",
          `${input.name} asks to reserve a space at ${listing.name} (a request, no payment):`,
          "",
          ...details.map((l) => `  ${l}`),
          "",
          ...input.message.split("\n").map((l) => `  ${l}`),
          "",
          `Accept or decline it in your console within ${RESERVATION_ANSWER_HOURS} hours, by ${utcTime(expiresAt)}; after that it expires and ${input.name} is told you did not answer:`,
          `${site}/owner/leads?kind=reservation`,
          "",
          `Reply to this email to write to ${input.name} directly${input.phone ? `, or call ${displayUsPhone(input.phone)}` : ""}.`,
        ].join("\n"),
      });
    } else if (recipient) {
      const owner = recipient;
      await enqueueEmail(db, {
        kind: "lead.new",
        to: owner.email,
        replyTo: input.email,
        subject: oneLine(`${input.name} asks about a space at ${listing.name}`).slice(0, 300),
        text: [
          `Hello${owner.name ? ` ${owner.name}` : ""},`,
          "",
          `${input.name} asked about a space at ${listing.name}:`,
          "",
          ...details.map((l) => `  ${l}`),
          "",
          ...input.message.split("\n").map((l) => `  ${l}`),
          "",
          `Reply to this email to answer ${input.name} directly${input.phone ? `, or call ${displayUsPhone(input.phone)}` : ""}.`,
          `Your leads, with their status and replies, are in your console: ${site}/owner/leads`,
        ].join("\n"),
      });
    }
    // The receipt goes to whatever address was typed, before anyone confirmed it: so it carries
    // none of the visitor's words (no name, no message), only our text, the facility's and the
    // answers picked from lists, and cannot relay a stranger's message (docs/product.md section 14).
    const reservation = kind === "reservation";
    await enqueueEmail(db, {
      kind: reservation ? "reservation.receipt" : "lead.receipt",
      to: input.email,
      subject: oneLine(`Your ${reservation ? "reservation request" : "question"} to ${listing.name}`).slice(0, 300),
      text: [
        "Hello,",
        "",
        reservation
          ? `We passed your reservation request on to ${listing.name}. They have ${RESERVATION_ANSWER_HOURS} hours to accept or decline it; we email you their answer, or tell you if they do not answer in time. No payment is taken here.`
          : routedTo === "owner"
            ? `We passed your question on to ${listing.name}. They answer you directly by email${input.phone ? " or phone" : ""}.`
            : `${listing.name} has not claimed its listing on our site yet, so our team will pass your question on.${listing.phone ? ` For a faster answer, call them at ${listing.phone}.` : ""}`,
        "",
        reservation ? "You asked to reserve:" : "You asked about:",
        "",
        ...details.map((l) => `  ${l}`),
        "",
        `The facility's page: ${site}/location/${listing.slug}`,
        "",
        `Changed your mind, or did not send this? Withdraw the request, and we delete the contact details: ${site}/leads/withdraw?token=${token}`,
        `We keep contact details for ${LEAD_RETENTION_DAYS} days at most.`,
      ].join("\n"),
    });
    return { id, routedTo, duplicate: false, listingPhone: listing.phone } as const;
  });
  if (!result.duplicate) kickEmail();
  return result;
}

/** An instant as the emails say it: "Jun 4, 2026, 3:15 PM UTC". */
export const utcTime = (at: Date) =>
  `${at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

/** The lead a withdraw link names, for its confirmation page; undefined when the link is not one. */
export async function leadByToken(db: Database, token: string) {
  if (token.length < 20 || token.length > 100) return undefined;
  const [row] = await db
    .select({ id: leads.id, status: leads.status, listing: locations.name, createdAt: leads.createdAt })
    .from(leads)
    .innerJoin(locations, eq(locations.placeId, leads.locationId))
    .where(eq(leads.withdrawTokenHash, hashToken(token)));
  return row;
}

/** Withdraws the request of a receipt's link: its contact details are deleted at once. */
export async function withdrawLead(db: Database, token: string, now = new Date()): Promise<boolean> {
  const lead = await leadByToken(db, token);
  if (!lead) return false;
  await db
    .update(leads)
    .set({ status: "withdrawn", name: null, email: null, phone: null, contactDeletedAt: now, updatedAt: now })
    .where(eq(leads.id, lead.id));
  return true;
}

export interface LeadViewer {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

const LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The lead `id` if `viewer` may see it: the owner it was sent to (not whoever owns the listing
 * now: a transfer leaves leads with the owner they were sent to), or an admin; 404 otherwise.
 */
export async function readableLead(
  db: Database,
  viewer: LeadViewer,
  id: string,
): Promise<LeadRow & { listingName: string }> {
  // Ids are UUIDs: anything else (a NUL byte PostgreSQL would refuse, say) names no lead.
  if (!LEAD_ID.test(id)) throw new AppError("not_found", 404, "No such lead.");
  const [row] = await db
    .select({ lead: leads, listingName: locations.name })
    .from(leads)
    .innerJoin(locations, eq(locations.placeId, leads.locationId))
    .where(eq(leads.id, id));
  // Another owner's lead is answered as if it did not exist.
  if (!row || (!viewer.isAdmin && row.lead.recipientUserId !== viewer.userId))
    throw new AppError("not_found", 404, "No such lead.");
  return { ...row.lead, listingName: row.listingName };
}

/** The owner's (or admin's) reply, sent to the visitor through the outbox and kept in the thread. */
export async function replyToLead(
  db: Database,
  request: { viewer: LeadViewer; leadId: string; body: string; requestId?: string | null; now?: Date },
): Promise<void> {
  const body = request.body.replace(/\r\n?/g, "\n").trim();
  if (!body) throw new AppError("bad_request", 400, "Write your reply first.");
  if (NOT_TEXT.test(body))
    throw new AppError("bad_request", 400, "Write the reply as plain text, without special characters.");
  if (body.length > LEAD_LIMITS.replyMax)
    throw new AppError(
      "bad_request",
      400,
      `Keep the reply under ${LEAD_LIMITS.replyMax.toLocaleString("en-US")} characters.`,
    );
  const now = request.now ?? new Date();
  await db.transaction(async (t) => {
    const db = tx(t);
    const lead = await readableLead(db, request.viewer, request.leadId);
    if (!lead.email || lead.status === "withdrawn")
      throw new AppError(
        "conflict",
        409,
        "The visitor withdrew this request or its contact details were deleted: it cannot be answered here.",
      );
    const emailId = await enqueueEmail(db, {
      kind: "lead.reply",
      to: lead.email,
      replyTo: request.viewer.email,
      subject: `Re: your question to ${lead.listingName}`.slice(0, 300),
      text: [
        `Hello${lead.name ? ` ${lead.name}` : ""},`,
        "",
        `${lead.listingName} answered your question about a space:`,
        "",
        ...body.split("\n").map((l) => `  ${l}`),
        "",
        "Reply to this email to answer them.",
      ].join("\n"),
    });
    await db.insert(leadMessages).values({
      leadId: lead.id,
      authorUserId: request.viewer.userId,
      authorName: request.viewer.name || request.viewer.email,
      body,
      emailId,
      createdAt: now,
    });
    if (lead.status === "new")
      await db.update(leads).set({ status: "replied", updatedAt: now }).where(eq(leads.id, lead.id));
    await recordAudit(db, {
      actor: { userId: request.viewer.userId, email: request.viewer.email },
      action: "lead.reply",
      subject: { type: "lead", id: lead.id },
      requestId: request.requestId,
    });
  });
  kickEmail();
}

/** Sets a lead's status (owners: new, replied, won, lost; admins may also mark one handled). */
export async function setLeadStatus(
  db: Database,
  request: { viewer: LeadViewer; leadId: string; status: LeadStatus; requestId?: string | null; now?: Date },
): Promise<{ before: LeadStatus }> {
  const allowed: LeadStatus[] = request.viewer.isAdmin
    ? ["new", "replied", "won", "lost", "handled"]
    : ["new", "replied", "won", "lost"];
  if (!allowed.includes(request.status)) throw new AppError("bad_request", 400, "Choose new, replied, won or lost.");
  return db.transaction(async (t) => {
    const db = tx(t);
    const lead = await readableLead(db, request.viewer, request.leadId);
    if (lead.status === "withdrawn") throw new AppError("conflict", 409, "The visitor withdrew this request.");
    await db
      .update(leads)
      .set({ status: request.status, updatedAt: request.now ?? new Date() })
      .where(eq(leads.id, lead.id));
    await recordAudit(db, {
      actor: { userId: request.viewer.userId, email: request.viewer.email },
      action: "lead.status",
      subject: { type: "lead", id: lead.id },
      before: { status: lead.status },
      after: { status: request.status },
      requestId: request.requestId,
    });
    return { before: lead.status };
  });
}

export interface LeadListItem {
  id: string;
  locationId: string;
  listingName: string;
  status: LeadStatus;
  kind: LeadKind;
  /** As stored: a pending request past `expiresAt` is shown as expired (domain/reservations.ts). */
  reservationStatus: ReservationStatus | null;
  expiresAt: Date | null;
  answeredAt: Date | null;
  rvType: RvType;
  rvLengthFeet: number;
  cover: CoverWant;
  moveIn: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string;
  createdAt: Date;
  replies: { authorName: string; body: string; createdAt: Date }[];
}

/** What a list of leads shows of each (with its listing's name). */
const LEAD_COLUMNS = {
  id: leads.id,
  locationId: leads.locationId,
  listingName: locations.name,
  kind: leads.kind,
  reservationStatus: leads.reservationStatus,
  expiresAt: leads.expiresAt,
  answeredAt: leads.answeredAt,
  rvType: leads.rvType,
  rvLengthFeet: leads.rvLengthFeet,
  cover: leads.cover,
  moveIn: leads.moveIn,
  name: leads.name,
  email: leads.email,
  phone: leads.phone,
  message: leads.message,
  createdAt: leads.createdAt,
};

/**
 * The leads sent to owner `recipientUserId` (all of them, or those of listing `locationId`),
 * newest first, with their replies. Whoever owns the listing now plays no part (docs/product.md
 * section 14): a lead is the conversation of the owner it was sent to.
 */
export async function leadsOf(
  db: Database,
  { recipientUserId, locationId }: { recipientUserId: string; locationId?: string },
  {
    status,
    kind = "all",
    page,
    pageSize,
  }: { status: LeadStatus | "all"; kind?: LeadKind | "all"; page: number; pageSize: number },
): Promise<{ rows: LeadListItem[]; total: number }> {
  const where = and(
    eq(leads.recipientUserId, recipientUserId),
    locationId ? eq(leads.locationId, locationId) : undefined,
    status === "all" ? undefined : eq(leads.status, status),
    kind === "all" ? undefined : eq(leads.kind, kind),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...LEAD_COLUMNS, status: leads.status })
      .from(leads)
      .innerJoin(locations, eq(locations.placeId, leads.locationId))
      .where(where)
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  const replies =
    rows.length === 0
      ? []
      : await db
          .select({
            leadId: leadMessages.leadId,
            authorName: leadMessages.authorName,
            body: leadMessages.body,
            createdAt: leadMessages.createdAt,
          })
          .from(leadMessages)
          .where(
            inArray(
              leadMessages.leadId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(leadMessages.createdAt));
  return {
    rows: rows.map((r) => ({
      ...r,
      replies: replies.filter((m) => m.leadId === r.id).map(({ leadId: _, ...m }) => m),
    })),
    total: total?.n ?? 0,
  };
}

/**
 * The listings `recipientUserId` has leads of, by name: the owner console's listing filter offers
 * them beside the listings they own, since a listing they gave up keeps its old leads with them.
 */
export async function listingsWithLeadsFor(db: Database, recipientUserId: string) {
  return db
    .selectDistinct({ placeId: locations.placeId, name: locations.name })
    .from(leads)
    .innerJoin(locations, eq(locations.placeId, leads.locationId))
    .where(eq(leads.recipientUserId, recipientUserId))
    .orderBy(locations.name, locations.placeId);
}

/**
 * Hands the questions asked while listing `locationId` had no owner (routed to the admins, no
 * recipient) to its new owner `userId`, in the caller's transaction: a claim approved or an owner
 * assigned by an admin (docs/product.md section 14). The lead moves, it is not copied: it leaves
 * the admins' queue and joins the owner's leads. Leads sent to an earlier owner stay theirs, and
 * those of a deleted owner's account (routed to an owner, no recipient any more) stay the admins'.
 * One audit row per moved lead. Returns how many moved.
 */
export async function handUnclaimedLeadsTo(
  db: Database,
  request: {
    locationId: string;
    userId: string;
    actor: { userId: string | null; email: string | null };
    requestId?: string | null;
    now: Date;
  },
): Promise<number> {
  const moved = await db
    .update(leads)
    .set({ routedTo: "owner", recipientUserId: request.userId, updatedAt: request.now })
    .where(and(eq(leads.locationId, request.locationId), eq(leads.routedTo, "admins"), isNull(leads.recipientUserId)))
    .returning({ id: leads.id });
  for (const { id } of moved)
    await recordAudit(db, {
      actor: request.actor,
      action: "lead.recipient.set",
      subject: { type: "lead", id },
      before: { routedTo: "admins", recipientUserId: null },
      after: { routedTo: "owner", recipientUserId: request.userId },
      requestId: request.requestId,
    });
  return moved.length;
}

// Nobody but the admins can answer a new lead with no recipient: one to a listing without an
// owner, or one whose owner's account was deleted since (the column is then set null).
const WAITING_FOR_ADMINS = and(isNull(leads.recipientUserId), eq(leads.status, "new"));

/** Leads nobody but the admins can answer, that nobody handled yet: the admins' work queue. */
export async function unownedLeads(db: Database, { page, pageSize }: { page: number; pageSize: number }) {
  return db
    .select({ ...LEAD_COLUMNS, listingPhone: locations.phoneNumber })
    .from(leads)
    .innerJoin(locations, eq(locations.placeId, leads.locationId))
    .where(WAITING_FOR_ADMINS)
    .orderBy(asc(leads.createdAt))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** How many leads wait in the admins' queue (the queue's tab and the overview). */
export async function unownedLeadCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(leads).where(WAITING_FOR_ADMINS);
  return row?.n ?? 0;
}

/** Leads per UTC day for listings `ids` in [from, to] (the analytics' lead series). */
export async function leadsPerDay(
  db: Database,
  ids: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ day: sql<string>`to_char(${leads.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`, n: count() })
    .from(leads)
    .where(
      and(
        inArray(leads.locationId, [...ids]),
        gte(leads.createdAt, new Date(`${from}T00:00:00Z`)),
        lt(leads.createdAt, new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000)),
      ),
    )
    .groupBy(sql`1`);
  return new Map(rows.map((r) => [String(r.day), Number(r.n)]));
}

/** Clears the contact details of leads older than the retention period; returns how many. */
export async function purgeLeadContacts(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - LEAD_RETENTION_DAYS * 86_400_000);
  const rows = await db
    .update(leads)
    .set({ name: null, email: null, phone: null, contactDeletedAt: now })
    .where(and(lt(leads.createdAt, cutoff), isNull(leads.contactDeletedAt)))
    .returning({ id: leads.id });
  return rows.length;
}
