import { and, asc, eq, isNull, lt } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { grantListing } from "../../server/auth/ownership";
import { checkListingProblems } from "../../server/catalogue/problems";
import { openDatabase } from "../../server/db/client";
import { locations, users } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts, type Fixtures } from "./accounts";
import { axeViolations } from "./axe-check";
import { browserForThisFile, hydrated, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Issue 32, items 6 and 7, on a fresh install of 3,000 demo listings after the nightly data check:
 * the data-problems section shows a few stale listings (not all of them), grouped and filtered by
 * kind and paged; an owner's edit clears their listing's "Not updated for a year" at once; and a
 * photo change in a listing's admin history says what the facility page shows. Its own site: it
 * runs the data check on the fresh database before the site starts.
 */
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
let fixtures: Fixtures | undefined;
let stale: { placeId: string; name: string } | undefined;
let ownedName = "";

const { base } = mailingSiteForThisFile(async (dataDir) => {
  fixtures = await prepareAccounts(dataDir);
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    // One of the few demo listings last updated more than a year ago becomes listing_owner's.
    [stale] = await handle.db
      .select({ placeId: locations.placeId, name: locations.name })
      .from(locations)
      .where(and(isNull(locations.deletedAt), lt(locations.updatedAt, new Date(Date.now() - 400 * 86_400_000))))
      .orderBy(asc(locations.placeId))
      .limit(1);
    if (!stale) throw new Error("The demo catalogue has no stale listing");
    const [owner] = await handle.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, ACCOUNTS.listing_owner.email));
    await grantListing(handle.db, owner!.id, stale.placeId);
    const [owned] = await handle.db
      .select({ name: locations.name })
      .from(locations)
      .where(eq(locations.placeId, fixtures.ownedLocationId));
    ownedName = owned!.name;
    await checkListingProblems(handle.db);
  } finally {
    await handle.close();
  }
});

async function both(page: Page, name: string) {
  for (const [width, height] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, { path: `${shots}/${name}-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
}

/** A link of the console's own menu ("Admin console" or "Owner console"), as a person clicks it. */
const menu = (page: Page, name: string) =>
  page.getByRole("navigation", { name: /console$/ }).getByRole("link", { name, exact: true });

const kindFilter = (page: Page, label: RegExp) =>
  page.getByRole("navigation", { name: "Kinds of problem" }).getByRole("link", { name: label });

const countIn = async (page: Page, label: RegExp) =>
  Number(/\(([\d,]+)\)/.exec((await kindFilter(page, label).textContent()) ?? "")![1]!.replace(/,/g, ""));

/** From the overview's card to the data problems, then "Not updated for a year"; its open count. */
async function staleProblems(admin: Page): Promise<number> {
  await menu(admin, "Overview").click();
  await admin.waitForURL((url) => url.pathname === "/admin");
  const card = admin.getByRole("link", { name: /listings? (has|have) data problems/ });
  const listings = Number(/([\d,]+)/.exec((await card.textContent()) ?? "")![1]!.replace(/,/g, ""));
  // A fresh install: a few listings, not the 3,000 of the demo catalogue.
  expect(listings).toBeGreaterThan(0);
  expect(listings).toBeLessThan(300);
  await card.click();
  await admin.getByRole("heading", { level: 2, name: "Data problems" }).waitFor();
  await kindFilter(admin, /^Not updated for a year/).click();
  await admin.waitForURL((url) => url.searchParams.get("kind") === "stale");
  await admin.getByRole("heading", { level: 3, name: /^Not updated for a year/ }).waitFor();
  return countIn(admin, /^Not updated for a year/);
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("the data problems on a fresh install", () => {
  it("shows a few stale listings grouped by kind, and an owner's edit clears theirs (item 6)", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { bypassCSP: true });
    await admin.goto(`${base()}/admin`);
    await hydrated(admin);
    await menu(admin, "Work queue").click();
    await admin.waitForURL((url) => url.pathname === "/admin/manage");
    await admin.getByRole("navigation", { name: "Work queue sections" }).getByRole("link", { name: /^Data/ }).click();
    await admin.getByRole("heading", { level: 2, name: "Data problems" }).waitFor();
    // Grouped: each kind on the page under its heading with its open count; the whole in pages of 25.
    const all = await countIn(admin, /^All/);
    expect(all).toBeLessThan(300);
    const groups = admin.getByRole("heading", { level: 3 });
    expect(await groups.count()).toBeGreaterThan(0);
    expect(await groups.first().textContent()).toMatch(/\([\d,]+ open\)$/);
    expect(
      await admin
        .locator("main li")
        .filter({ has: admin.getByRole("button") })
        .count(),
    ).toBeLessThanOrEqual(25);
    // Each row's buttons name their listing for screen readers: 25 rows carry the same buttons.
    expect(await admin.getByRole("button", { name: /^Not a problem ?: \S/ }).count()).toBeGreaterThan(0);
    expect(await axeViolations(admin)).toEqual([]);
    await both(admin, "data-problems-all");
    await admin.setViewportSize({ width: 1366, height: 900 });

    const before = await staleProblems(admin);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(200);
    await both(admin, "data-problems-stale");
    await admin.setViewportSize({ width: 1366, height: 900 });

    // The owner updates the listing from the console's menu.
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, { loginPath: "/business/login" });
    await owner.goto(`${base()}/owner`);
    await hydrated(owner);
    await menu(owner, "Listings").click();
    await owner.waitForURL((url) => url.pathname === "/owner/locations");
    await owner.getByRole("link", { name: `Update ${stale!.name}` }).click();
    await owner.waitForURL((url) => url.pathname.endsWith("/update"));
    const description = owner.getByLabel("Description", { exact: true });
    await description.fill(`${await description.inputValue()} Open again after a refit.`);
    await owner.getByRole("button", { name: "Save changes" }).click();
    await owner.getByRole("status").filter({ hasText: "Saved." }).first().waitFor();

    // At once, not at the next night's check: one stale listing fewer, and not this one.
    expect(await staleProblems(admin)).toBe(before - 1);
    await menu(admin, "Locations").click();
    await admin.waitForURL((url) => url.pathname === "/admin/locations");
    await admin.getByRole("searchbox", { name: "Search" }).fill(stale!.placeId);
    await admin.getByRole("button", { name: "Filter" }).click();
    await admin.getByRole("link", { name: stale!.name, exact: true }).click();
    await admin.getByRole("heading", { level: 1, name: stale!.name }).waitFor();
    expect(await admin.locator("main").textContent()).not.toContain("Not updated for a year");
  });

  it("says what a photo change in the history means for the facility page (item 7)", async () => {
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, { loginPath: "/business/login" });
    await owner.goto(`${base()}/owner`);
    await hydrated(owner);
    await menu(owner, "Listings").click();
    await owner.waitForURL((url) => url.pathname === "/owner/locations");
    await owner.getByRole("link", { name: `Photos of ${ownedName}` }).click();
    await owner.waitForURL((url) => url.pathname.endsWith("/photos"));
    const photos = owner.getByRole("list", { name: `Photos of ${ownedName}` }).getByRole("listitem");
    await photos.first().waitFor();
    await hydrated(owner);
    const second = await photos.nth(1).getAttribute("data-photo-url");
    await photos.nth(1).getByRole("button", { name: "Make main photo" }).click();
    await owner.getByText("Photo order saved.").first().waitFor();
    await expect.poll(() => photos.first().getAttribute("data-photo-url")).toBe(second);

    // The facility page shows the new main photo first.
    const number = (url: string | null) => /n(\d+)\.\w+$/.exec(url ?? "")?.[1];
    await owner.getByRole("link", { name: "View the public page" }).first().click();
    await owner.waitForURL((url) => url.pathname.startsWith("/location/"));
    const firstPhoto = await owner.locator("main img").first().getAttribute("src");
    expect(number(firstPhoto)).toBe(number(second));

    // The admin reads the listing's history from the catalogue.
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { bypassCSP: true });
    await admin.goto(`${base()}/admin`);
    await hydrated(admin);
    await menu(admin, "Locations").click();
    await admin.waitForURL((url) => url.pathname === "/admin/locations");
    await admin.getByRole("searchbox", { name: "Search" }).fill(fixtures!.ownedLocationId);
    await admin.getByRole("button", { name: "Filter" }).click();
    await admin.getByRole("link", { name: ownedName, exact: true }).click();
    await admin.getByRole("heading", { level: 2, name: "History" }).waitFor();
    const change = admin.locator("#history-h ~ ol > li").first();
    expect(await change.textContent()).toContain("Photos");
    expect(await change.textContent()).toContain("The listing shows these photos now.");
    expect(await change.textContent()).not.toContain("values from before this change");
    expect(await change.getByRole("link", { name: "Restore" }).count()).toBe(0);
    expect(await axeViolations(admin)).toEqual([]);
    await both(admin, "photo-revision-history");
  });
});
