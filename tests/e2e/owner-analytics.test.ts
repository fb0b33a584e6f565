import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { ingestEvents } from "../../server/analytics/ingest";
import { openDatabase } from "../../server/db/client";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The owner analytics screen in a real browser (docs/product.md section 10, "Analytics"): the
 * listing_owner sees exactly the events this file put in for their listing, the CSV says the same,
 * and another owner's listing is refused. This file runs its own site, so that no other test's
 * visits reach the listing.
 */
const browser = browserForThisFile();
let site: RunningSite;
let listingId = "";
const shots = path.resolve(".tmp/screenshots");
const now = new Date();
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const twoDaysAgo = hoursAgo(48);

beforeAll(async () => {
  if (process.env.E2E_BASE_URL) return;
  process.env.SKIP_BUILD = "1"; // the global setup has built the site
  site = await startBuiltSite({
    prepare: async (dataDir) => {
      listingId = (await prepareAccounts(dataDir)).ownedLocationId;
      const handle = await openDatabase({ kind: "pglite", dataDir });
      try {
        let n = 0;
        const ev = (at: Date, over: Partial<ValidatedAnalyticsEvent> = {}): ValidatedAnalyticsEvent => ({
          eventId: `owner-analytics-e2e-${++n}`,
          eventType: "page_view",
          timestamp: at.toISOString(),
          sessionId: "s-1",
          url: "http://localhost:3000/location/x",
          locationId: listingId,
          ...over,
        });
        const sender = (id: string) => ({
          authSessionId: id,
          userId: null,
          siteOrigin: "http://localhost:3000",
          clientIp: `198.51.100.${id.length}`,
        });
        // Two days ago: 4 page views by 2 visitors (2 from Google), 3 list views, a phone and a website click.
        await ingestEvents(
          handle.db,
          [
            ev(twoDaysAgo, { referrer: "https://www.google.com/" }),
            ev(twoDaysAgo, { referrer: "https://www.google.com/" }),
            ev(twoDaysAgo, { eventType: "list_view" }),
            ev(twoDaysAgo, { eventType: "click", elementType: "phone" }),
          ],
          sender("e2e-visitor-1"),
          now,
        );
        await ingestEvents(
          handle.db,
          [
            ev(twoDaysAgo),
            ev(twoDaysAgo),
            ev(twoDaysAgo, { eventType: "list_view" }),
            ev(twoDaysAgo, { eventType: "list_view" }),
            ev(twoDaysAgo, { eventType: "click", elementType: "website" }),
          ],
          sender("e2e-visitor-22"),
          now,
        );
      } finally {
        await handle.close();
      }
    },
  });
}, 180_000);

afterAll(async () => {
  await site?.stop();
});

const ownerPage = (viewport = { width: 1280, height: 900 }): Promise<Page> =>
  signedInPage(browser(), site.baseUrl, ACCOUNTS.listing_owner.email, { loginPath: "/business/login", viewport });

const stat = (page: Page, label: string) =>
  page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd")
    .first();

describe.skipIf(!!process.env.E2E_BASE_URL)("owner analytics", () => {
  it("shows the listing's exact counts, charts with tables, and a CSV with the same rows", async () => {
    const page = await ownerPage();
    await page.goto(`${site.baseUrl}/owner/locations/analytics?listing=${encodeURIComponent(listingId)}&days=7`);
    await expect.poll(() => stat(page, "Page views").textContent()).toBe("4");
    expect(await stat(page, "List views").textContent()).toBe("3");
    expect(await stat(page, "Unique visitors").textContent()).toBe("2");
    expect(await stat(page, "Clicks").textContent()).toBe("2");
    expect(await stat(page, "Phone clicks").textContent()).toBe("1");
    expect(await stat(page, "Website clicks").textContent()).toBe("1");
    expect(await stat(page, "Conversion").textContent()).toBe("50%");
    await expect.poll(() => page.locator("svg[role=img]").count()).toBe(2);
    const sources = page.getByRole("table", { name: "Page views by traffic source" });
    expect(await sources.getByRole("row", { name: /Google 2/ }).count()).toBe(1);
    // The table behind the views chart has the day of the events.
    await page.getByText("Show as table").first().click();
    const viewsTable = page.getByRole("table", { name: "Views per day" });
    const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(
      twoDaysAgo,
    );
    expect(await viewsTable.getByRole("row", { name: new RegExp(`^${day} 4 3 2$`) }).count()).toBe(1);
    await screenshot(page, { path: path.join(shots, "owner-analytics.png"), fullPage: true });

    const csvLink = page.getByRole("link", { name: "Download CSV" });
    const href = await csvLink.getAttribute("href");
    const response = await page.request.get(site.baseUrl + href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="analytics-.+\.csv"$/);
    const rows = (await response.text()).trimEnd().split("\r\n");
    expect(rows).toHaveLength(8);
    // The last three: leads, reservation requests and reservations accepted (none on that day).
    expect(rows).toContain(`${dayOf(twoDaysAgo)},4,3,2,1,1,0,2,50.00,0,0,0`);
    await page.context().close();
  });

  it("answers a bad range with the reason beside the field, and an unknown listing with 404", async () => {
    const page = await ownerPage({ width: 390, height: 844 });
    await page.goto(`${site.baseUrl}/owner/locations/analytics?days=custom&from=2025-03-10&to=2025-03-01`);
    expect(await page.getByText("The start date must not be after the end date.").count()).toBe(1);
    expect(await page.getByLabel("From").getAttribute("aria-invalid")).toBe("true");
    await page.goto(`${site.baseUrl}/owner/locations/analytics?days=30`);
    await screenshot(page, { path: path.join(shots, "owner-analytics-phone.png"), fullPage: true });
    const refused = await page.request.get(`${site.baseUrl}/owner/locations/analytics.csv?listing=not-mine`);
    expect(refused.status()).toBe(404);
    await page.context().close();
  });
});
