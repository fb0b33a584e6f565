import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { PASSWORD } from "./accounts";
import { browserForThisFile, hydrated as pageHydrated, newHumanContext, signInAfterSignUp } from "./browser";
import { screenshot } from "./screenshot";

/**
 * Save and compare (docs/product.md section 15): an anonymous visitor saves three facilities from
 * the results, compares them from /saved, the compare link shows the same table to anyone, and
 * signing up keeps the saves.
 */
const baseUrl = inject("baseUrl");
const shots = process.env.SHOTS_DIR ?? ".tmp/screenshots";
const browser = browserForThisFile();
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Waits until the element is on the page and React has hydrated it (a click before that would send
 * the plain form): the root marks <html data-hydrated> after the hydrating commit.
 */
async function hydrated(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor({ state: "attached" });
  await pageHydrated(page);
}
const CARD_SAVE = "section[aria-label=Results] article form button";

const cardNames = (page: Page) => page.locator("section[aria-label=Results] article h2").allTextContents();

/** The amenity chips a result card shows. */
async function cardAmenities(page: Page, name: string): Promise<string[]> {
  const card = page
    .locator("section[aria-label=Results] article")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
  const items = await card.getByRole("list", { name: "Amenities" }).getByRole("listitem").allTextContents();
  // The card's last item may be '+N more amenities', not an amenity.
  return items.filter((text) => !text.startsWith("+"));
}

/**
 * The comparison by facility: one column each (its name is the column header), the column's text,
 * and each fact row's cell for it by the row's name ("Price", "Anytime Access"…).
 */
async function compareColumns(page: Page): Promise<{ name: string; text: string; facts: Record<string, string> }[]> {
  await page.getByRole("table").waitFor();
  return page.locator("table").evaluate((table) => {
    const names = [...table.querySelectorAll("thead th[scope=col]")]
      .slice(1)
      .map((th) => th.querySelector("a")?.textContent?.trim() ?? "");
    const rows = [...table.querySelectorAll("tbody tr")].filter((tr) => tr.querySelector("th[scope=row]"));
    return names.map((name, i) => {
      const facts: Record<string, string> = {};
      for (const row of rows) {
        const label = (row.querySelector("th[scope=row]") as HTMLElement).innerText.trim();
        facts[label] = (row.querySelectorAll("td")[i] as HTMLElement | undefined)?.innerText.trim() ?? "";
      }
      return { name, text: Object.values(facts).join("\n"), facts };
    });
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a script tag, which the site's Content-Security-Policy refuses.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

describe("save and compare", () => {
  it("an anonymous visitor saves three facilities, compares them, shares the link and keeps them on sign-up", async () => {
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await hydrated(page, CARD_SAVE);
    // Names that appear once on the page: the demo catalogue has namesakes (two 'A-1 RV Storage' in Austin).
    const all = await cardNames(page);
    const names = all.filter((n) => all.indexOf(n) === all.lastIndexOf(n)).slice(0, 3);
    expect(names).toHaveLength(3);
    const amenities = new Map<string, string[]>();
    for (const name of names) {
      amenities.set(name, await cardAmenities(page, name));
      const save = page.getByRole("button", { name: `Save ${name}`, exact: true });
      expect(await save.getAttribute("aria-pressed")).toBe("false");
      const stored = page.waitForResponse((r) => r.url().endsWith("/api/saved") && r.request().method() === "POST");
      await save.click();
      expect((await stored).status()).toBe(200);
      expect(await save.getAttribute("aria-pressed")).toBe("true");
    }
    await page.getByRole("link", { name: "Saved (3)" }).waitFor();
    await screenshot(page, { path: ".tmp/screenshots/saved-results-desktop.png" });

    // The saves are stored on the server: a reload shows them pressed and counted.
    await page.reload();
    await hydrated(page, CARD_SAVE);
    await page.getByRole("link", { name: "Saved (3)" }).waitFor();
    expect(await page.getByRole("button", { name: `Save ${names[0]}`, exact: true }).getAttribute("aria-pressed")).toBe(
      "true",
    );

    await page.getByRole("link", { name: "Saved (3)" }).click();
    await page.waitForURL(`${baseUrl}/saved`);
    await page.getByRole("heading", { level: 1, name: "Saved facilities" }).waitFor();
    await hydrated(page, "input[type=checkbox]");
    for (const name of names) await page.getByLabel(`Compare ${name}`).check();
    await page.getByText("Pick 2 to 4 to compare: 3 picked.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, { path: `${shots}/saved-desktop.png`, fullPage: true });
    await page.getByRole("button", { name: "Compare (3)" }).click();
    await page.waitForURL((url) => new URL(url).pathname === "/compare");
    const compareUrl = page.url();
    expect(new URL(compareUrl).searchParams.get("ids")?.split(",")).toHaveLength(3);

    const check = async (columns: Awaited<ReturnType<typeof compareColumns>>) => {
      expect(columns.map((c) => c.name).sort()).toEqual([...names].sort());
      for (const column of columns) {
        expect(column.facts.Sizes).toMatch(/\d+' x \d+'|Not listed/);
        // Each amenity is a row of its own: the facility's cell in it says Yes.
        for (const amenity of amenities.get(column.name) ?? []) expect(column.facts[amenity]).toBe("Yes");
      }
      expect(columns.some((c) => /\d+' x \d+'/.test(c.facts.Sizes ?? ""))).toBe(true);
    };
    await check(await compareColumns(page));
    // Every fact row has one cell per facility, so the facts line up across them.
    const cellsPerRow = await page
      .locator("tbody tr:has(th[scope=row])")
      .evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td").length));
    expect(cellsPerRow.length).toBeGreaterThan(5);
    expect(cellsPerRow.every((n) => n === 3)).toBe(true);
    // Photos, and Call and Directions for each facility, as on its own page.
    for (const name of names) {
      const photo = page.getByRole("img", { name: `${name}: first photo` });
      await photo.waitFor();
      expect(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await page.getByRole("link", { name: `Directions to ${name}` }).getAttribute("href")).toMatch(
        /^https:\/\/www\.google\.com\/maps\/dir\//,
      );
    }
    const calls = page.getByRole("link", { name: /^Call / });
    expect(await calls.count()).toBeGreaterThan(0);
    expect(await calls.first().getAttribute("href")).toMatch(/^tel:\+1\d{10}$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, { path: `${shots}/compare-desktop.png`, fullPage: true });

    // The link alone, in a browser that never saw the site: the same table.
    const fresh = await newHumanContext(browser(), { viewport: { width: 390, height: 844 }, isMobile: true });
    const other = await fresh.newPage();
    await other.goto(`${compareUrl}&rvLength=40&lat=30.2672&lng=-97.7431`);
    await check(await compareColumns(other));
    // Distances from the searched place, and the fit for a 40 ft RV, for every facility.
    for (const column of await compareColumns(other)) {
      expect(column.facts.Distance).toMatch(/^\d+\.\d mi$/);
      expect(column.facts.Sizes).toMatch(/fit your RV|None fits your RV|Not listed/);
    }
    // Phones: the table scrolls sideways and the names of the facts stay put.
    const region = other.getByRole("region", { name: "Comparison table" });
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // The table scrolls inside its frame; the page itself stays as wide as the phone.
    const wide = await other.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((el) => !el.closest("[role=region]") && el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => `${el.tagName}.${el.className}`.slice(0, 120)),
    );
    expect(wide).toEqual([]);
    expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The photos are there on a phone too.
    expect(await other.locator("thead img").count()).toBe(3);
    await screenshot(other, { path: `${shots}/compare-phone-start.png` });
    const nameCell = other.locator("tbody tr th").first();
    const before = await nameCell.boundingBox();
    await region.evaluate((el) => el.scrollBy(300, 0));
    await expect.poll(async () => (await nameCell.boundingBox())?.x).toBe(before?.x);
    await screenshot(other, { path: `${shots}/compare-phone.png`, fullPage: true });
    await fresh.close();

    // Signing up keeps the saves.
    await page.goto(`${baseUrl}/signup`);
    await page.getByLabel("Name").fill("Sam Saver");
    const saver = `saver-${Date.now()}@e2e.test`;
    await page.getByLabel("Email").fill(saver);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    // Sign-up answers "check your email"; the saves move to the account at its first sign-in.
    await signInAfterSignUp(page, saver);
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.getByRole("link", { name: "Saved (3)" }).click();
    await page.waitForURL(`${baseUrl}/saved`);
    for (const name of names) await page.getByLabel(`Compare ${name}`).waitFor();
    await context.close();
  });

  it("explains a compare link it cannot show", async () => {
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    const one = await page.goto(`${baseUrl}/compare?ids=only_one_id_here`);
    expect(one?.status()).toBe(400);
    await page.getByText("Pick 2 to 4 facilities to compare (only one given).").waitFor();
    const unknown = await page.goto(`${baseUrl}/compare?ids=no_such_place_aaa,no_such_place_bbb`);
    expect(unknown?.status()).toBe(404);
    await page.getByText("Not found, or no longer listed: no_such_place_aaa, no_such_place_bbb.").waitFor();
    await context.close();
  });

  it("undoes a save the server refuses and says why", async () => {
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    await page.route("**/api/saved", (route) =>
      route.fulfill({ status: 409, json: { error: "You have saved 100 facilities, the most we keep." } }),
    );
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await hydrated(page, CARD_SAVE);
    const [name] = await cardNames(page);
    const save = page.getByRole("button", { name: `Save ${name}`, exact: true });
    await save.click();
    await page.getByRole("alert").filter({ hasText: "You have saved 100 facilities" }).waitFor();
    expect(await save.getAttribute("aria-pressed")).toBe("false");
    await page.getByRole("link", { name: "Saved (0)" }).waitFor();
    await context.close();
  });

  it("shows the phone pages", async () => {
    const context = await newHumanContext(browser(), { viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/rv-storage/austin-tx`);
    await hydrated(page, CARD_SAVE);
    const [name] = await cardNames(page);
    const stored = page.waitForResponse((r) => r.url().endsWith("/api/saved") && r.request().method() === "POST");
    await page.getByRole("button", { name: `Save ${name}`, exact: true }).click();
    expect((await stored).status()).toBe(200);
    await page.getByRole("link", { name: "Saved (1)" }).waitFor();
    await screenshot(page, { path: ".tmp/screenshots/saved-results-phone.png" });
    await page.getByRole("link", { name: "Saved (1)" }).click();
    await page.getByLabel(`Compare ${name}`).waitFor();
    // The header keeps 'Saved' without pushing the page wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The photo is there on a phone too: it is how people tell their saves apart.
    const photo = page.locator("main li img").first();
    await photo.waitFor();
    expect((await photo.boundingBox())!.width).toBeGreaterThanOrEqual(80);
    await screenshot(page, { path: `${shots}/saved-phone.png`, fullPage: true });
    // The facility page's own button says it is saved.
    await page.getByRole("link", { name, exact: true }).click();
    await page.waitForURL((url) => new URL(url).pathname.startsWith("/location/"));
    await page.getByRole("heading", { level: 1, name }).waitFor();
    const onPage = page.getByRole("button", { name: `Save ${name}`, exact: true }).first();
    await expect.poll(() => onPage.getAttribute("aria-pressed")).toBe("true");
    await screenshot(page, { path: ".tmp/screenshots/location-saved-phone.png" });
    await context.close();
  });
});
