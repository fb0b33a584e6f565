import path from "node:path";
import { eq, ne } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { ingestEvents } from "../../server/analytics/ingest";
import { openDatabase } from "../../server/db/client";
import { locationMetricsDaily, locations } from "../../server/db/schema";
import { stateNameFromCode } from "../../server/geo/states";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The admin analytics screen in a real browser (docs/product.md section 10, "Platform analytics"):
 * an admin sees the platform's totals, the states' table beside the map and, once a visitor has
 * searched, the search demand; changes the period; and downloads a table as CSV. This file runs
 * its own site, so that no other test's visits or searches reach the numbers.
 */
const browser = browserForThisFile();
let site: RunningSite;
const shots = path.resolve(".tmp/screenshots");
const now = new Date();
const twoDaysAgo = new Date(now.getTime() - 48 * 3_600_000);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (n: number) => dayOf(new Date(now.getTime() - n * 86_400_000));

/** The listing with the file's page views, and its state. */
let listing = { id: "", name: "", state: "", stateName: "" };

beforeAll(async () => {
  if (process.env.E2E_BASE_URL) return;
  process.env.SKIP_BUILD = "1"; // the global setup has built the site
  site = await startBuiltSite({
    prepare: async (dataDir) => {
      const owned = (await prepareAccounts(dataDir)).ownedLocationId;
      const handle = await openDatabase({ kind: "pglite", dataDir });
      try {
        const db = handle.db;
        const [row] = await db
          .select({ id: locations.placeId, name: locations.name, state: locations.state })
          .from(locations)
          .where(eq(locations.placeId, owned));
        listing = { id: row!.id, name: row!.name, state: row!.state!, stateName: stateNameFromCode(row!.state!)! };
        let n = 0;
        const ev = (over: Partial<ValidatedAnalyticsEvent> = {}): ValidatedAnalyticsEvent => ({
          eventId: `admin-analytics-e2e-${++n}`,
          eventType: "page_view",
          timestamp: twoDaysAgo.toISOString(),
          sessionId: `s-${n}`,
          url: "http://localhost:3000/location/x",
          locationId: listing.id,
          ...over,
        });
        const sender = (id: string) => ({
          authSessionId: id,
          userId: null,
          siteOrigin: "http://localhost:3000",
          clientIp: `198.51.100.${id.length}`,
        });
        // Two days ago: 5 page views of the listing by 2 visitors (3 from Google), 2 phone calls.
        await ingestEvents(
          db,
          [
            ev({ referrer: "https://www.google.com/" }),
            ev({ referrer: "https://www.google.com/" }),
            ev({ referrer: "https://www.google.com/" }),
            ev({ eventType: "click", elementType: "phone" }),
          ],
          sender("e2e-visitor-1"),
          now,
        );
        await ingestEvents(
          db,
          [ev(), ev(), ev({ eventType: "click", elementType: "phone" })],
          sender("e2e-visitor-22"),
          now,
        );
        // Older days for listings across the country, so the map has colour (outside 7 days).
        const others = await db
          .select({ id: locations.placeId })
          .from(locations)
          .where(ne(locations.placeId, listing.id))
          .limit(400);
        const rows = others.flatMap((o, i) =>
          [10, 20, 40].map((ago) => ({
            locationId: o.id,
            date: daysAgo(ago),
            pageViews: 1 + ((i * 7 + ago) % 9),
            listViews: 3 + ((i * 5 + ago) % 20),
            websiteClicks: i % 3 === 0 ? 1 : 0,
            uniqueVisitors: 1,
          })),
        );
        await db.insert(locationMetricsDaily).values(rows);
      } finally {
        await handle.close();
      }
    },
  });
}, 180_000);

afterAll(async () => {
  await site?.stop();
});

const adminPage = (viewport = { width: 1280, height: 900 }): Promise<Page> =>
  signedInPage(browser(), site.baseUrl, ACCOUNTS.admin.email, { viewport });

const stat = (page: Page, label: string) =>
  page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd")
    .first();

/** Places far from any demo listing: the first the index has nothing within 100 miles of. */
const REMOTE = [
  { slug: "barrow-ak", lat: 71.29, lng: -156.79 },
  { slug: "nome-ak", lat: 64.5, lng: -165.41 },
  { slug: "kotzebue-ak", lat: 66.9, lng: -162.6 },
];

describe.skipIf(!!process.env.E2E_BASE_URL)("admin analytics", () => {
  it("shows totals, states and search demand after searches, changes the period and downloads a CSV", async () => {
    // A visitor searches: Austin, re-sorts it (not another search), and a town with nothing near.
    let remote: (typeof REMOTE)[number] | undefined;
    for (const place of REMOTE) {
      const answer = await fetch(`${site.baseUrl}/api/search?lat=${place.lat}&lng=${place.lng}&radius=100&pageSize=0`);
      if (((await answer.json()) as { total: number }).total === 0) {
        remote = place;
        break;
      }
    }
    expect(remote, "a remote place without demo listings").toBeDefined();
    const visitor = await newHumanContext(browser());
    const tab = await visitor.newPage();
    // Searches are counted from the page views the tracker sends (a cached page is not rendered),
    // so the visitor stays on each page until its page view is stored, as a person would.
    const stored = (url: string) =>
      tab.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === "/api/analytics/events" &&
          (response.request().postData() ?? "").includes(`"url":"${url}"`),
      );
    let counted = stored(`${site.baseUrl}/rv-storage/austin-tx`);
    await tab.goto(`${site.baseUrl}/rv-storage/austin-tx`);
    await tab.getByRole("heading", { level: 1, name: /^Storage Locations in Austin, Texas \(\d+\)$/ }).waitFor();
    await hydrated(tab);
    expect((await counted).status()).toBe(202);
    counted = stored(`${site.baseUrl}/rv-storage/austin-tx?sort=rating`);
    await tab.getByRole("button", { name: "Rating" }).click();
    await tab.waitForURL((url) => new URL(url).searchParams.get("sort") === "rating");
    expect((await counted).status()).toBe(202);
    counted = stored(`${site.baseUrl}/rv-storage/${remote!.slug}`);
    await tab.goto(`${site.baseUrl}/rv-storage/${remote!.slug}`);
    await tab.getByRole("heading", { level: 1 }).waitFor();
    expect((await counted).status()).toBe(202);
    await visitor.close();

    const page = await adminPage();
    await page.goto(`${site.baseUrl}/admin/analytics?days=7`);
    expect(await page.getByRole("heading", { level: 1, name: "Analytics" }).count()).toBe(1);
    expect(await stat(page, "Page views").textContent()).toBe("5");
    expect(await stat(page, "Phone clicks").textContent()).toBe("2");
    expect(await stat(page, "Conversion").textContent()).toBe("40%");
    // The charts and the map are pictures with descriptions; the numbers are in tables.
    expect(await page.locator("svg[role=img]").count()).toBe(4);
    const states = page.getByRole("table", { name: /^Listing page views and clicks by state/ });
    expect(await states.getByRole("row", { name: new RegExp(`^${listing.stateName} 5 `) }).count()).toBe(1);
    const top = page.getByRole("table", { name: "Top listings by page views" });
    expect(await top.getByRole("row").nth(1).textContent()).toContain(listing.name);
    const sources = page.getByRole("table", { name: "Listing page views by traffic source" });
    expect(await sources.getByRole("row", { name: /^Google 3/ }).count()).toBe(1);

    // The searches reach the tables within a flush (every 5 seconds). Each search may land in a
    // different flush, so the page is read again until both have (the summary counts both).
    const searched = page.getByRole("table", { name: "Most searched places" });
    const summary = page.getByText(/^2 searches for 2 places; 1 found nothing/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return summary.count();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBe(1);
    expect(await searched.getByRole("row", { name: /^Austin, Texas 1 / }).count()).toBe(1);
    const gaps = page.getByRole("table", { name: /no listing within 100 miles/ });
    expect(await gaps.getByRole("row", { name: / 1 1$/ }).count()).toBe(1);
    await screenshot(page, { path: path.join(shots, "admin-analytics.png"), fullPage: true });

    // A preset shows at once; a year shows the older days too.
    await page.getByText("A year", { exact: true }).click();
    await page.waitForURL((url) => new URL(url).searchParams.get("days") === "365");
    await expect
      .poll(async () => Number((await stat(page, "Page views").textContent())?.replace(/,/g, "")))
      .toBeGreaterThan(5);
    // Another metric ranks the listings, keeping the period.
    await page.getByRole("link", { name: "Clicks", exact: true }).click();
    await page.waitForURL((url) => new URL(url).searchParams.get("top") === "clicks");
    expect(new URL(page.url()).searchParams.get("days")).toBe("365");
    await page.getByRole("table", { name: "Top listings by clicks" }).waitFor();

    // A custom range the wrong way round is named beside its field.
    await page.getByText("Custom", { exact: true }).click();
    await page.getByLabel("From", { exact: true }).fill(daysAgo(1));
    await page.getByLabel("To", { exact: true }).fill(daysAgo(5));
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("The start date must not be after the end date.").waitFor();
    expect(await page.getByLabel("From", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    // Download the states of the last 7 days.
    await page.goto(`${site.baseUrl}/admin/analytics?days=7`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "States CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`platform-states-${daysAgo(6)}-to-${dayOf(now)}.csv`);
    // Read as a stream: the run's browser is shared over a connection (tests/e2e/browser.ts), and
    // a remote browser keeps no local path for its downloads.
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const file = Buffer.concat(chunks).toString("utf8").split("\r\n");
    expect(file[0]).toBe("state,state_name,page_views,list_views,clicks,listings_with_traffic");
    expect(file).toContainEqual(expect.stringMatching(new RegExp(`^${listing.state},${listing.stateName},5,\\d+,2,`)));
    expect(file).toHaveLength(1 + 51 + 1);
    await page.context().close();
  });

  it("reads on a phone without sideways scrolling, and refuses a bad table", async () => {
    const page = await adminPage({ width: 390, height: 844 });
    await page.goto(`${site.baseUrl}/admin/analytics?days=90`);
    await page.getByRole("heading", { name: "Views by state" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, { path: path.join(shots, "admin-analytics-phone.png"), fullPage: true });
    const refused = await page.request.get(`${site.baseUrl}/admin/analytics.csv?table=users&days=7`);
    expect(refused.status()).toBe(400);
    const bad = await page.goto(`${site.baseUrl}/admin/analytics?days=14`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByText("Choose 7, 30, 90 or 365 days, or a custom range.").count()).toBe(1);
    await page.context().close();
  });
});
