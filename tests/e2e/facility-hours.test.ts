import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { openStatus } from "../../domain/opening-hours";
import { browserForThisFile, hydrated } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The facility page reads its hours on one clock, the facility's (docs/product.md section 2): a
 * visitor whose browser keeps another time zone sees "Today" on the day the open/closed line is
 * about. The browser's clock is set (Playwright's clock) to 8:53 PM on Thursday 26 November 2026
 * in Austin, which is already Friday in UTC and in Tokyo: Thursday's line is today, and the status
 * line is the one Thursday evening's hours give.
 */
const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
/** 8:53 PM on Thursday in Austin (UTC-6 in November). */
const THURSDAY_EVENING_IN_AUSTIN = new Date("2026-11-27T02:53:00Z");

async function facilityFromResults(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/rv-storage/austin-tx`);
  await hydrated(page);
  const cards = page.locator("section[aria-label=Results] article h2 a");
  const count = await cards.count();
  // The first Austin facility whose page lists hours (some demo listings have none).
  for (let i = 0; i < count; i++) {
    const name = (await cards.nth(i).textContent())!;
    await cards.nth(i).click(); // a client-side navigation, as a visitor's click
    await page.getByRole("heading", { level: 1, name }).waitFor();
    if ((await page.getByText("Hours not available").count()) === 0) return;
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: /Storage Locations in Austin/ }).waitFor();
  }
  throw new Error("No Austin facility lists its hours");
}

describe("a facility's hours, seen from another time zone", () => {
  for (const [timezoneId, size] of [
    ["UTC", { width: 1366, height: 900 }],
    ["Asia/Tokyo", { width: 390, height: 844 }],
  ] as const) {
    it(`marks the facility's today and says open or closed on its clock (browser in ${timezoneId}, ${size.width} px)`, async () => {
      const context = await browser().newContext({ timezoneId, viewport: size, isMobile: size.width < 768 });
      const page = await context.newPage();
      await page.clock.setFixedTime(THURSDAY_EVENING_IN_AUSTIN);
      // The browser's own day is Friday.
      expect(await page.evaluate(() => new Date().getDay())).toBe(5);
      await facilityFromResults(page);

      const hours = page.getByRole("region", { name: "Business hours" });
      const today = hours.locator('li[aria-current="date"]');
      await today.waitFor();
      expect(await today.count()).toBe(1);
      expect(await today.textContent()).toMatch(/^Thursday: .+Today$/);
      const lines = (await hours.locator("li").allTextContents()).map((line) => line.replace(/Today$/, ""));
      const expected = openStatus(lines, THURSDAY_EVENING_IN_AUSTIN, "America/Chicago");
      expect(expected).not.toBeNull();
      const status = page.getByTestId("open-status");
      await expect
        .poll(() => status.textContent())
        .toBe(`${expected!.label}${expected!.detail ? ` · ${expected!.detail}` : ""}`);
      // "Opens at 8 AM tomorrow" is Friday's opening: the day after the one marked Today.
      if (expected!.detail?.endsWith("tomorrow")) expect(lines.some((l) => l.startsWith("Friday:"))).toBe(true);

      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, { path: `${shots}/facility-status-${timezoneId.replace("/", "-")}-${size.width}.png` });
      await hours.scrollIntoViewIfNeeded();
      await screenshot(page, { path: `${shots}/facility-hours-${timezoneId.replace("/", "-")}-${size.width}.png` });
      await context.close();
    });
  }
});
