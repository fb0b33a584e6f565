import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, locationMetricsDaily, monthlyReportRuns } from "../db/schema";
import { changeWords, reportMonth, sendMonthlyReports } from "./monthly-report";
import { saveNotificationPreferences } from "./notifications";

/**
 * The owners' monthly performance email (docs/product.md section 10): the figures are the month's,
 * against the month before; one email per owner and month, however often and on however many
 * instances the job runs; none for owners who switched it off or own nothing.
 */

let handle: DatabaseHandle;
const db = () => handle.db;
const NOVEMBER = new Date("2026-11-03T06:00:00Z");
type Person = Awaited<ReturnType<typeof insertPerson>>;
let owner: Person;
let quiet: Person;
let alpha: string;
let bravo: string;

const monthly = async () =>
  db().select().from(emailOutbox).where(eq(emailOutbox.kind, "owner.monthly-report")).orderBy(emailOutbox.id);

beforeAll(async () => {
  handle = await createTestDatabase();
  owner = await insertPerson(db(), { role: "business_owner", name: "Olive", email: "olive@example.com" });
  quiet = await insertPerson(db(), { role: "business_owner", name: "Quinn", email: "quinn@example.com" });
  await insertPerson(db(), { role: "business_owner", name: "Nobody", email: "nobody@example.com" });
  alpha = (await insertListing(db(), { name: "Alpha RV Storage" })).placeId;
  bravo = (await insertListing(db(), { name: "Bravo RV Storage" })).placeId;
  const other = (await insertListing(db(), { name: "Quiet Lot" })).placeId;
  await grantListing(db(), owner.userId, alpha);
  await grantListing(db(), owner.userId, bravo);
  await grantListing(db(), quiet.userId, other);
  await saveNotificationPreferences(db(), quiet.userId, {
    "claim-results": true,
    "moderation-results": true,
    "monthly-performance": false,
    "new-reviews": true,
  });
  const day = (locationId: string, date: string, n: Partial<typeof locationMetricsDaily.$inferInsert>) =>
    db()
      .insert(locationMetricsDaily)
      .values({ locationId, date, ...n });
  // October, the month reported: Alpha 120 views; Bravo 30. September: Alpha 100, Bravo none.
  await day(alpha, "2026-10-01", { pageViews: 70, listViews: 200, uniqueVisitors: 50, contactClicks: 3 });
  await day(alpha, "2026-10-31", {
    pageViews: 50,
    listViews: 100,
    uniqueVisitors: 30,
    websiteClicks: 7,
    directionsClicks: 2,
  });
  await day(bravo, "2026-10-15", { pageViews: 30, listViews: 40, uniqueVisitors: 20 });
  await day(alpha, "2026-09-10", { pageViews: 100, listViews: 300, uniqueVisitors: 80 });
  // Outside both months: not counted.
  await day(alpha, "2026-11-01", { pageViews: 999 });
  await day(alpha, "2026-08-31", { pageViews: 999 });
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await db().delete(emailOutbox);
  await db().delete(monthlyReportRuns);
});

describe(`monthly performance email (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("names the month before, and words changes plainly", () => {
    expect(reportMonth(NOVEMBER)).toEqual({
      month: "2026-10",
      from: "2026-10-01",
      to: "2026-10-31",
      days: 31,
      label: "October 2026",
    });
    expect(reportMonth(new Date("2026-03-01T00:00:00Z"))).toMatchObject({ from: "2026-02-01", to: "2026-02-28" });
    expect(reportMonth(new Date("2026-01-15T00:00:00Z"))).toMatchObject({ month: "2025-12", days: 31 });
    expect(changeWords(100, 120)).toBe("up 20%");
    expect(changeWords(100, 97)).toBe("down 3%");
    expect(changeWords(5, 5)).toBe("no change");
    expect(changeWords(0, 30)).toBe("new");
  });

  it("sends each owner the month's figures once, and nothing to an owner who switched it off", async () => {
    const summary = await sendMonthlyReports(db(), NOVEMBER);
    expect(summary).toEqual({ month: "2026-10", owners: 2, sent: 1, optedOut: 1, alreadySent: 0 });
    const [email, ...more] = await monthly();
    expect(more).toEqual([]);
    expect(email).toMatchObject({ toAddress: "olive@example.com", subject: "Your listings in October 2026" });
    const text = email!.textBody;
    expect(text).toContain("Hello Olive,");
    expect(text).toContain("did on RV Storage Finder in October 2026.");
    expect(text).toMatch(
      /Alpha RV Storage\n {2}Page views: 120 \(up 20% on September\)\n {2}Shown in search results: 300 \(no change on September\)\n {2}Unique visitors: 80 \(no change on September\)\n {2}Phone clicks: 3, website clicks: 7, directions clicks: 2\n {2}Conversion \(clicks per page view\): 10%/,
    );
    expect(text).toMatch(/Bravo RV Storage\n {2}Page views: 30 \(new on September\)/);
    expect(text).toMatch(/All your listings\n {2}Page views: 150 \(up 50% on September\)/);
    expect(text).toContain("/owner/locations/analytics?from=2026-10-01&to=2026-10-31");
    expect(text).toContain("/owner/settings");
    expect(text).not.toContain("999");

    // Later the same month (a restart, the next day's run): nothing more.
    const again = await sendMonthlyReports(db(), new Date("2026-11-20T06:00:00Z"));
    expect(again).toMatchObject({ sent: 0, alreadySent: 1, optedOut: 1 });
    expect(await monthly()).toHaveLength(1);

    // Next month reports November.
    const december = await sendMonthlyReports(db(), new Date("2026-12-01T06:00:00Z"));
    expect(december).toMatchObject({ month: "2026-11", sent: 1 });
    const emails = await monthly();
    expect(emails).toHaveLength(2);
    expect(emails[1]!.subject).toBe("Your listings in November 2026");
    expect(emails[1]!.textBody).toMatch(/Alpha RV Storage\n {2}Page views: 999 \(up 733% on October\)/);
  });

  it("queues one email per owner when two instances run the job at once", async () => {
    const results = await Promise.all([sendMonthlyReports(db(), NOVEMBER), sendMonthlyReports(db(), NOVEMBER)]);
    expect(results.map((r) => r.sent).sort()).toEqual([0, 1]);
    expect(await monthly()).toHaveLength(1);
    expect(await db().select().from(monthlyReportRuns)).toHaveLength(1);
  });
});
