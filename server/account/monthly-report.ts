import { and, asc, eq } from "drizzle-orm";
import { buildOwnerReport, change, type ReportTotals } from "../analytics/owner-report";
import { getConfig, publicOrigin } from "../config";
import type { Database } from "../db/client";
import { listingOwners, monthlyReportRuns, users } from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { wantsEmail } from "./notifications";

/**
 * The owners' monthly performance email (docs/product.md section 10): once a month, for the calendar
 * month before, one email per owner of at least one listing, with each listing's figures against
 * the month before. A daily job calls `sendMonthlyReports`; it sends only what has not been sent
 * for that month, so it runs any day, after a restart, and on several instances at once: the
 * `monthly_report_runs` row is inserted in the same transaction that queues the email, and only the
 * transaction that inserts it queues one.
 */

export interface ReportMonth {
  /** YYYY-MM. */
  month: string;
  /** First and last day, YYYY-MM-DD (UTC). */
  from: string;
  to: string;
  days: number;
  /** "October 2026". */
  label: string;
}

const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The calendar month (UTC) `offset` months from the one holding `now` (-1: the month before). */
export function reportMonth(now: Date, offset = -1): ReportMonth {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  return {
    month: day(start).slice(0, 7),
    from: day(start),
    to: day(end),
    days: end.getUTCDate(),
    label: monthName.format(start),
  };
}

/** "up 12%", "down 3%", "no change", or "new" when the month before had none. */
export function changeWords(before: number, after: number): string {
  const percent = change(before, after);
  if (percent === null) return "new";
  if (percent === 0) return "no change";
  const rounded = Math.round(Math.abs(percent));
  return percent > 0 ? `up ${rounded}%` : `down ${rounded}%`;
}

const count = (n: number) => n.toLocaleString("en-US");

function figureLines(now: ReportTotals, before: ReportTotals | undefined, previousLabel: string): string[] {
  const was = before ?? { pageViews: 0, listViews: 0, uniqueVisitors: 0, clicks: 0 };
  const vs = (b: number, a: number) => `(${changeWords(b, a)} on ${previousLabel})`;
  return [
    `  Page views: ${count(now.pageViews)} ${vs(was.pageViews, now.pageViews)}`,
    `  Shown in search results: ${count(now.listViews)} ${vs(was.listViews, now.listViews)}`,
    `  Unique visitors: ${count(now.uniqueVisitors)} ${vs(was.uniqueVisitors, now.uniqueVisitors)}`,
    `  Phone clicks: ${count(now.phoneClicks)}, website clicks: ${count(now.websiteClicks)}, directions clicks: ${count(now.directionsClicks)}`,
    `  Conversion (clicks per page view): ${now.conversionRate}%`,
  ];
}

interface Owner {
  userId: string;
  name: string;
  email: string;
}

/** The email of one owner for `month`, or null when the owner has no listing any more. */
async function reportText(db: Database, owner: Owner, month: ReportMonth, previous: ReportMonth, now: Date) {
  const ids = (
    await db
      .select({ id: listingOwners.locationId })
      .from(listingOwners)
      .where(eq(listingOwners.userId, owner.userId))
      .orderBy(asc(listingOwners.locationId))
  ).map((r) => r.id);
  if (ids.length === 0) return null;
  const [current, before] = await Promise.all([
    buildOwnerReport(db, ids, month, now),
    buildOwnerReport(db, ids, previous, now),
  ]);
  const previousMonth = previous.label.split(" ")[0]!;
  const beforeOf = new Map(before.listings.map((l) => [l.locationId, l]));
  const site = publicOrigin(getConfig());
  const lines = [
    `Hello ${owner.name},`,
    "",
    `Here is how your ${ids.length === 1 ? "listing" : "listings"} did on RV Storage Finder in ${month.label}.`,
  ];
  for (const listing of current.listings) {
    lines.push("", listing.name, ...figureLines(listing, beforeOf.get(listing.locationId), previousMonth));
  }
  if (current.listings.length > 1) {
    lines.push("", "All your listings", ...figureLines(current.totals, before.totals, previousMonth));
  }
  lines.push(
    "",
    `Day by day, traffic sources and scores: ${site}/owner/locations/analytics?from=${month.from}&to=${month.to}`,
    "",
    `You get this email once a month. Switch it off under Settings: ${site}/owner/settings`,
  );
  return lines.join("\n");
}

export interface MonthlyReportSummary {
  month: string;
  /** Owners of at least one listing. */
  owners: number;
  sent: number;
  optedOut: number;
  alreadySent: number;
}

export async function sendMonthlyReports(db: Database, now = new Date()): Promise<MonthlyReportSummary> {
  const month = reportMonth(now, -1);
  const previous = reportMonth(now, -2);
  const owners = await db
    .selectDistinct({ userId: users.id, name: users.name, email: users.email })
    .from(listingOwners)
    .innerJoin(users, eq(users.id, listingOwners.userId))
    .orderBy(users.id);
  const summary: MonthlyReportSummary = {
    month: month.month,
    owners: owners.length,
    sent: 0,
    optedOut: 0,
    alreadySent: 0,
  };
  for (const owner of owners) {
    const [done] = await db
      .select({ month: monthlyReportRuns.month })
      .from(monthlyReportRuns)
      .where(and(eq(monthlyReportRuns.userId, owner.userId), eq(monthlyReportRuns.month, month.month)));
    if (done) {
      summary.alreadySent++;
      continue;
    }
    if (!(await wantsEmail(db, owner.userId, "monthly-performance"))) {
      summary.optedOut++;
      continue;
    }
    const text = await reportText(db, owner, month, previous, now);
    if (text === null) continue;
    const queued = await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const claimed = await t
        .insert(monthlyReportRuns)
        .values({ userId: owner.userId, month: month.month, sentAt: now })
        .onConflictDoNothing()
        .returning({ userId: monthlyReportRuns.userId });
      if (claimed.length === 0) return false;
      await enqueueEmail(t, {
        kind: "owner.monthly-report",
        to: owner.email,
        subject: `Your listings in ${month.label}`,
        text,
      });
      return true;
    });
    if (queued) summary.sent++;
    else summary.alreadySent++;
  }
  if (summary.sent > 0) kickEmail();
  return summary;
}
