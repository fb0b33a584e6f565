import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { LEAD_LIMITS } from "../../domain/leads";
import { browserForThisFile, HUMAN_USER_AGENT, hydrated, newHumanContext } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The facility page as a visitor who came from filtered results uses it (docs/product.md
 * sections 2 and 14; issue 32 items 4 and 15): the question form starts with the kind of space the
 * Covered filter asked for, the confirmation after "Send my question" is on screen and focused on
 * a phone and a desktop, Directions opens Apple Maps on Apple devices (Google Maps beside it) and
 * Google Maps elsewhere, and Share uses the system's share sheet or copies the link and says so.
 */
const baseUrl = inject("baseUrl");
const clockFile = inject("clockFile");
const browser = browserForThisFile();

/**
 * A person's pause since the page was served at `served`: the shared site's clock moves 5 s on
 * (server/clock.ts) instead of the test waiting; a site this run did not start is waited for.
 */
async function afterAPersonsPause(served: number): Promise<void> {
  if (clockFile) {
    fs.writeFileSync(clockFile, String(Number(fs.readFileSync(clockFile, "utf8")) + 5_000));
    return;
  }
  await expect
    .poll(() => Date.now() - served, { timeout: 10_000 })
    .toBeGreaterThan((LEAD_LIMITS.minFillSeconds + 0.2) * 1000);
}
const shots = process.env.SHOTS_DIR ?? ".tmp/screenshots";
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
const DESKTOP = { viewport: { width: 1366, height: 900 } } as const;
const COVERED = "/rv-storage/austin-tx?amenity=has_covered_parking";
/** The confirmation, for a listing with an owner or without one (docs/product.md section 14). */
const SENT = /^(Your question is on its way\.|Thank you: this facility has not claimed its listing yet)/;

/** From the Covered-filtered results, the first card's title opens its facility page. */
async function openFromCoveredResults(page: Page): Promise<string> {
  await page.goto(`${baseUrl}${COVERED}`);
  await hydrated(page);
  const card = page.locator("section[aria-label=Results] article h2 a").first();
  const name = (await card.textContent())!;
  await card.click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
  return name;
}

/** The element with focus is the question's confirmation, and all of it is inside the window. */
async function confirmationInViewAndFocused(page: Page): Promise<boolean> {
  return page.evaluate((sent) => {
    const SENT = new RegExp(sent);
    const el = document.activeElement as HTMLElement | null;
    if (!el || el.getAttribute("role") !== "status" || !SENT.test(el.textContent ?? "")) return false;
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }, SENT.source);
}

describe("the facility page from filtered results", () => {
  for (const [size, options] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`starts the question with the Covered filter and keeps its confirmation in view on a ${size}`, async () => {
      const context = await newHumanContext(browser(), options);
      const page = await context.newPage();
      await openFromCoveredResults(page);
      // The page was served now: the form's signed time starts the 3 seconds a person needs.
      const served = Date.now();
      const form = page.locator("#ask");
      expect(await form.getByLabel("Covered", { exact: true }).isChecked()).toBe(true);
      expect(await form.getByLabel("Any", { exact: true }).isChecked()).toBe(false);

      await form.getByLabel("RV type").selectOption("travel_trailer");
      await form.getByLabel("Length (feet)").fill("28");
      await form.getByLabel("Your name").fill("Pat Phone");
      await form.getByLabel("Email").fill(`pat-${size}-${Date.now()}@example.com`);
      await form.getByLabel("Message").fill("Is a covered space free next month?");
      // A form sent within 3 seconds of the page is a bot's (docs/product.md section 14).
      await afterAPersonsPause(served);
      await form.getByRole("button", { name: "Send my question" }).click();
      await form.getByRole("status").filter({ hasText: SENT }).waitFor();
      await expect.poll(() => confirmationInViewAndFocused(page)).toBe(true);
      await screenshot(page, { path: `${shots}/question-sent-${size}.png` });
      await context.close();
    });
  }

  it("prefills the kind of space from a card's 'Ask about a space' link too", async () => {
    const context = await newHumanContext(browser(), PHONE);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/rv-storage/austin-tx?amenity=has_enclosed_units&size=12x30`);
    await hydrated(page);
    const ask = page
      .locator("section[aria-label=Results] article")
      .first()
      .getByRole("link", {
        name: /^Ask about a space/,
      });
    expect(await ask.getAttribute("href")).toMatch(/\?length=30&cover=enclosed#ask$/);
    await ask.click();
    await page.waitForURL(/\/location\//);
    const form = page.locator("#ask");
    await form.getByLabel("Enclosed", { exact: true }).waitFor();
    expect(await form.getByLabel("Enclosed", { exact: true }).isChecked()).toBe(true);
    expect(await form.getByLabel("Length (feet)").inputValue()).toBe("30");
    // A page opened with no filters behind it starts with "Any".
    await page.goto(page.url().replace(/\?.*$/, ""));
    expect(await page.locator("#ask").getByLabel("Any", { exact: true }).isChecked()).toBe(true);
    await context.close();
  });

  it("offers Apple Maps on an iPhone, Google Maps elsewhere", async () => {
    const iphone = await browser().newContext({ ...PHONE, userAgent: IPHONE_UA });
    const page = await iphone.newPage();
    const name = await openFromCoveredResults(page);
    const bar = page.locator("div.fixed.bottom-0");
    const directions = bar.getByRole("link", { name: "Directions" });
    await expect.poll(() => directions.getAttribute("href")).toMatch(/^https:\/\/maps\.apple\.com\/\?daddr=/);
    expect(await directions.getAttribute("href")).toContain(`q=${encodeURIComponent(name)}`);
    const google = page.getByRole("link", { name: "Directions in Google Maps" });
    expect(await google.getAttribute("href")).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\//);
    await screenshot(page, { path: `${shots}/facility-iphone.png` });
    await page.setViewportSize(DESKTOP.viewport);
    await page.locator("aside").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${shots}/facility-apple-desktop.png` });
    await iphone.close();

    const linux = await newHumanContext(browser(), DESKTOP);
    const other = await linux.newPage();
    await openFromCoveredResults(other);
    const side = other.locator("aside").getByRole("link", { name: "Directions" });
    expect(await side.getAttribute("href")).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\//);
    expect(await other.getByRole("link", { name: "Directions in Google Maps" }).count()).toBe(0);
    await linux.close();
  });

  it("shares through the system's share sheet, else copies the link and says so", async () => {
    // A browser with the Web Share API (a phone): the sheet gets the facility's own address.
    const sharing = await browser().newContext({ ...PHONE, userAgent: HUMAN_USER_AGENT });
    await sharing.addInitScript(() => {
      Object.defineProperty(navigator, "share", {
        configurable: true,
        value: (data: ShareData) => {
          (window as unknown as { shared: ShareData }).shared = data;
          return Promise.resolve();
        },
      });
    });
    const phone = await sharing.newPage();
    const name = await openFromCoveredResults(phone);
    await phone.getByRole("button", { name: "Share" }).click();
    await expect
      .poll(() => phone.evaluate(() => (window as unknown as { shared?: ShareData }).shared ?? null))
      .toEqual({ title: name, url: phone.url().replace(/[?#].*$/, "") });
    await sharing.close();

    // Without it (a desktop Chromium on Linux): the link is copied, and the page says so.
    const copying = await newHumanContext(browser(), DESKTOP);
    await copying.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    await copying.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    const page = await copying.newPage();
    await openFromCoveredResults(page);
    await page.getByRole("button", { name: "Share" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Link copied." }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url().replace(/[?#].*$/, ""));
    await screenshot(page, { path: `${shots}/facility-share-copied-desktop.png` });
    await copying.close();
  });
});
