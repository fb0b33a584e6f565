import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { browserForThisFile, hydrated, openPage, resultsCount } from "./browser";
import { screenshot } from "./screenshot";

const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
let context: BrowserContext;
let page: Page;

afterEach(async () => {
  await context?.close();
});

async function open(path: string, options: Parameters<Browser["newContext"]>[0] = {}) {
  let response;
  ({ context, page, response } = await openPage(browser(), baseUrl + path, options));
  return response;
}

const headingCount = () => resultsCount(page);
const cardNames = () => page.locator("section[aria-label=Results] article h2").allTextContents();
const waitForUrl = (test: (url: URL) => boolean) => page.waitForURL((url) => test(new URL(url)));
async function waitForHeading(pattern: RegExp) {
  await page.getByRole("heading", { level: 1, name: pattern }).waitFor();
}

describe("search", () => {
  it("suggests places while typing and opens the chosen place's results", async () => {
    await open("/");
    const box = page.getByRole("combobox", { name: "Search by city, state, ZIP code or coordinates" });
    await box.fill("Au");
    await page.getByText("Type in 2 or more characters for results.").waitFor();
    await box.fill("Austi");
    await page.getByRole("option", { name: "Austin, TX" }).click();
    await waitForUrl((u) => u.pathname === "/rv-storage/austin-tx");
    await waitForHeading(/^Storage Locations in Austin, Texas \(\d+\)$/);
    expect(await headingCount()).toBeGreaterThan(12);
    expect((await cardNames()).length).toBe(12);
    expect(await page.getByText(/^Showing 1 to 12 of \d+ locations$/).isVisible()).toBe(true);
    // The map renders its markers (clustered) even though no tile server can be reached.
    await page.locator('[data-map-state="ready"]').waitFor();
    expect(await page.locator(".leaflet-marker-icon").count()).toBeGreaterThan(0);
    await screenshot(page, { path: ".tmp/screenshots/results-desktop.png" });
  });

  it("applies staged size and amenity filters, sorts, pages, reloads and clears", async () => {
    await open("/rv-storage/austin-tx");
    const all = await headingCount();
    const clearAll = page.getByRole("button", { name: "Clear All" });
    expect(await clearAll.isDisabled()).toBe(true);

    // Size: staged until applied; the button previews the count.
    await page.getByRole("button", { name: /^Size/ }).click();
    await page.getByLabel("10' x 20'").check();
    const apply = page.getByRole("button", { name: /^Apply Filters \(\d+\)$/ });
    await apply.waitFor();
    const preview = Number(/\((\d+)\)/.exec((await apply.textContent()) ?? "")?.[1]);
    expect(page.url()).not.toContain("size=");
    await apply.click();
    await waitForUrl((u) => u.searchParams.getAll("size").includes("10x20"));
    await waitForHeading(new RegExp(`\\(${preview}\\)$`));
    const sized = await headingCount();
    expect(sized).toBeLessThanOrEqual(all);

    // Amenity, through the modal.
    await page.getByRole("button", { name: /^Amenities/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Perimeter fencing").check();
    await dialog.getByRole("button", { name: /^Apply Filters \(\d+\)$/ }).click();
    await waitForUrl((u) => u.searchParams.get("amenity") === "has_perimeter_fencing");
    await page.getByRole("button", { name: "Amenities (1)" }).waitFor();
    const filtered = await headingCount();
    expect(filtered).toBeLessThanOrEqual(sized);
    expect(await clearAll.isDisabled()).toBe(false);

    // Sort by rating.
    await page.getByRole("button", { name: "Rating" }).click();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    await page.locator('button[aria-pressed="true"]', { hasText: "Rating" }).waitFor();
    const ratings = await page
      .locator("section[aria-label=Results] article")
      .evaluateAll((cards) => cards.map((c) => Number(/(\d\.\d)\s*\(/.exec(c.textContent ?? "")?.[1] ?? 0)));
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));

    // Reload keeps everything.
    await page.reload();
    expect(await headingCount()).toBe(filtered);
    expect(await page.getByRole("button", { name: "Rating" }).getAttribute("aria-pressed")).toBe("true");

    // Clear All resets filters (and returns to page 1).
    await clearAll.click();
    await waitForUrl((u) => !u.searchParams.has("size") && !u.searchParams.has("amenity"));
    await waitForHeading(new RegExp(`\\(${all}\\)$`));
  });

  it("goes to page 2 and back", async () => {
    await open("/rv-storage/austin-tx");
    const first = await cardNames();
    await page.getByRole("link", { name: "Page 2" }).click();
    await waitForUrl((u) => u.searchParams.get("page") === "2");
    await page.getByText(/^Showing 13 to \d+ of \d+ locations$/).waitFor();
    const second = await cardNames();
    expect(second).not.toEqual(first);
    await page.goBack();
    await waitForUrl((u) => !u.searchParams.has("page"));
    await page.getByText(/^Showing 1 to 12 of/).waitFor();
    expect(await cardNames()).toEqual(first);
  });

  it("shows the Location Error banner and a 404 for an unknown place", async () => {
    const response = await open("/rv-storage/atlantis-tx");
    expect(response?.status()).toBe(404);
    const alert = page.getByRole("alert");
    expect(await alert.textContent()).toContain("Location Error");
    expect(await alert.textContent()).toContain("Could not find location: atlantis tx");
  });

  it("asks to search when there is no place", async () => {
    const response = await open("/rv-storage");
    expect(response?.status()).toBe(200);
    expect(await page.getByText(/click 'Use My Location'/).isVisible()).toBe(true);
  });

  it("searches near the visitor's position", async () => {
    await open("/", { geolocation: { latitude: 30.2672, longitude: -97.7431 }, permissions: ["geolocation"] });
    await page.getByRole("button", { name: "Use my location" }).click();
    await waitForUrl((u) => u.pathname === "/rv-storage" && u.searchParams.has("lat"));
    await waitForHeading(/^Storage Locations in Austin, Texas \(\d+\)$/);
  });

  for (const [code, message] of [
    [2, "Location information is unavailable."],
    [3, "Location request timed out"],
  ] as const) {
    it(`shows geolocation error ${code} in the banner`, async () => {
      context = await browser().newContext();
      await context.addInitScript((errorCode) => {
        navigator.geolocation.getCurrentPosition = (_ok, fail) =>
          fail?.({
            code: errorCode,
            message: "",
            PERMISSION_DENIED: 1,
            POSITION_UNAVAILABLE: 2,
            TIMEOUT: 3,
          } as GeolocationPositionError);
      }, code);
      page = await context.newPage();
      await page.goto(baseUrl + "/");
      await page.getByRole("button", { name: "Use my location" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain(message);
    });
  }

  it("stays silent when the visitor denies the permission, and explains a missing API", async () => {
    context = await browser().newContext();
    // Marks the page once the browser has answered (with its error's code): the proof that the
    // answer came, so the absence of a banner below is not just a check made too early.
    await context.addInitScript(() => {
      const geolocation = navigator.geolocation;
      const ask = geolocation.getCurrentPosition.bind(geolocation);
      geolocation.getCurrentPosition = (ok, fail, options) =>
        ask(
          ok,
          (error) => {
            fail?.(error);
            document.documentElement.dataset.geolocationAnswered = String(error.code);
          },
          options,
        );
    });
    page = await context.newPage();
    await page.goto(baseUrl + "/");
    await hydrated(page);
    await page.getByRole("button", { name: "Use my location" }).click();
    await page.locator('html[data-geolocation-answered="1"]').waitFor({ state: "attached" });
    // The button leaves its busy state in the same render that would show the banner.
    await page.locator('button[aria-busy="false"]', { hasText: "Use my location" }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    await context.close();

    context = await browser().newContext();
    await context.addInitScript(() => Object.defineProperty(navigator, "geolocation", { value: undefined }));
    page = await context.newPage();
    await page.goto(baseUrl + "/");
    await page.getByRole("button", { name: "Use my location" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Geolocation is not supported by this browser.");
  });

  it("switches between the list and the map on a phone", async () => {
    await open("/rv-storage/austin-tx", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const map = page.getByRole("region", { name: "Map of storage locations" });
    expect(await map.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Map" }).click();
    await map.waitFor();
    await screenshot(page, { path: ".tmp/screenshots/results-phone-map.png" });
    await page.getByRole("button", { name: "List" }).click();
    await screenshot(page, { path: ".tmp/screenshots/results-phone.png", fullPage: false });
  });

  for (const [device, options] of [
    ["desktop", { viewport: { width: 1280, height: 900 } }],
    ["phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ] as const) {
    it(`shows card-shaped skeletons while the next results load (${device})`, async () => {
      await open("/rv-storage/austin-tx", options);
      const results = page.locator("section[aria-label=Results]");
      const firstCard = await results.locator("article").first().boundingBox();
      // Hold the next page's data back until the skeleton has been checked.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\.data(\?|$)/, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("link", { name: "Page 2" }).click();
      const skeleton = page.getByTestId("results-skeleton");
      await skeleton.waitFor();
      expect(await results.getAttribute("aria-busy")).toBe("true");
      expect(await results.getByRole("status").textContent()).toBe("Loading locations...");
      expect(await results.locator("article").count()).toBe(0);
      const cards = skeleton.locator(":scope > div");
      expect(await cards.count()).toBe(12);
      const shape = await cards.first().boundingBox();
      expect(shape?.width).toBeCloseTo(firstCard!.width, 0);
      // Real cards vary with their names, addresses and amenities; a skeleton has typical ones.
      expect(Math.abs(shape!.height - firstCard!.height)).toBeLessThan(firstCard!.height * 0.3);
      await screenshot(page, { path: `.tmp/screenshots/results-loading-${device}.png` });

      release();
      await page.getByText(/^Showing 13 to \d+ of \d+ locations$/).waitFor();
      expect(await skeleton.count()).toBe(0);
      expect(await results.getAttribute("aria-busy")).toBe("false");
      expect(await results.getByRole("status").textContent()).toBe("");
      await page.unroute(/\.data(\?|$)/);
    });
  }

  it("does not pulse the skeleton for visitors who prefer reduced motion", async () => {
    await open("/rv-storage/austin-tx", { reducedMotion: "reduce" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Rating" }).click();
    const card = page.getByTestId("results-skeleton").locator(":scope > div").first();
    await card.waitFor();
    expect(await card.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    release();
    await waitForUrl((u) => u.searchParams.get("sort") === "rating");
    await page.getByTestId("results-skeleton").waitFor({ state: "detached" });
  });
});
