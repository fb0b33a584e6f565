import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { browserForThisFile } from "./browser";
import { screenshot } from "./screenshot";

const baseUrl = inject("baseUrl");

/**
 * Every public route of docs/product.md section 2 (parameters filled in) that has no content of its own
 * yet. The console routes are guarded: tests/e2e/authorization.test.ts covers them.
 */
const PUBLIC_SCREENS = [
  "/rv-storage",
  "/blog",
  "/blog/prepare-rv-for-winter-storage-checklist",
  "/login",
  "/signup",
  "/business/login",
];
const browser = browserForThisFile();
let page: Page;

beforeAll(async () => {
  page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
});

describe("home page", () => {
  it("serves the home page with the demo catalogue", async () => {
    const response = await page.goto(baseUrl + "/");
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toMatch(/RV Storage/);
    const heading = page.getByRole("heading", { level: 1 });
    expect(await heading.textContent()).toBe("Find RV storage near you");
    // The hero counts the demo catalogue, and the header is transparent over it.
    expect(await page.locator("section p").first().textContent()).toMatch(/Compare [23],\d{3} RV/);
    expect(await page.locator("header").getAttribute("data-transparent")).toBe("true");
    const partners = page.getByRole("heading", { name: "Preferred partners" });
    expect(await partners.isVisible()).toBe(true);
    expect(await page.getByText("Demo listing").count()).toBeGreaterThan(0);
    await screenshot(page, { path: ".tmp/screenshots/home-desktop.png", fullPage: false });
  });

  it("has an opaque header and a footer credits link elsewhere", async () => {
    await page.goto(baseUrl + "/about");
    expect(await page.locator("header").getAttribute("data-transparent")).toBe("false");
    expect(await page.getByRole("heading", { name: "Credits and data licences" }).isVisible()).toBe(true);
    expect(await page.getByText("GeoNames").first().isVisible()).toBe(true);
    await page.getByRole("link", { name: "About & credits" }).click();
    expect(page.url()).toBe(baseUrl + "/about");
  });

  it("searches from the home page and opens a demo facility that says it is a demo", async () => {
    await page.goto(baseUrl + "/");
    // Typed text without picking a suggestion is resolved by the server (?where=).
    await page.getByRole("combobox").fill("Austin, TX");
    await page.getByRole("combobox").press("Escape");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/rv-storage\/austin-tx$/);
    // Client navigation commits the URL before React renders the new page: wait for the heading.
    await page.getByRole("heading", { level: 1, name: /^Storage Locations in Austin, Texas \(\d+\)$/ }).waitFor();
    await page.locator("section[aria-label=Results] article h2 a").first().click();
    await page.waitForURL(/\/location\//);
    // The URL changes before the new page renders: wait for the detail page itself.
    await page.getByRole("link", { name: "Claim This Business" }).waitFor();
    expect(await page.getByText("Demo listing").first().isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: /555-01\d\d/ }).count()).toBe(1);
  });

  it("answers 200 for every public screen of docs/product.md section 2 and 404 for unknown paths", async () => {
    for (const path of PUBLIC_SCREENS) {
      const response = await page.goto(baseUrl + path);
      expect(response?.status(), path).toBe(200);
    }
    const missing = await page.goto(baseUrl + "/no-such-page");
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);
  });
});
