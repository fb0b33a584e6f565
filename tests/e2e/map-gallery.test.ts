import type { BrowserContext, Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { browserForThisFile, hydrated } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The map that is never a blank sheet, the gallery that never crops, and the result card that
 * points at its pin (issue 17; docs/product.md section 4, "Map states" and "Gallery").
 */
const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
let context: BrowserContext;
let page: Page;

afterEach(async () => {
  await context?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * Opens `path` in a new context; with `awaitedResponse`, also resolves to the first response it
 * matches, listened for before the page loads: the map can fetch its outlines before a busy test
 * process hears that the page hydrated.
 */
async function open(
  path: string,
  options: Parameters<ReturnType<typeof browser>["newContext"]>[0] = {},
  awaitedResponse?: (response: Response) => boolean,
): Promise<Response | undefined> {
  context = await browser().newContext({ viewport: DESKTOP, ...options });
  // Whatever tile server is configured, no tile gets through: the offline case, for certain.
  await context.route(/\{z\}|tile\.openstreetmap\.org/, (route) => route.abort("internetdisconnected"));
  page = await context.newPage();
  const response = awaitedResponse ? page.waitForResponse(awaitedResponse) : undefined;
  await page.goto(baseUrl + path);
  await hydrated(page);
  return response;
}

const backdropPaths = () => page.locator(".leaflet-rvBackdrop-pane svg path");
const markers = () => page.locator(".leaflet-marker-pane .leaflet-marker-icon");

/** The results page's first facility (demo listings have several photos). */
async function firstFacility(): Promise<string> {
  const html = await (await fetch(`${baseUrl}/rv-storage/austin-tx?sort=rating`)).text();
  const start = html.indexOf('href="/location/') + 'href="'.length;
  return html.slice(start, html.indexOf('"', start));
}

describe("a map without tiles", () => {
  it("loads Leaflet after first paint: no page's HTML names a script holding it", async () => {
    for (const path of ["/rv-storage/austin-tx", await firstFacility()]) {
      const html = await (await fetch(baseUrl + path)).text();
      const named = html.split('data-after-paint="modulepreload" fetchpriority="low" href="').slice(1);
      expect(named.length).toBeGreaterThan(0);
      for (const part of named) {
        const src = part.slice(0, part.indexOf('"'));
        expect(await (await fetch(baseUrl + src)).text(), src).not.toContain("leaflet-container");
      }
    }
  });

  it("draws the state outlines and the searched place under the markers when tiles are blocked", async () => {
    const response = await open("/rv-storage/austin-tx", {}, (r) => r.url().endsWith("/map/us-states.json"));
    expect(response?.status()).toBe(200);
    await page.locator('[data-map-state="ready"]').waitFor();
    await expect.poll(() => backdropPaths().count()).toBeGreaterThanOrEqual(51);
    expect(await markers().count()).toBeGreaterThan(0);
    // Under the markers and the tiles: the backdrop's pane sits below both.
    const zIndex = (selector: string) => page.locator(selector).evaluate((el) => Number(getComputedStyle(el).zIndex));
    expect(await zIndex(".leaflet-rvBackdrop-pane")).toBeLessThan(await zIndex(".leaflet-tile-pane"));
    expect(await zIndex(".leaflet-rvBackdrop-pane")).toBeLessThan(await zIndex(".leaflet-marker-pane"));
    await expect.poll(() => page.locator(".leaflet-rvBackdrop-pane").getByText("Austin, Texas").count()).toBe(1);
    // The big towns around it, for bearings.
    const town = page.locator(".leaflet-rvBackdrop-pane").getByText("San Antonio", { exact: true });
    expect(await town.count()).toBe(1);
    await screenshot(page, { path: ".tmp/screenshots/map-offline-desktop.png" });
  });

  it("draws them on a phone's map too", async () => {
    await open("/rv-storage/austin-tx", PHONE);
    await page.getByRole("button", { name: "Map" }).click();
    await page.locator('[data-map-state="ready"]').waitFor();
    await expect.poll(() => backdropPaths().count()).toBeGreaterThanOrEqual(51);
    expect(await markers().count()).toBeGreaterThan(0);
    await screenshot(page, { path: ".tmp/screenshots/map-offline-phone.png" });
  });

  it("draws them on a facility's map", async () => {
    await open(await firstFacility());
    await page.locator("[aria-label^='Map of the location of']").scrollIntoViewIfNeeded();
    await page.locator('[data-map-state="ready"]').waitFor();
    await expect.poll(() => backdropPaths().count()).toBeGreaterThanOrEqual(51);
    expect(await markers().count()).toBe(1);
  });
});

describe("a site with no tile server (MAP_TILE_URL=none)", () => {
  let site: RunningSite | undefined;
  beforeAll(async () => {
    site = await startBuiltSite({ env: { MAP_TILE_URL: "none", DEMO_COUNT: "200" } });
  }, 180_000);
  afterAll(async () => {
    await site?.stop();
  });

  it("asks for no tile at all and draws the outlines, the place and the markers", async () => {
    context = await browser().newContext({ viewport: DESKTOP });
    page = await context.newPage();
    const tiles: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "image" && !r.url().startsWith(site!.baseUrl)) tiles.push(r.url());
    });
    const outlines = page.waitForResponse((r) => r.url().endsWith("/map/us-states.json"));
    await page.goto(`${site!.baseUrl}/rv-storage/tx`);
    expect((await outlines).status()).toBe(200);
    await page.locator('[data-map-state="ready"]').waitFor();
    await expect.poll(() => backdropPaths().count()).toBeGreaterThanOrEqual(51);
    expect(await markers().count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator(".leaflet-rvBackdrop-pane").getByText("Texas").count()).toBe(1);
    expect(await page.locator(".leaflet-tile").count()).toBe(0);
    expect(tiles).toEqual([]);
    await screenshot(page, { path: ".tmp/screenshots/map-no-tiles-desktop.png" });
  });
});

describe("result cards and their pins", () => {
  it("highlights a card's pin (or its cluster) while the card is hovered or focused", async () => {
    await open("/rv-storage/austin-tx");
    await page.locator('[data-map-state="ready"]').waitFor();
    await expect.poll(() => markers().count()).toBeGreaterThan(0);
    const lit = page.locator('.leaflet-marker-pane [data-highlighted="true"]');
    expect(await lit.count()).toBe(0);

    const cards = page.locator("section[aria-label=Results] article");
    await cards.nth(0).hover();
    await expect.poll(() => lit.count()).toBe(1);
    // In front of every other marker.
    const zIndexes = await markers().evaluateAll((els) =>
      els.map((el) => ({ lit: el.dataset.highlighted === "true", z: Number((el as HTMLElement).style.zIndex) })),
    );
    const litZ = zIndexes.find((m) => m.lit)!.z;
    expect(zIndexes.filter((m) => !m.lit).every((m) => m.z < litZ)).toBe(true);
    await screenshot(page, { path: ".tmp/screenshots/map-highlight-desktop.png" });

    await page.getByRole("heading", { level: 1 }).hover();
    await expect.poll(() => lit.count()).toBe(0);

    // The keyboard too: focusing a card's link lights its pin.
    await cards.nth(1).getByRole("link").first().focus();
    await expect.poll(() => lit.count()).toBe(1);
  });
});

describe("the facility gallery", () => {
  const counter = () => page.locator("section[aria-label=Photos] p[aria-live]");
  const fullCounter = () => page.getByTestId("full-screen-counter");

  it("shows photos whole, opens full screen from the photo with a counter, keys and focus return", async () => {
    await open(await firstFacility());
    const frame = page.getByTestId("gallery-photo");
    const img = frame.locator("img");
    await img.waitFor();
    expect(await img.evaluate((el) => getComputedStyle(el).objectFit)).toBe("contain");
    const box = (await frame.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(4 / 3, 1);
    const total = Number(/\/ (\d+)$/.exec((await counter().textContent())!)?.[1]);
    expect(total).toBeGreaterThanOrEqual(2);
    await screenshot(page, { path: ".tmp/screenshots/gallery-desktop.png" });

    // A click on the photo opens full screen, fitted (never cropped) inside the window.
    await frame.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await fullCounter().textContent()).toBe(`1 / ${total}`);
    const full = dialog.locator("img");
    await full.waitFor();
    expect(await full.evaluate((el) => getComputedStyle(el).objectFit)).toBe("contain");
    const fullBox = (await full.boundingBox())!;
    expect(fullBox.y).toBeGreaterThanOrEqual(0);
    expect(fullBox.y + fullBox.height).toBeLessThanOrEqual(DESKTOP.height);
    await page.keyboard.press("ArrowRight");
    expect(await fullCounter().textContent()).toBe(`2 / ${total}`);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await fullCounter().textContent()).toBe(`${total} / ${total}`);
    await full.evaluate((el) => (el as HTMLImageElement).decode().catch(() => {}));
    await screenshot(page, { path: ".tmp/screenshots/gallery-full-screen-desktop.png" });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await counter().textContent()).toBe(`${total} / ${total}`);
    // Opened by the photo, which is no focus stop: focus lands on 'View full screen', not the page top.
    const fullScreenButton = page.getByRole("button", { name: "View full screen" });
    expect(await fullScreenButton.evaluate((el) => el === document.activeElement)).toBe(true);

    // From the keyboard: the button opens it, Escape closes it, focus is back on the button.
    await fullScreenButton.focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await fullScreenButton.evaluate((el) => el === document.activeElement)).toBe(true);
    const scrollY = await page.evaluate(() => window.scrollY);
    expect(scrollY).toBeLessThan(600);
  });

  it("swipes between photos on a phone", async () => {
    await open(await firstFacility(), PHONE);
    const frame = page.getByTestId("gallery-photo");
    await frame.locator("img").waitFor();
    const total = Number(/\/ (\d+)$/.exec((await counter().textContent())!)?.[1]);
    const box = (await frame.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const swipe = async (from: number, to: number) => {
      const y = box.y + box.height / 2;
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from, y }] });
      for (let i = 1; i <= 8; i++) {
        const x = from + ((to - from) * i) / 8;
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    // A tap opens full screen, where a swipe changes photo too. (First: a tap a few milliseconds
    // after a synthetic swipe is taken by Chromium's gesture detector, not as a click.)
    await frame.tap();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await fullCounter().textContent()).toBe(`1 / ${total}`);
    const fullBox = (await dialog.locator("img").boundingBox())!;
    expect(fullBox.x).toBeGreaterThanOrEqual(0);
    expect(fullBox.x + fullBox.width).toBeLessThanOrEqual(390);
    await swipe(300, 60);
    await expect.poll(() => fullCounter().textContent()).toBe(`2 / ${total}`);
    await dialog.locator("img").evaluate((el) => (el as HTMLImageElement).decode().catch(() => {}));
    await screenshot(page, { path: ".tmp/screenshots/gallery-full-screen-phone.png" });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await counter().textContent()).toBe(`2 / ${total}`);

    const left = () => swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
    const right = () => swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
    await left(); // next
    await expect.poll(() => counter().textContent()).toBe(`${(2 % total) + 1} / ${total}`);
    await right(); // previous
    await expect.poll(() => counter().textContent()).toBe(`2 / ${total}`);
    await right();
    await expect.poll(() => counter().textContent()).toBe(`1 / ${total}`);
    await right(); // wraps around
    await expect.poll(() => counter().textContent()).toBe(`${total} / ${total}`);
    expect(await dialog.count()).toBe(0); // a swipe is not a tap
    await screenshot(page, { path: ".tmp/screenshots/gallery-phone.png" });
  });
});
