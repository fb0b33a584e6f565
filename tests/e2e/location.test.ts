import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { browserForThisFile } from "./browser";
import { screenshot } from "./screenshot";

const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
let page: Page;

beforeAll(async () => {
  page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
});

const counter = () => page.locator("section[aria-label=Photos] p[aria-live]").textContent();

describe("facility page", () => {
  it("opens from the results page, pages the gallery by mouse and keyboard, and goes back", async () => {
    await page.goto(`${baseUrl}/rv-storage/austin-tx?sort=rating`);
    const card = page.locator("section[aria-label=Results] article h2 a").first();
    const name = (await card.textContent())!;
    await card.click();
    await page.getByRole("heading", { level: 1, name }).waitFor();
    expect(page.url()).toMatch(/\/location\/[a-z0-9_-]+$/);

    const total = Number(/\/ (\d+)$/.exec((await counter())!)?.[1]);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(await counter()).toBe(`1 / ${total}`);
    await page.getByRole("button", { name: "Next photo" }).first().click();
    expect(await counter()).toBe(`2 / ${total}`);
    await page.getByRole("button", { name: "Previous photo" }).first().click();
    await page.getByRole("button", { name: "Previous photo" }).first().click();
    expect(await counter()).toBe(`${total} / ${total}`); // wrapped around
    await page.getByRole("button", { name: "Show photo 1" }).focus();
    await page.keyboard.press("ArrowRight"); // keys work wherever focus is inside the gallery
    expect(await counter()).toBe(`1 / ${total}`);
    await page.keyboard.press("ArrowLeft");
    expect(await counter()).toBe(`${total} / ${total}`);
    await page.getByRole("button", { name: "Show photo 2" }).click();
    expect(await counter()).toBe(`2 / ${total}`);
    await page.getByRole("button", { name: "View full screen" }).click();
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Escape");
    expect(await counter()).toBe(`1 / ${total}`);

    // The dialog hides the rest of the page from assistive technology until it has closed.
    await page.getByRole("heading", { name: "Business hours" }).waitFor();
    expect(await page.getByText("Today", { exact: true }).count()).toBeLessThanOrEqual(1);
    expect(await page.getByRole("heading", { name: "Nearby storage" }).isVisible()).toBe(true);
    const phone = page.locator('aside a[href^="tel:+1"]');
    expect(await phone.textContent()).not.toContain("+1");
    await screenshot(page, { path: ".tmp/screenshots/location-desktop.png", fullPage: true });

    await page.getByRole("link", { name: "Back" }).click();
    await page.waitForURL(`${baseUrl}/rv-storage/austin-tx?sort=rating`);
  });

  it("offers 'Claim This Business' to anyone", async () => {
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await page.locator("section[aria-label=Results] article h2 a").first().click();
    const claim = page.getByRole("link", { name: "Claim This Business" });
    await claim.waitFor();
    const href = await claim.getAttribute("href");
    expect(href).toMatch(/^\/owner\/claim\/demo_[a-z0-9]+$/);
    // Claiming needs an account: a visitor is taken to the business sign-in, and back afterwards.
    await claim.click();
    await page.waitForURL(`${baseUrl}/business/login?redirectTo=${encodeURIComponent(href!)}`);
  });

  it("answers unknown and malformed slugs with the right message, status and a way home", async () => {
    const missing = await page.goto(`${baseUrl}/location/nothing-here-tx-demo_zzzzzzzzzzzzzz`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByText("Location not found").isVisible()).toBe(true);
    const malformed = await page.goto(`${baseUrl}/location/%%%`);
    expect(malformed?.status()).toBe(400);
    const bad = await page.goto(`${baseUrl}/location/short`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByText("Invalid location URL").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Go to Home" }).click();
    await page.waitForURL(`${baseUrl}/`);
  });

  it("shows Call and Directions in a bar on phones", async () => {
    const phone = await browser().newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.goto(`${baseUrl}/rv-storage/austin-tx`);
    await phone.locator("section[aria-label=Results] article h2 a").first().click();
    await phone.getByRole("link", { name: "Call" }).waitFor();
    expect(await phone.getByRole("link", { name: "Directions" }).last().isVisible()).toBe(true);
    await screenshot(phone, { path: ".tmp/screenshots/location-phone.png" });
    await phone.close();
  });

  it("shows a location map at zoom 15 with the facility's pin, without any tile server", async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    const zooms = new Set<string>();
    // No internet here: every tile fails, and the map must still show its pin on a plain sheet.
    await context.route(/\/\d+\/\d+\/\d+\.png$/, (route) => {
      zooms.add(/\/(\d+)\/\d+\/\d+\.png$/.exec(route.request().url())?.[1] ?? "?");
      return route.abort();
    });
    const leaflet: string[] = [];
    tab.on("request", (r) => {
      if (/leaflet-map-[^/]*\.js$/.test(r.url())) leaflet.push(r.url());
    });
    await tab.goto(`${baseUrl}/rv-storage/austin-tx`);
    const card = tab.locator("section[aria-label=Results] article h2 a").first();
    const name = (await card.textContent())!;
    await card.click();
    await tab.getByRole("heading", { level: 1, name }).waitFor();
    zooms.clear(); // the results page's map asked for tiles too
    const map = tab.getByRole("region", { name: `Map of the location of ${name}` });
    await map.waitFor({ state: "attached" });
    const box = await map.boundingBox();
    expect(box?.height).toBeGreaterThan(200); // its room is kept before Leaflet arrives

    await map.scrollIntoViewIfNeeded();
    await tab.locator('[data-map-state="ready"]').waitFor();
    expect(leaflet.length).toBeGreaterThan(0);
    expect(await map.locator(".leaflet-marker-icon").count()).toBe(1);
    // A picture, not a control: the pin is no tab stop and opens no popup.
    expect(await map.locator('.leaflet-marker-icon[tabindex="0"]').count()).toBe(0);
    const after = await map.boundingBox();
    expect([after?.width, after?.height]).toEqual([box?.width, box?.height]);
    // Every tile the map asked for has been answered (loaded or failed): no other zoom is coming.
    await expect
      .poll(() =>
        map
          .locator("img.leaflet-tile")
          .evaluateAll((tiles) => tiles.length > 0 && tiles.every((tile) => (tile as HTMLImageElement).complete)),
      )
      .toBe(true);
    expect([...zooms]).toEqual(["15"]);
    await screenshot(tab, { path: ".tmp/screenshots/location-map-desktop.png" });
    await context.close();
  });

  it("offers Google Maps when the map cannot load", async () => {
    const context = await browser().newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const tab = await context.newPage();
    await context.route(/leaflet-map-[^/]*\.js$/, (route) => route.abort());
    await tab.goto(`${baseUrl}/rv-storage/austin-tx`);
    const card = tab.locator("section[aria-label=Results] article h2 a").first();
    const name = (await card.textContent())!;
    await card.click();
    await tab.getByRole("heading", { level: 1, name }).waitFor();
    const map = tab.getByRole("region", { name: `Map of the location of ${name}` });
    await map.scrollIntoViewIfNeeded();
    await map.getByRole("heading", { name: "Map Unavailable" }).waitFor();
    const link = map.getByRole("link", { name: "Open in Google Maps" });
    expect(await link.getAttribute("href")).toMatch(
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=-?\d+(\.\d+)?,-?\d+(\.\d+)?$/,
    );
    await screenshot(tab, { path: ".tmp/screenshots/location-map-error-phone.png" });
    await context.close();
  });
});
