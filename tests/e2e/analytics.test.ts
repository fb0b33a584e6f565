import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { cookieFrom } from "../setup/auth";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { HUMAN_USER_AGENT, newHumanContext, browserForThisFile } from "./browser";

/**
 * The tracker end to end: a visitor sees a results page, opens a facility and taps its phone and
 * website links; the listing's counters (read as an admin through the metrics API) show exactly
 * that once the tracker has flushed.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
const browser = browserForThisFile();
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  context = await newHumanContext(browser());
  // No internet here: the listing's own website must not be fetched.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource/.test(message.text()))
      consoleErrors.push(message.text());
  });
});

/** A results page and one of its cards: a facility with both a phone and a website. */
async function resultsWithWebsite(): Promise<{ results: string; facility: string }> {
  // Towns no other browser test visits as a person: their visits would add to this facility's counts
  // (the compare test saves facilities in Austin with a person's user agent).
  for (const city of ["charlotte-nc", "phoenix-az", "denver-co", "austin-tx"]) {
    const html = await (await fetch(`${baseUrl}/rv-storage/${city}`)).text();
    const links = new Set([...html.matchAll(/href="(\/location\/[^"]+)"/g)].map((m) => m[1]!));
    for (const link of links) {
      const facility = await (await fetch(baseUrl + link)).text();
      if (facility.includes('data-analytics-click="website"') && facility.includes('data-analytics-click="phone"')) {
        return { results: `/rv-storage/${city}`, facility: link };
      }
    }
  }
  throw new Error("No results page lists a facility that has a phone and a website");
}

async function adminCookie(): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl, "content-type": "application/x-www-form-urlencoded", "user-agent": HUMAN_USER_AGENT },
    body: new URLSearchParams({ email: ACCOUNTS.admin.email, password: PASSWORD }),
  });
  expect(response.status).toBe(302);
  return cookieFrom(response.headers);
}

interface Report {
  metrics: Record<string, unknown> & { trafficSources: Record<string, number> };
  daily: Record<string, unknown>[];
}

describe.skipIf(!fixtures)("analytics", () => {
  it("counts a results-page card view, the facility page view and its phone and website clicks", async () => {
    const { results, facility } = await resultsWithWebsite();
    await page.goto(baseUrl + results);
    const card = page.locator(`section[aria-label=Results] article h2 a[href="${facility}"]`);
    await card.scrollIntoViewIfNeeded();
    // the card has been seen: its list_view is queued (and sent within 5 minutes, or with the next flush)
    await page.waitForFunction(() => (localStorage.getItem("rv.analytics.queue") ?? "").includes("list_view"));
    await card.click();
    await page.getByRole("heading", { level: 1 }).waitFor();
    const claim = await page.getByRole("link", { name: "Claim This Business" }).getAttribute("href");
    const locationId = decodeURIComponent(claim!.split("/").pop()!);

    // A tel: link would hand over to a phone app: keep the page, as the tracker does not care.
    await page.evaluate(() =>
      window.addEventListener("click", (e) => {
        if ((e.target as Element).closest('a[href^="tel:"]')) e.preventDefault();
      }),
    );
    await page.locator('aside [data-analytics-click="phone"]').click();
    const popup = context.waitForEvent("page");
    await page.locator('aside [data-analytics-click="website"]').click();
    await (await popup).close();

    const cookie = await adminCookie();
    let report: Report | undefined;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await fetch(`${baseUrl}/api/metrics/locations/${encodeURIComponent(locationId)}`, {
        headers: { cookie, "user-agent": HUMAN_USER_AGENT },
      });
      expect(response.status).toBe(200);
      report = (await response.json()) as Report;
      const m = report.metrics;
      if ((m.pageViews as number) >= 1 && (m.contactClicks as number) >= 1 && (m.websiteClicks as number) >= 1) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(report!.metrics).toMatchObject({
      locationId,
      pageViews: 1,
      listViews: 1,
      contactClicks: 1,
      websiteClicks: 1,
      directionsClicks: 0,
      uniqueVisitors: 1,
      uniqueListViewers: 1,
    });
    expect(report!.metrics.trafficSources).toMatchObject({ internal: 1, direct: 0 });
    expect(report!.daily).toEqual([
      expect.objectContaining({ pageViews: 1, listViews: 1, contactClicks: 1, websiteClicks: 1 }),
    ]);
    expect(consoleErrors).toEqual([]);
  });
});
