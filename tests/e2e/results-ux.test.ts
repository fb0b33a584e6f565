/**
 * The results page as a new visitor uses it (issue 17): the search box keeps its text, typos get
 * 'Did you mean', keyboard focus is visible and reaches the cards before the map, phones show two
 * or more cards under a compact sticky bar, sponsored placement is labelled, the text filter and
 * the text amenities work, nothing-nearby names the nearest, and Back keeps the visitor's place.
 */
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { browserForThisFile, nextFrames, openPage, resultsCount } from "./browser";
import { screenshot } from "./screenshot";

const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
const shots = ".tmp/screenshots/results-ux";
let context: BrowserContext;
let page: Page;

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's violations on the current page, as "rule: target" lines. */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run();
    return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

afterEach(async () => {
  await context?.close();
});

async function open(path: string, options: Parameters<Browser["newContext"]>[0] = {}) {
  let response;
  ({ context, page, response } = await openPage(browser(), baseUrl + path, options));
  return response;
}

const heading = () => page.getByRole("heading", { level: 1 });
const headingCount = () => resultsCount(page);
const cards = () => page.locator("section[aria-label=Results] article");
const box = () => page.getByRole("combobox", { name: "Search by city, state, ZIP code or coordinates" });
const waitForUrl = (test: (url: URL) => boolean) => page.waitForURL((url) => test(new URL(url)));

/**
 * Turns the mouse wheel by `dy` and waits until the page has moved and held still for two frames
 * (a wheel scroll may be animated), instead of a fixed pause.
 */
async function wheelAndSettle(dy: number): Promise<void> {
  const start = await page.evaluate(() => {
    Object.assign(window, { __scroll: { last: -1, still: 0 } });
    return window.scrollY;
  });
  await page.mouse.wheel(0, dy);
  await page.waitForFunction(
    (from) => {
      const state = (window as unknown as { __scroll: { last: number; still: number } }).__scroll;
      if (window.scrollY === from) return false;
      state.still = state.last === window.scrollY ? state.still + 1 : 0;
      state.last = window.scrollY;
      return state.still >= 2;
    },
    start,
    { polling: "raf" },
  );
}

/** What the focused element shows: an outline, or a box shadow on itself or its ::after (a card's ring). */
function focusInfo() {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "body", indicator: false, card: false, marker: false };
    const style = getComputedStyle(el);
    const after = getComputedStyle(el, "::after");
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none" || after.boxShadow !== "none";
    return {
      name: `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""}`,
      indicator: outline || shadow,
      card: el.hasAttribute("data-card-link"),
      cardRing: after.boxShadow !== "none",
      marker: el.classList.contains("leaflet-marker-icon"),
    };
  });
}

describe("results page: keyboard", () => {
  it("goes from the search box to the first card with a visible focus indicator at every stop", async () => {
    await open("/rv-storage/austin-tx");
    await page.locator('[data-map-state="ready"]').waitFor();
    await box().focus();
    const stops: string[] = [];
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      const info = await focusInfo();
      stops.push(info.name);
      expect(info.indicator, `focus indicator on ${info.name}`).toBe(true);
      expect(info.marker, "a map marker before the first card").toBe(false);
      if (info.card) {
        reached = true;
        expect(info.cardRing, "the card's ring").toBe(true);
        await screenshot(page, { path: `${shots}/focus-first-card.png` });
      } else await page.keyboard.press("Tab");
    }
    expect(reached, stops.join(" > ")).toBe(true);
    // Available now (issue 35) added one stop to the filter bar.
    expect(stops.length).toBeLessThanOrEqual(15);
    const first = await cards().first().locator("h2 a").textContent();
    expect(stops.at(-1)).toContain(first!.slice(0, 20));
  });

  it("opens each filter from the keyboard, and Escape closes it with focus back on its button", async () => {
    await open("/rv-storage/austin-tx");
    const focusedName = () =>
      page.evaluate(() => document.activeElement?.textContent?.trim() ?? document.activeElement?.tagName);
    const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    // Their popover and dialog library loads on first use (docs/decisions/026-react-in-the-browser.md).
    for (const name of [/^Size/, /^Amenities/, /^My RV/]) {
      // The element itself: a modal hides the rest of the page from the accessibility tree.
      const button = (await page
        .getByRole("group", { name: "Filters" })
        .getByRole("button", { name })
        .elementHandle())!;
      await button.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      await expect.poll(inDialog, { message: `focus inside the ${name} panel` }).toBe(true);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await expect.poll(focusedName).toMatch(name);
      expect(await button.getAttribute("aria-expanded")).toBe("false");
    }
    // A second press on the Size button closes the panel it opened.
    const size = page.getByRole("group", { name: "Filters" }).getByRole("button", { name: /^Size/ });
    await size.click();
    await page.getByRole("dialog").waitFor();
    await screenshot(page, { path: `${shots}/size-filter-open.png` });
    await size.click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
  });

  it("moves focus to the results heading after Apply Filters, the sort and a page link", async () => {
    await open("/rv-storage/austin-tx");
    const focusedTag = () => page.evaluate(() => document.activeElement?.tagName);
    await page.getByRole("button", { name: /^Amenities/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Perimeter fencing").check();
    await dialog.getByRole("button", { name: /^Apply Filters \(\d+\)$/ }).click();
    await waitForUrl((u) => u.searchParams.get("amenity") === "has_perimeter_fencing");
    await expect.poll(focusedTag).toBe("H1");

    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    await expect.poll(focusedTag).toBe("H1");

    await page.getByRole("link", { name: "Page 2" }).focus();
    await page.keyboard.press("Enter");
    await waitForUrl((u) => u.searchParams.get("page") === "2");
    await expect.poll(focusedTag).toBe("H1");
  });
});

describe("results page: the search box", () => {
  it("shows the place on a direct load and keeps it after choosing a suggestion", async () => {
    await open("/rv-storage/austin-tx");
    expect(await box().inputValue()).toBe("Austin, TX");
    await open("/rv-storage/tx");
    expect(await box().inputValue()).toBe("Texas");

    await open("/");
    await box().fill("San Anto");
    await page.getByRole("option", { name: "San Antonio, TX" }).click();
    await waitForUrl((u) => u.pathname === "/rv-storage/san-antonio-tx");
    await page.getByRole("heading", { level: 1, name: /San Antonio/ }).waitFor();
    // The new page's effects have run: one that cleared the box would have done so by now.
    await nextFrames(page);
    expect(await box().inputValue()).toBe("San Antonio, TX");
  });

  it("keeps a typo and offers 'Did you mean Austin, TX?' as a link", async () => {
    const response = await open("/rv-storage?where=Austn");
    expect(response?.status()).toBe(404);
    expect(await box().inputValue()).toBe("Austn");
    const alert = page.getByRole("alert");
    expect(await alert.textContent()).toContain("Did you mean Austin, TX");
    // A notice, not a red error.
    expect(await alert.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toMatch(/rgb\(254, 242, 242\)/);
    await screenshot(page, { path: `${shots}/typo-desktop.png` });
    await alert.getByRole("link", { name: "Austin, TX" }).click();
    await waitForUrl((u) => u.pathname === "/rv-storage/austin-tx");
    await page.getByRole("heading", { level: 1, name: /Austin, Texas/ }).waitFor();
    expect(await box().inputValue()).toBe("Austin, TX");

    // Typed in the box on the results page, the same.
    await box().fill("Austn");
    await box().press("Escape");
    await box().press("Enter");
    await waitForUrl((u) => u.searchParams.get("where") === "Austn");
    await page.getByRole("link", { name: "Austin, TX" }).waitFor();
    expect(await box().inputValue()).toBe("Austn");

    await open("/rv-storage/austn-tx", PHONE);
    expect(await box().inputValue()).toBe("austn tx");
    await page.getByRole("alert").getByRole("link", { name: "Austin, TX" }).waitFor();
    await screenshot(page, { path: `${shots}/typo-phone.png` });
  });

  it("shows the whole placeholder on a 390 px phone", async () => {
    for (const path of ["/rv-storage", "/rv-storage/austin-tx", "/"]) {
      await open(path, PHONE);
      if (path !== "/") await box().fill("");
      const fits = await box().evaluate((el: HTMLInputElement) => {
        const style = getComputedStyle(el);
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return ctx.measureText(el.placeholder).width <= room;
      });
      expect(fits, path).toBe(true);
    }
  });
});

describe("results page: phones", () => {
  it("shows at least two cards in the first screen under a compact sticky bar", async () => {
    await open("/rv-storage/austin-tx", PHONE);
    const filters = page.getByRole("group", { name: "Filters" });
    const bar = (await filters.boundingBox())!;
    expect(bar.y + bar.height).toBeLessThan(250);
    const shown = await cards().evaluateAll((articles) =>
      articles.filter((a) => {
        const r = a.getBoundingClientRect();
        return Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0) >= 0.75 * r.height;
      }),
    );
    expect(shown.length).toBeGreaterThanOrEqual(2);
    await screenshot(page, { path: `${shots}/results-phone.png` });

    // The bar stays in reach while the list scrolls.
    await wheelAndSettle(2500);
    const after = (await filters.boundingBox())!;
    expect(after.y).toBeCloseTo(bar.y, -1);
    await screenshot(page, { path: `${shots}/results-phone-scrolled.png` });
  });

  it("switches between the list and the map with one floating button", async () => {
    await open("/rv-storage/austin-tx", PHONE);
    const map = page.getByRole("region", { name: "Map of storage locations" });
    const list = page.locator("section[aria-label=Results]");
    expect(await map.isVisible()).toBe(false);
    const toggle = page.getByRole("button", { name: "Map", exact: true });
    const where = (await toggle.boundingBox())!;
    expect(where.y + where.height).toBeGreaterThan(844 - 100);
    await toggle.click();
    await page.locator('[data-map-state="ready"]').waitFor();
    expect(await list.isVisible()).toBe(false);
    await screenshot(page, { path: `${shots}/results-phone-map.png` });
    await page.getByRole("button", { name: "List", exact: true }).click();
    expect(await list.isVisible()).toBe(true);
    expect(await map.isVisible()).toBe(false);
  });

  it("keeps 'Apply Filters' on screen in the Amenities sheet", async () => {
    await open("/rv-storage/austin-tx", PHONE);
    await page.getByRole("button", { name: /^Amenities/ }).click();
    const dialog = page.getByRole("dialog");
    const apply = dialog.getByRole("button", { name: /^Apply Filters/ });
    await apply.waitFor();
    const list = dialog.getByTestId("amenities-list");
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    const before = (await apply.boundingBox())!;
    expect(before.y + before.height).toBeLessThanOrEqual(844);
    await screenshot(page, { path: `${shots}/amenities-sheet-phone.png` });
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const after = (await apply.boundingBox())!;
    expect(after.y).toBeCloseTo(before.y, 0);
  });
});

describe("results page: what the cards say", () => {
  it("labels every card the distance sort placed by its paid tier, and says what the sort does", async () => {
    await open("/rv-storage/tx");
    expect(await page.getByText("Order: sponsored listings first, then the nearest.").isVisible()).toBe(true);
    const all = await cards().evaluateAll((articles) =>
      articles.map((a) => ({ tier: a.getAttribute("data-tier"), text: a.textContent ?? "" })),
    );
    const paid = all.filter((c) => c.tier !== "Free");
    expect(paid.length).toBeGreaterThan(0);
    for (const card of paid) expect(card.text).toContain("Sponsored");
    for (const card of all.filter((c) => c.tier === "Free")) expect(card.text).not.toContain("Sponsored");
    // A whole state's page: no distances from the state's centre.
    for (const card of all) expect(card.text).not.toMatch(/\d mi\b/);
    await screenshot(page, { path: `${shots}/state-desktop.png` });

    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    await page.getByText("Order: highest rated first.").waitFor();
    expect(await cards().filter({ hasText: "Sponsored" }).count()).toBe(0);
  });

  it("puts at most 3 sponsored cards on a big town's first page, nearest first after them", async () => {
    await open("/rv-storage/austin-tx");
    const all = await cards().evaluateAll((articles) =>
      articles.map((a) => ({
        tier: a.getAttribute("data-tier"),
        miles: Number.parseFloat(/([\d.]+) mi/.exec(a.textContent ?? "")?.[1] ?? "NaN"),
      })),
    );
    const paid = all.filter((c) => c.tier !== "Free");
    expect(paid.length).toBeLessThanOrEqual(3);
    const free = all.filter((c) => c.tier === "Free").map((c) => c.miles);
    expect(free).toEqual([...free].sort((a, b) => a - b));
    await screenshot(page, { path: `${shots}/results-desktop.png` });
  });

  it("says '+N more' when a card hides amenities", async () => {
    await open("/rv-storage/austin-tx");
    expect(
      await cards()
        .filter({ hasText: /\+\d+ more/ })
        .count(),
    ).toBeGreaterThan(0);
    await open("/rv-storage/austin-tx", PHONE);
    const more = cards().locator("li", { hasText: /^\+\d+ more/ });
    expect(await more.first().isVisible()).toBe(true);
  });

  it("names the nearest facility when nothing is within the radius", async () => {
    await open("/rv-storage?lat=71.2906&lng=-156.7886");
    const line = page.getByText(/^No storage within 100 miles\. The nearest is .+, [\d,]+ mi away\.$/);
    await line.waitFor();
    expect(await cards().count()).toBe(1);
    const name = await line.getByRole("link").textContent();
    expect(await cards().first().textContent()).toContain(name);
    // The map is not empty: the nearest is its one pin, framed with the searched place.
    await page.locator(".leaflet-marker-pane .rv-map-pin").first().waitFor();
    expect(await page.locator(".leaflet-marker-pane .rv-map-pin").count()).toBe(1);
    await screenshot(page, { path: `${shots}/nearest-beyond.png` });
  });
});

describe("results page: filters", () => {
  it("filters by text in name or address, in the URL like the other filters", async () => {
    await open("/rv-storage/austin-tx");
    const all = await headingCount();
    // The first two words of a name ('Cedar Ridge'): most names end in 'RV Storage' or the like.
    const name = (await cards().nth(1).locator("h2").textContent())!;
    const word = name.split(" ").slice(0, 2).join(" ");
    const filter = page.getByLabel("Filter by name or address");
    await filter.fill(word);
    await filter.press("Enter");
    await waitForUrl((u) => u.searchParams.get("q") === word);
    await page.getByRole("heading", { level: 1, name: new RegExp(`\\((?!${all}\\))\\d+\\)$`) }).waitFor();
    expect(await headingCount()).toBeLessThan(all);
    for (const text of await cards().allTextContents()) expect(text.toLowerCase()).toContain(word.toLowerCase());
    await page.reload();
    expect(await page.getByLabel("Filter by name or address").inputValue()).toBe(word);
    await page.getByRole("button", { name: "Clear All" }).click();
    await waitForUrl((u) => !u.searchParams.has("q"));
    await page.getByRole("heading", { level: 1, name: new RegExp(`\\(${all}\\)$`) }).waitFor();
  });

  it("filters by a text amenity, with its count", async () => {
    await open("/rv-storage/austin-tx");
    const all = await headingCount();
    await page.getByRole("button", { name: /^Amenities/ }).click();
    const dialog = page.getByRole("dialog");
    const option = dialog.locator("label", { hasText: "Payment options" });
    const count = Number(await option.locator("[aria-label$=locations]").textContent());
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(all);
    await dialog.getByLabel("Payment options").check();
    await dialog.getByRole("button", { name: `Apply Filters (${count})` }).click();
    await waitForUrl((u) => u.searchParams.get("amenity") === "payment_options");
    await page.getByRole("heading", { level: 1, name: new RegExp(`\\(${count}\\)$`) }).waitFor();
  });
});

describe("results page: accessibility", () => {
  for (const [what, path] of [
    ["results", "/rv-storage/austin-tx?amenity=payment_options&q=storage"],
    ["a typo", "/rv-storage?where=Austn"],
    ["no place yet", "/rv-storage"],
    ["nothing within the radius", "/rv-storage?lat=71.2906&lng=-156.7886"],
  ] as const) {
    it(`has no axe violations: ${what}, desktop and phone`, async () => {
      // The site's CSP allows only its own scripts; the test's axe-core comes from outside.
      await open(path, { bypassCSP: true });
      expect(await axeViolations()).toEqual([]);
      await context.close();
      await open(path, { ...PHONE, bypassCSP: true });
      expect(await axeViolations()).toEqual([]);
    });
  }
});

describe("results page: Back and current location", () => {
  it("returns from a facility to the same results at the same scroll position", async () => {
    await open("/rv-storage/austin-tx");
    const results = page.url();
    const card = cards().nth(7);
    await card.scrollIntoViewIfNeeded();
    await wheelAndSettle(200);
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(300);
    await card.locator("h2 a").click();
    await page.waitForURL(/\/location\//);
    await page.getByRole("link", { name: "Claim This Business" }).waitFor();
    const entries = await page.evaluate(() => history.length);
    await page.getByRole("link", { name: "Back" }).click();
    await page.waitForURL(results);
    await heading().waitFor();
    // Restored when the results render again, which on a busy machine can be seconds after the
    // address changed and the heading is back (expect.poll gives up after one second by default).
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBeGreaterThan(scrolled - 60);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(60);
    expect(await page.evaluate(() => history.length)).toBe(entries);
  });

  it("says it could not get the current location and offers 'Show all locations'", async () => {
    context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      navigator.geolocation.getCurrentPosition = (_ok, fail) =>
        fail?.({
          code: 3,
          message: "",
          PERMISSION_DENIED: 1,
          POSITION_UNAVAILABLE: 2,
          TIMEOUT: 3,
        } as GeolocationPositionError);
    });
    page = await context.newPage();
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await page.getByRole("button", { name: "Use my location" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Could not get your current location");
    expect(await alert.textContent()).toContain("Location request timed out");
    await alert.getByRole("button", { name: "Show all locations" }).click();
    await waitForUrl((u) => u.pathname === "/rv-storage" && u.search === "");
    await page.getByRole("heading", { name: "All locations by state" }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Texas" }).isVisible()).toBe(true);
  });
});

describe("results page: distance and the map's area (issue 32, item 14)", () => {
  it("heads the nearest-first cards with 'Nearest to Austin, TX' after the sponsored ones", async () => {
    await open("/rv-storage/austin-tx");
    const order = await page
      .locator("section[aria-label=Results] article, section[aria-label=Results] [data-results-divider]")
      .evaluateAll((nodes) =>
        nodes.map((n) => (n.tagName === "P" ? `divider:${n.textContent}` : (n.getAttribute("data-tier") ?? "?"))),
      );
    const divider = order.findIndex((entry) => entry.startsWith("divider:"));
    expect(order[divider]).toBe("divider:Nearest to Austin, TX");
    // Sponsored cards above it, plain nearest-first cards below it.
    expect(divider).toBeGreaterThan(0);
    expect(order.slice(0, divider).every((tier) => tier !== "Free")).toBe(true);
    expect(order.slice(divider + 1).filter((e) => !e.startsWith("divider:"))[0]).toBe("Free");
    // Each sponsored card shows its distance like the others.
    const texts = await cards().allTextContents();
    for (const text of texts) expect(text).toMatch(/\d\.\d mi/);
    // Sorted by rating nothing is placed by tier, so there is no divider.
    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    await page.getByText("Order: highest rated first.").waitFor();
    expect(await page.getByText("Nearest to Austin, TX").count()).toBe(0);
  });

  it("narrows to 25 miles and keeps the distance through the sort and the filters", async () => {
    await open("/rv-storage/austin-tx");
    const wide = await headingCount();
    await page.getByRole("combobox", { name: "Distance" }).selectOption("25");
    await waitForUrl((u) => u.searchParams.get("radius") === "25");
    await expect.poll(headingCount).toBeLessThan(wide);
    for (const text of await cards().allTextContents()) {
      const miles = Number.parseFloat(/([\d.]+) mi/.exec(text)?.[1] ?? "NaN");
      expect(miles).toBeLessThanOrEqual(25);
    }
    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    expect(new URL(page.url()).searchParams.get("radius")).toBe("25");
    expect(await page.getByRole("combobox", { name: "Distance" }).inputValue()).toBe("25");
  });

  it("offers 'Search this area' after the map is dragged, and searches around its centre", async () => {
    await open("/rv-storage/austin-tx");
    const map = page.locator('[data-map-state="ready"]');
    await map.waitFor();
    const button = page.getByRole("button", { name: "Search this area" });
    expect(await button.count()).toBe(0);
    const frame = (await map.boundingBox())!;
    const x = frame.x + frame.width / 2;
    const y = frame.y + frame.height / 2;
    // Drag the map a good way west (the view moves east of Austin).
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - frame.width * 0.2, y, { steps: 5 });
    await page.mouse.move(x - frame.width * 0.45, y, { steps: 5 });
    await page.mouse.up();
    await button.waitFor();
    await screenshot(page, { path: `${shots}/search-this-area.png` });
    await button.click();
    await waitForUrl((u) => u.pathname === "/rv-storage" && u.searchParams.has("lat") && u.searchParams.has("radius"));
    const url = new URL(page.url());
    // East of Austin (-97.74), within the frame's reach.
    expect(Number(url.searchParams.get("lng"))).toBeGreaterThan(-97.74);
    expect(Number(url.searchParams.get("radius"))).toBeGreaterThan(0);
    await expect.poll(() => heading().textContent()).not.toContain("Austin, Texas (");
    expect(await button.count()).toBe(0);
    // Filters carry on from the new area.
    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating" && u.searchParams.has("lat"));
  });
});
