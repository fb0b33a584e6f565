import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull, notInArray } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { openDatabase } from "../../server/db/client";
import { listingOwners, locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { screenshot } from "./screenshot";

/**
 * A visitor's phone number reads as every phone number on the site, "(512) 555-0111", not as it
 * is stored ("+15125550111"), in the owner's leads and in the admins' queue of leads to unclaimed
 * listings (docs/product.md section 14), and its tel: link still dials it. Visitors send their
 * questions through the facility page's form; the site's clock (TEST_CLOCK_FILE) is moved past
 * the form's 3-second minimum instead of waiting. Its own site, since it moves that site's clock.
 */
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rv-clock-")), "offset");
let site: RunningSite | undefined;
let owned: { slug: string; name: string };
let unclaimed: { slug: string; name: string };
let offset = 0;

beforeAll(async () => {
  fs.writeFileSync(clockFile, "0");
  if (process.env.E2E_BASE_URL) return;
  process.env.SKIP_BUILD = "1";
  site = await startBuiltSite({
    env: { TEST_CLOCK_FILE: clockFile, DEMO_COUNT: "200" },
    prepare: async (dir) => {
      const fixtures = await prepareAccounts(dir);
      const handle = await openDatabase({ kind: "pglite", dataDir: dir });
      try {
        const columns = { slug: locations.slug, name: locations.name };
        owned = (
          await handle.db.select(columns).from(locations).where(eq(locations.placeId, fixtures.ownedLocationId))
        )[0]!;
        const ownedIds = (await handle.db.select({ id: listingOwners.locationId }).from(listingOwners)).map(
          (r) => r.id,
        );
        unclaimed = (
          await handle.db
            .select(columns)
            .from(locations)
            .where(and(notInArray(locations.placeId, ownedIds), isNotNull(locations.phoneNumber)))
            .limit(1)
        )[0]!;
      } finally {
        await handle.close();
      }
    },
  });
}, 180_000);
afterAll(async () => {
  await site?.stop();
});
const base = () => site!.baseUrl;

/** A visitor asks about a space on `slug`'s page, giving `phone`; the site's clock moves 5 s on before sending. */
async function ask(slug: string, name: string, phone: string): Promise<Page> {
  const page = await (await newHumanContext(browser())).newPage();
  await page.goto(`${base()}/location/${slug}`);
  await hydrated(page);
  await page.getByRole("link", { name: "Ask about a space", exact: true }).click();
  const form = page.locator("#ask");
  await form.getByLabel("RV type").selectOption("class_c");
  await form.getByLabel("Length (feet)").fill("31");
  await form.getByLabel("Your name").fill(name);
  await form.getByLabel("Email").fill(`${name.toLowerCase().replace(/\W+/g, ".")}@example.com`);
  await form.getByLabel("Phone (optional)").fill(phone);
  await form.getByLabel("Message").fill("Is a space free next month?");
  offset += 5_000;
  fs.writeFileSync(clockFile, String(offset));
  await form.getByRole("button", { name: "Send my question" }).click();
  return page;
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("lead phone numbers", () => {
  it("shows a visitor's phone as (512) 555-0111 in the owner's leads, with a working tel: link", async () => {
    const visitor = await ask(owned.slug, "Casey Phone", "512-555-0111");
    await visitor.getByText("Your question is on its way.").waitFor();
    await visitor.context().close();

    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
      viewport: { width: 1366, height: 900 },
    });
    await hydrated(owner);
    await owner.getByRole("link", { name: "Leads", exact: true }).first().click();
    await owner.waitForURL(`${base()}/owner/leads`);
    const lead = owner.getByRole("article").filter({ hasText: "Casey Phone" });
    const call = lead.getByRole("link", { name: "(512) 555-0111" });
    await call.waitFor();
    expect(await call.getAttribute("href")).toBe("tel:+15125550111");
    expect(await lead.textContent()).not.toContain("+1512");
    await call.scrollIntoViewIfNeeded();
    await screenshot(owner, { path: `${shots}/owner-leads-phone-1366.png` });
    await owner.setViewportSize({ width: 390, height: 844 });
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await call.scrollIntoViewIfNeeded();
    await screenshot(owner, { path: `${shots}/owner-leads-phone-390.png` });
    // Keyboard: the link is reachable and announced by its number.
    await call.focus();
    expect(await owner.evaluate(() => document.activeElement?.textContent?.trim())).toBe("(512) 555-0111");
    await owner.context().close();
  });

  it("shows it the same way in the admins' queue of leads to unclaimed listings", async () => {
    const visitor = await ask(unclaimed.slug, "Jordan Phone", "(512) 555 0112");
    await visitor.getByText(/has not claimed its listing yet/).waitFor();
    await visitor.context().close();

    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, {
      viewport: { width: 1366, height: 900 },
    });
    await admin.goto(`${base()}/admin`);
    await hydrated(admin);
    await admin.getByRole("link", { name: "Work queue", exact: true }).first().click();
    await admin.waitForURL(`${base()}/admin/manage`);
    await admin
      .getByRole("navigation", { name: "Work queue sections" })
      .getByRole("link", { name: /^Leads/ })
      .click();
    await admin.waitForURL(`${base()}/admin/manage?section=leads`);
    const item = admin.getByRole("listitem").filter({ hasText: "Jordan Phone" });
    const call = item.getByRole("link", { name: "(512) 555-0112" });
    await call.waitFor();
    expect(await call.getAttribute("href")).toBe("tel:+15125550112");
    const text = (await item.textContent()) ?? "";
    expect(text).not.toContain("+1512");
    expect(text).toMatch(/Listed phone \(\d{3}\) \d{3}-\d{4}/);
    await call.scrollIntoViewIfNeeded();
    await screenshot(admin, { path: `${shots}/admin-leads-phone-1366.png` });
    await admin.setViewportSize({ width: 390, height: 844 });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await call.scrollIntoViewIfNeeded();
    await screenshot(admin, { path: `${shots}/admin-leads-phone-390.png` });
    await admin.context().close();
  });
});
