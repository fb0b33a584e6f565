import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { claims, locations } from "../../server/db/schema";
import { submitLead } from "../../server/leads/service";
import { ACCOUNTS, prepareAccounts, type Fixtures } from "./accounts";
import { axeViolations } from "./axe-check";
import { browserForThisFile, hydrated, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * An admin decides the fixture claim (docs/product.md sections 10 and 14), as a person does from
 * the console's menu: a rejection without a reason is refused beside the field, an approval needs
 * none; and the question a visitor asked while the listing had no owner leaves the admins' queue
 * ("Leads to unclaimed listings") and appears under the new owner's Leads, once. Its own site: the
 * shared site's fixture claim must stay pending for the other files.
 */
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
let fixtures: Fixtures | undefined;
let listing: { placeId: string; name: string } | undefined;
const VISITOR = "Quinn Early";

const { base, mailTo } = mailingSiteForThisFile(async (dataDir) => {
  fixtures = await prepareAccounts(dataDir);
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    const [claim] = await handle.db
      .select({ placeId: locations.placeId, name: locations.name })
      .from(claims)
      .innerJoin(locations, eq(locations.placeId, claims.locationId))
      .where(eq(claims.id, fixtures.claimId));
    listing = claim!;
    // A question to the listing while nobody owns it: it waits in the admins' queue.
    await submitLead(handle.db, {
      locationId: listing.placeId,
      input: {
        rvType: "toy_hauler",
        rvLengthFeet: 30,
        cover: "enclosed",
        moveIn: null,
        name: VISITOR,
        email: "quinn.early@example.com",
        phone: null,
        message: "Asked before anyone claimed this listing: any enclosed space?",
      },
      visitorUserId: null,
    });
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

async function leadsTab(admin: Page) {
  await menu(admin, "Work queue").click();
  await admin.waitForURL((url) => url.pathname === "/admin/manage");
  await admin
    .getByRole("navigation", { name: "Work queue sections" })
    .getByRole("link", { name: /^Leads/ })
    .click();
  await admin.getByRole("heading", { name: "Leads to unclaimed listings" }).waitFor();
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("deciding a claim", () => {
  it("requires a reason to reject, not to approve, and says so (issue 32, item 9)", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { bypassCSP: true });
    await admin.goto(`${base()}/admin`);
    await hydrated(admin);

    // Before: the question waits for the admins.
    await leadsTab(admin);
    expect(await admin.getByRole("listitem").filter({ hasText: VISITOR }).count()).toBe(1);

    await menu(admin, "Claims").click();
    await admin.waitForURL((url) => url.pathname === "/admin/claims");
    await admin
      .getByRole("link", { name: new RegExp(listing!.name) })
      .first()
      .click();
    await admin.getByRole("heading", { name: "Decision" }).waitFor();
    const reason = admin.getByLabel("Reason");
    expect(await reason.getAttribute("required")).toBeNull();
    const hint = await admin
      .locator(`#${await reason.getAttribute("aria-describedby").then((ids) => ids!.split(" ")[0])}`)
      .textContent();
    expect(hint).toContain("Required to reject");
    expect(hint).toContain("Optional to approve");

    // Reject with no reason: refused beside the field, nothing decided.
    await admin.getByRole("button", { name: "Reject" }).click();
    const error = admin.getByText("Give the claimant a reason for the rejection (at least 3 characters).");
    await error.waitFor();
    expect(await reason.getAttribute("aria-invalid")).toBe("true");
    expect(await axeViolations(admin)).toEqual([]);
    await both(admin, "claim-reject-no-reason");
    await admin.setViewportSize({ width: 1366, height: 900 });

    // Approve with the field empty: approved.
    await reason.fill("");
    await admin.getByRole("button", { name: /^Approve/ }).click();
    await admin.waitForURL((url) => url.pathname === "/admin/claims");
    await admin
      .getByRole("status")
      .filter({ hasText: "Claim approved: the claimant now manages the listing." })
      .first()
      .waitFor();
    await expect.poll(() => Boolean(mailTo(ACCOUNTS.user.email, /was approved/)), { timeout: 15_000 }).toBe(true);
    expect(mailTo(ACCOUNTS.user.email, /was approved/)!.mail.text).toContain(
      "1 question from visitors, asked before your claim, is now yours to answer",
    );
  });

  it("moves the question asked before the claim to the new owner; it leaves the admins' queue (item 12)", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { bypassCSP: true });
    await admin.goto(`${base()}/admin`);
    await hydrated(admin);
    await leadsTab(admin);
    expect(await admin.getByRole("listitem").filter({ hasText: VISITOR }).count()).toBe(0);
    await both(admin, "admin-leads-after-claim");

    // The claimant (now an owner) finds it under Leads, from the console's menu.
    const owner = await signedInPage(browser(), base(), ACCOUNTS.user.email, { loginPath: "/business/login" });
    await owner.goto(`${base()}/owner`);
    await hydrated(owner);
    await menu(owner, "Leads").click();
    await owner.waitForURL((url) => url.pathname === "/owner/leads");
    const lead = owner.getByRole("article").filter({ hasText: VISITOR });
    await lead.waitFor();
    expect(await lead.count()).toBe(1);
    expect(await lead.textContent()).toContain("Asked before anyone claimed this listing");
    await both(owner, "owner-leads-after-claim");
    await owner.setViewportSize({ width: 1366, height: 900 });

    // Across a transfer: the admin moves the listing to another owner from its page; the question
    // stays with the owner it now belongs to, and neither the new owner nor the admins' queue gets it.
    await admin.setViewportSize({ width: 1366, height: 900 });
    await menu(admin, "Locations").click();
    await admin.waitForURL((url) => url.pathname === "/admin/locations");
    await admin.getByRole("searchbox", { name: "Search" }).fill(listing!.placeId);
    await admin.getByRole("button", { name: "Filter" }).click();
    await admin.getByRole("link", { name: listing!.name, exact: true }).click();
    await admin.getByLabel("Transfer to (email)").fill(ACCOUNTS.business_owner.email);
    await admin.getByRole("button", { name: "Transfer", exact: true }).click();
    await admin
      .getByRole("status")
      .filter({ hasText: `Transferred the listing to ${ACCOUNTS.business_owner.email}.` })
      .first()
      .waitFor();
    await leadsTab(admin);
    expect(await admin.getByRole("listitem").filter({ hasText: VISITOR }).count()).toBe(0);
    const buyer = await signedInPage(browser(), base(), ACCOUNTS.business_owner.email, {
      loginPath: "/business/login",
    });
    await buyer.goto(`${base()}/owner`);
    await hydrated(buyer);
    await menu(buyer, "Leads").click();
    await buyer.waitForURL((url) => url.pathname === "/owner/leads");
    await buyer.getByRole("heading", { level: 1, name: "Leads" }).waitFor();
    expect(await buyer.getByRole("article").filter({ hasText: VISITOR }).count()).toBe(0);
    await owner.reload();
    await owner.getByRole("article").filter({ hasText: VISITOR }).waitFor();
  });
});
