import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { browserForThisFile, openPage, resultsCount } from "./browser";
import { screenshot } from "./screenshot";

/** "Will my RV fit?" and prices on the results page (docs/product.md section 5, "My RV" and "Prices"). */
const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
let context: BrowserContext;
let page: Page;

afterEach(async () => {
  await context?.close();
});

async function open(path: string, viewport = { width: 1280, height: 900 }) {
  ({ context, page } = await openPage(browser(), baseUrl + path, { viewport }));
}

const headingCount = () => resultsCount(page);
const cards = () => page.locator("section[aria-label=Results] article");
const priceFilter = () =>
  page.getByRole("group", { name: "Filters" }).getByRole("button", { name: "Max price", exact: true });
const priceSort = () => page.getByRole("group", { name: "Sort by" }).getByRole("button", { name: "Price" });
const waitForUrl = (test: (url: URL) => boolean) => page.waitForURL((url) => test(new URL(url)));
/** Waits until the list shows what the URL asks (the router has finished loading). */
const settled = () => page.locator('section[aria-label=Results][aria-busy="false"]').waitFor();

/** Each card's 'Fits your ... RV: 12x45, 14x50' line, as the sizes it lists (null: no such line). */
async function fittingSizes(): Promise<(string[] | null)[]> {
  return cards().evaluateAll((articles) =>
    articles.map((article) => {
      // innerText: what is shown (a phone's card words it shorter, and hides the long line).
      const line = [...article.querySelectorAll("p")].find((p) => p.innerText.startsWith("Fits your"));
      const list = line?.innerText.split(": ")[1];
      return list === undefined ? null : list.split(", ");
    }),
  );
}

/** Each card's 'from $N/month', as N (null when the card shows no price). */
async function cardPrices(): Promise<(number | null)[]> {
  return cards().evaluateAll((articles) =>
    articles.map((article) => {
      const match = /from \$([\d,]+)\/month/.exec(article.textContent ?? "");
      return match ? Number(match[1]!.replace(/,/g, "")) : null;
    }),
  );
}

async function setRv(length: string, height = "") {
  await page.getByRole("button", { name: /^My RV/ }).click();
  const dialog = page.getByRole("dialog", { name: "My RV" });
  await dialog.getByLabel("Length (ft)").fill(length);
  await dialog.getByLabel("Height (ft)").fill(height);
  await dialog.getByRole("button", { name: "Apply" }).click();
}

describe("My RV", () => {
  it("shows a 40 ft RV only places with a 40 ft or longer space, remembers it and keeps it in the URL", async () => {
    await open("/rv-storage/austin-tx");
    const all = await headingCount();

    // A typo is refused in the popover, with the range.
    await setRv("4");
    await page.getByRole("alert").filter({ hasText: "Enter a length from 10 to 100 feet." }).waitFor();
    await page.keyboard.press("Escape");
    expect(page.url()).not.toContain("rvLength");

    await setRv("40");
    await waitForUrl((u) => u.searchParams.get("rvLength") === "40");
    await page.getByRole("button", { name: "My RV: 40 ft" }).waitFor();
    await settled();
    const fitting = await headingCount();
    expect(fitting).toBeGreaterThan(0);
    expect(fitting).toBeLessThan(all);
    // Every card says which of its spaces fit, and each of them is at least 40 ft long.
    const sizes = await fittingSizes();
    expect(sizes.length).toBeGreaterThan(0);
    for (const list of sizes) {
      expect(list).not.toBeNull();
      expect(list!.length).toBeGreaterThan(0);
      for (const size of list!) expect(Number(size.split("x")[1]), size).toBeGreaterThanOrEqual(40);
    }
    // The API agrees: every result of the whole list has a space that long.
    const api = await page.evaluate(async () => {
      const res = await fetch("/api/search?lat=30.2672&lng=-97.7431&rvLength=40&pageSize=100");
      return (await res.json()) as { total: number; items: { sizes: string[] }[] };
    });
    for (const item of api.items) expect(item.sizes.some((s) => Number(s.split("x")[1]) >= 40)).toBe(true);
    await screenshot(page, { path: `${shots}/rv-fit-desktop.png` });

    // The server applies the remembered RV (its cookie): a page asked for without it answers with a
    // redirect that adds it, so the first list the visitor sees is already filtered.
    const asked = await context.request.get(`${baseUrl}/rv-storage/austin-tx?page=2`, { maxRedirects: 0 });
    expect(asked.status()).toBe(302);
    expect(asked.headers().location).toBe("/rv-storage/austin-tx?rvLength=40");
    // A new page load without the parameter applies the remembered RV, and the URL says so.
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await waitForUrl((u) => u.searchParams.get("rvLength") === "40");
    await settled();
    await page.getByRole("button", { name: "My RV: 40 ft" }).waitFor();
    expect(await headingCount()).toBe(fitting);
    // Another place too.
    await page.goto(`${baseUrl}/rv-storage/dallas-tx`);
    await waitForUrl((u) => u.pathname === "/rv-storage/dallas-tx" && u.searchParams.get("rvLength") === "40");

    // Clear forgets it: the next load stays without.
    await page.getByRole("button", { name: "My RV: 40 ft" }).click();
    await page.getByRole("dialog", { name: "My RV" }).getByRole("button", { name: "Clear" }).click();
    await waitForUrl((u) => !u.searchParams.has("rvLength"));
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    expect(new URL(page.url()).searchParams.has("rvLength")).toBe(false);
    expect(await headingCount()).toBe(all);
  });

  it("applies an RV remembered before the cookie existed, and from then on the server does", async () => {
    await open("/about");
    await page.evaluate((key) => localStorage.setItem(key, JSON.stringify({ lengthFeet: 40 })), "rv-storage:my-rv");
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await waitForUrl((u) => u.searchParams.get("rvLength") === "40");
    await page.getByRole("button", { name: "My RV: 40 ft" }).waitFor();
    expect((await context.cookies()).find((c) => c.name === "my_rv")?.value).toBe("40");
  });

  it("with a height and covered parking, says each place's clearance and drops those too low", async () => {
    await open("/rv-storage/austin-tx?amenity=has_covered_parking&rvLength=35&rvHeight=13.5");
    expect(await cards().count()).toBeGreaterThan(0);
    const lines = await cards().evaluateAll((articles) =>
      articles.map(
        (article) =>
          [...article.querySelectorAll("p")].find((p) => p.innerText.startsWith("Covered clearance"))?.innerText ??
          null,
      ),
    );
    for (const line of lines) {
      expect(line).not.toBeNull();
      expect(line).not.toContain("too low");
      expect(line).toMatch(/^Covered clearance (not stated|[\d.]+ ft: clears your 13.5 ft RV)$/);
    }
  });

  it("works on a phone", async () => {
    await open("/rv-storage/austin-tx", { width: 390, height: 844 });
    await setRv("38", "12.5");
    await waitForUrl((u) => u.searchParams.get("rvLength") === "38" && u.searchParams.get("rvHeight") === "12.5");
    await settled();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${shots}/rv-fit-phone.png` });
    await cards().first().locator("p", { hasText: "Fits your 38 ft RV" }).scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${shots}/rv-fit-phone-card.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("button", { name: "My RV: 38 ft" }).click();
    await page.getByRole("dialog", { name: "My RV" }).waitFor();
    await screenshot(page, { path: `${shots}/rv-fit-phone-popover.png` });
  });
});

describe("prices", () => {
  it("offers the price sort and a max price where the area has prices, and both work", async () => {
    await open("/rv-storage/austin-tx");
    const all = await headingCount();
    expect((await cardPrices()).some((p) => p !== null)).toBe(true);

    // Lowest first, unknown prices last.
    await priceSort().click();
    await waitForUrl((u) => u.searchParams.get("sort") === "price");
    await settled();
    const sorted = await cardPrices();
    const known = sorted.filter((p): p is number => p !== null);
    expect(known.length).toBeGreaterThan(0);
    expect(known).toEqual([...known].sort((a, b) => a - b));
    expect(sorted.slice(0, known.length)).toEqual(known);

    // The cap: staged, previewed, applied.
    await priceFilter().click();
    await page.getByRole("radio", { name: "$150", exact: true }).check();
    const apply = page.getByRole("button", { name: /^Apply Filters \(\d+\)$/ });
    await apply.waitFor();
    const preview = Number(/\((\d+)\)/.exec((await apply.textContent()) ?? "")?.[1]);
    await apply.click();
    await waitForUrl((u) => u.searchParams.get("maxPrice") === "150");
    await page.getByRole("button", { name: "Up to $150/mo" }).waitFor();
    await settled();
    const capped = await headingCount();
    expect(capped).toBe(preview);
    expect(capped).toBeLessThan(all);
    for (const price of await cardPrices()) {
      expect(price).not.toBeNull();
      expect(price!).toBeLessThanOrEqual(150);
    }
    await screenshot(page, { path: `${shots}/prices-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Up to $150/mo" }).click();
    await page.getByRole("button", { name: /^Apply Filters \(\d+\)$/ }).waitFor();
    await screenshot(page, { path: `${shots}/prices-phone-popover.png` });
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Clear All removes the cap.
    await page.getByRole("button", { name: "Clear All" }).click();
    await waitForUrl((u) => !u.searchParams.has("maxPrice"));
    await settled();
    expect(await headingCount()).toBe(all);
  });

  it("hides the price controls where no result has a price", async () => {
    // A cap of $0 leaves no result, but the control stays so the visitor can lift it.
    await open("/rv-storage/austin-tx?maxPrice=0");
    expect(await headingCount()).toBe(0);
    await page.getByRole("button", { name: "Up to $0/mo" }).waitFor();
    // A text that matches nothing leaves nothing priced.
    const none = await page.evaluate(async () => {
      const res = await fetch("/api/search?lat=30.27&lng=-97.74&q=no-such-place-anywhere&pageSize=0");
      return (await res.json()) as { facets: { priced: number } };
    });
    expect(none.facets.priced).toBe(0);
    await page.goto(`${baseUrl}/rv-storage/austin-tx?q=no-such-place-anywhere`);
    expect(await headingCount()).toBe(0);
    expect(await priceFilter().count()).toBe(0);
    expect(await priceSort().count()).toBe(0);
  });
});
