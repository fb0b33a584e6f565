/**
 * Visitors' reports ("Suggest an edit") and the work queue's reads and decisions on reports and
 * data problems (docs/product.md section 12). Every decision is one transaction with its audit row.
 */
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { LISTING_REPORT_LABELS, type ListingReportKind } from "../../domain/work-queue";
import type { ListingProblemKind } from "../../domain/listing-problems";
import { wantsEmail } from "../account/notifications";
import { recordAudit, type AuditActor } from "../audit/record";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import { listedLocation, listingOwners, listingProblems, listingReports, locations, users } from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { AppError } from "../errors";

export interface ReportRequest {
  locationId: string;
  kind: ListingReportKind;
  message: string | null;
  reporterId: string | null;
}

/**
 * Stores a visitor's report and, when the listing has an owner who wants listing emails, queues
 * one telling them. Only listed listings take reports (a hidden one answers 404, as its page does).
 */
export async function submitReport(db: Database, request: ReportRequest): Promise<number> {
  const id = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const [listing] = await tx
      .select({ placeId: locations.placeId, name: locations.name, slug: locations.slug })
      .from(locations)
      .where(and(eq(locations.placeId, request.locationId), listedLocation));
    if (!listing) throw new AppError("not_found", 404, "Location not found");
    const [row] = await tx
      .insert(listingReports)
      .values({
        locationId: listing.placeId,
        kind: request.kind,
        message: request.message,
        reporterId: request.reporterId,
      })
      .returning({ id: listingReports.id });
    const [owner] = await tx
      .select({ userId: users.id, email: users.email, name: users.name })
      .from(listingOwners)
      .innerJoin(users, eq(users.id, listingOwners.userId))
      .where(eq(listingOwners.locationId, listing.placeId));
    if (owner && (await wantsEmail(tx, owner.userId, "moderation-results"))) {
      const site = publicUrl(getConfig());
      const lines = [
        `Hello${owner.name ? ` ${owner.name}` : ""},`,
        "",
        `A visitor reported a problem with your listing ${listing.name}:`,
        "",
        `  ${LISTING_REPORT_LABELS[request.kind]}`,
        ...(request.message ? ["", "Their message:", "", ...request.message.split("\n").map((l) => `  ${l}`)] : []),
        "",
        "If the listing is out of date, update it in your console:",
        `${site}/owner/locations/${encodeURIComponent(listing.placeId)}/update`,
        "",
        "Our team reviews each report as well. You get this email because you manage the listing;",
        `you can turn listing emails off in your settings: ${site}/owner/settings`,
      ];
      await enqueueEmail(tx, {
        kind: "listing.report",
        to: owner.email,
        subject: `A visitor reported a problem with ${listing.name}`.slice(0, 300),
        text: lines.join("\n"),
      });
    }
    return row!.id;
  });
  kickEmail();
  return id;
}

export type QueueItemType = "report" | "problem";

export interface QueueDecision {
  actor: AuditActor;
  type: QueueItemType;
  id: number;
  status: "resolved" | "dismissed";
  note?: string | null;
  requestId?: string | null;
  now?: Date;
}

/**
 * Marks one open report or problem resolved or dismissed. An item decided meanwhile (by another
 * administrator) answers 409 and nothing changes.
 */
export async function decideQueueItem(db: Database, decision: QueueDecision): Promise<{ locationId: string }> {
  const now = decision.now ?? new Date();
  return db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const table = decision.type === "report" ? listingReports : listingProblems;
    const set =
      decision.type === "report"
        ? {
            status: decision.status,
            resolvedAt: now,
            resolvedBy: decision.actor.userId,
            resolvedByEmail: decision.actor.email,
            resolution: decision.note ?? null,
          }
        : {
            status: decision.status,
            resolvedAt: now,
            resolvedBy: decision.actor.userId,
            resolvedByEmail: decision.actor.email,
          };
    const [row] = await tx
      .update(table)
      .set(set)
      .where(and(eq(table.id, decision.id), eq(table.status, "open")))
      .returning({ locationId: table.locationId, kind: table.kind });
    if (!row) {
      const [exists] = await tx.select({ id: table.id }).from(table).where(eq(table.id, decision.id));
      if (!exists) throw new AppError("not_found", 404, "No such item in the work queue.");
      throw new AppError("conflict", 409, "Someone already dealt with this item. The queue shows what is left.");
    }
    await recordAudit(tx, {
      actor: decision.actor,
      action: `${decision.type === "report" ? "listing.report" : "listing.problem"}.${decision.status === "resolved" ? "resolve" : "dismiss"}`,
      subject: { type: "listing", id: row.locationId },
      before: { id: decision.id, kind: row.kind, status: "open" },
      after: { status: decision.status, note: decision.note ?? null },
      requestId: decision.requestId,
    });
    return { locationId: row.locationId };
  });
}

export interface QueuePageQuery {
  page: number;
  pageSize: number;
}

/** Open reports, oldest first, with their listing. */
export async function openReports(db: Database, { page, pageSize }: QueuePageQuery) {
  const where = eq(listingReports.status, "open");
  const [total] = await db.select({ n: count() }).from(listingReports).where(where);
  const rows = await db
    .select({
      id: listingReports.id,
      kind: listingReports.kind,
      message: listingReports.message,
      createdAt: listingReports.createdAt,
      locationId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      city: locations.city,
      state: locations.state,
      phone: locations.phoneNumber,
    })
    .from(listingReports)
    .innerJoin(locations, eq(locations.placeId, listingReports.locationId))
    .where(where)
    .orderBy(asc(listingReports.createdAt), asc(listingReports.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total: total?.n ?? 0, rows };
}

const other = alias(locations, "other");

/** Open data problems, of one kind or all, grouped by kind then oldest first, with both listings of a duplicate. */
export async function openProblems(
  db: Database,
  { page, pageSize, kind }: QueuePageQuery & { kind?: ListingProblemKind },
) {
  const where = and(eq(listingProblems.status, "open"), kind ? eq(listingProblems.kind, kind) : undefined);
  const [total] = await db.select({ n: count() }).from(listingProblems).where(where);
  const rows = await db
    .select({
      id: listingProblems.id,
      kind: listingProblems.kind,
      detail: listingProblems.detail,
      foundAt: listingProblems.foundAt,
      locationId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      city: locations.city,
      state: locations.state,
      hidden: sql<boolean>`${locations.hiddenAt} is not null`,
      otherId: other.placeId,
      otherName: other.name,
      otherSlug: other.slug,
      otherHidden: sql<boolean>`${other.hiddenAt} is not null`,
    })
    .from(listingProblems)
    .innerJoin(locations, eq(locations.placeId, listingProblems.locationId))
    .leftJoin(other, and(eq(other.placeId, listingProblems.otherId), sql`${listingProblems.otherId} <> ''`))
    .where(where)
    .orderBy(asc(listingProblems.kind), asc(listingProblems.foundAt), asc(listingProblems.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total: total?.n ?? 0, rows };
}

/** Open items per kind, for the tabs and the overview. */
export async function queueCounts(db: Database) {
  const [reports] = await db.select({ n: count() }).from(listingReports).where(eq(listingReports.status, "open"));
  const problems = await db
    .select({ kind: listingProblems.kind, n: count() })
    .from(listingProblems)
    .where(eq(listingProblems.status, "open"))
    .groupBy(listingProblems.kind);
  const byKind = Object.fromEntries(problems.map((p) => [p.kind, p.n])) as Partial<Record<ListingProblemKind, number>>;
  return {
    reports: reports?.n ?? 0,
    problems: problems.reduce((sum, p) => sum + p.n, 0),
    problemsByKind: byKind,
    listingsWithProblems: await listingsWithOpenProblems(db),
  };
}

async function listingsWithOpenProblems(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${listingProblems.locationId})::int` })
    .from(listingProblems)
    .where(eq(listingProblems.status, "open"));
  return row?.n ?? 0;
}

/** One listing's open reports and problems, for its page in the console. */
export async function openItemsOf(db: Database, locationId: string) {
  const [reports, problems] = await Promise.all([
    db
      .select({
        id: listingReports.id,
        kind: listingReports.kind,
        message: listingReports.message,
        createdAt: listingReports.createdAt,
      })
      .from(listingReports)
      .where(and(eq(listingReports.locationId, locationId), eq(listingReports.status, "open")))
      .orderBy(desc(listingReports.createdAt)),
    db
      .select({
        id: listingProblems.id,
        kind: listingProblems.kind,
        detail: listingProblems.detail,
        otherId: listingProblems.otherId,
      })
      .from(listingProblems)
      .where(and(inArray(listingProblems.locationId, [locationId]), eq(listingProblems.status, "open")))
      .orderBy(asc(listingProblems.kind)),
  ]);
  return { reports, problems };
}
