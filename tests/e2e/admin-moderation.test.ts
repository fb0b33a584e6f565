import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PENDING_CHANGE_GONE_TEXT } from "../../domain/listings";
import { ACCOUNTS, prepareAccounts, type Fixtures } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Listing moderation end to end (docs/product.md section 10): an owner renames their listing, the
 * name waits; an administrator approves it in the work queue and the facility page and search
 * show it; a second rename is rejected with a reason the owner reads (and is emailed); an admin
 * restores the old name from the history; a change decided twice answers a conflict. Its own site,
 * so the shared site's owner-listing test (which also renames this listing) is not disturbed.
 */
const browser = browserForThisFile();
const shots = path.resolve(".tmp/screenshots");
let fixtures: Fixtures | undefined;
const { base, mailTo } = mailingSiteForThisFile(async (dataDir) => {
  fixtures = await prepareAccounts(dataDir);
});

const signedIn = (email: string, loginPath = "/login"): Promise<Page> =>
  signedInPage(browser(), base(), email, { loginPath });

const editPath = () => `/owner/locations/${encodeURIComponent(fixtures!.ownedLocationId)}/update`;
const managePath = () => `/admin/manage/${encodeURIComponent(fixtures!.ownedLocationId)}`;

async function rename(owner: Page, name: string) {
  await owner.goto(`${base()}${editPath()}`);
  await owner.getByLabel("Name", { exact: true }).fill(name);
  await owner.getByRole("button", { name: "Save changes" }).click();
  await owner
    .getByText("Saved. Changes to the name, address or map position wait for an administrator.")
    .first()
    .waitFor();
}

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text }).first();

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("moderating owners' listing changes", () => {
  it("approves, rejects with a reason, restores, and tells a second admin the change is gone", async () => {
    const owner = await signedIn(ACCOUNTS.listing_owner.email, "/business/login");
    await owner.goto(`${base()}${editPath()}`);
    const oldName = (await owner.getByLabel("Name", { exact: true }).inputValue()).trim();
    const slug = (await owner.getByRole("link", { name: "View the public page" }).getAttribute("href"))!;
    const lat = await owner.getByLabel("Latitude").inputValue();
    const lng = await owner.getByLabel("Longitude").inputValue();
    const approvedName = `${oldName} Moderated`;
    await rename(owner, approvedName);
    const notice = owner.getByRole("status").filter({ hasText: "Pending review" });
    expect(await notice.textContent()).toContain(approvedName);

    // Until an admin approves, the facility page keeps the published name.
    await owner.goto(`${base()}${slug}`);
    expect((await owner.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(oldName);

    const admin = await signedIn(ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin`);
    await screenshot(admin, { path: path.join(shots, "admin-overview.png"), fullPage: true });
    // This week's figures link to their screens; the test's accounts were all created today.
    const signUps = admin.getByRole("link", { name: /new accounts? in the last 7 days/ });
    expect(await signUps.getAttribute("href")).toBe("/admin/users");
    expect(Number((await signUps.textContent())!.match(/\d+/)![0])).toBeGreaterThanOrEqual(3);
    expect(await admin.getByRole("link", { name: /page views? from/ }).getAttribute("href")).toBe(
      "/admin/analytics?days=7",
    );
    await admin.getByRole("link", { name: /1\s*owner's change waits for review/ }).click();
    await admin.waitForURL(`${base()}/admin/manage`);
    const row = admin.getByRole("row").filter({ hasText: approvedName });
    expect(await row.textContent()).toContain(oldName);
    expect(await row.textContent()).toContain(ACCOUNTS.listing_owner.email);
    for (const width of [1280, 390]) {
      await admin.setViewportSize({ width, height: 900 });
      await screenshot(admin, { path: path.join(shots, `admin-manage-${width}.png`), fullPage: true });
      expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.getByRole("button", { name: `Approve the change to ${oldName}` }).click();
    await toast(admin, `Approved: ${approvedName} now shows the new values`).waitFor();
    await admin.getByText("Nothing waiting for review").waitFor();
    await screenshot(admin, { path: path.join(shots, "admin-manage-empty.png"), fullPage: true });

    // Published: the facility page and search show the new name.
    await owner.goto(`${base()}${slug}`);
    expect((await owner.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(approvedName);
    await owner.goto(`${base()}/rv-storage?lat=${lat}&lng=${lng}&q=Moderated`);
    await owner.getByText(approvedName).first().waitFor();
    await expect
      .poll(() => Boolean(mailTo(ACCOUNTS.listing_owner.email, /was approved/)), { timeout: 15_000 })
      .toBe(true);

    // A second rename is rejected with a reason the owner reads, in the history and the email.
    const rejectedName = `${approvedName}!!! Cheapest`;
    await rename(owner, rejectedName);
    await admin.goto(`${base()}/admin/manage`);
    await admin.getByRole("link", { name: `Reject the change to ${approvedName}` }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Reason").fill("Keep the business name only, without slogans.");
    await screenshot(admin, { path: path.join(shots, "admin-manage-reject.png") });
    await dialog.getByRole("button", { name: "Reject the change" }).click();
    await toast(admin, `Rejected the change to ${approvedName}`).waitFor();
    await admin.getByText("Nothing waiting for review").waitFor();
    await owner.goto(`${base()}${editPath()}`);
    expect(await owner.getByRole("status").filter({ hasText: "Pending review" }).count()).toBe(0);
    const rejected = owner.locator("ol li").filter({ hasText: "Not approved" }).first();
    expect(await rejected.textContent()).toContain("Reason: Keep the business name only, without slogans.");
    // The history says what the owner asked for, in words.
    expect(await rejected.textContent()).toContain(rejectedName);
    await rejected.scrollIntoViewIfNeeded();
    await screenshot(owner, { path: path.join(shots, "owner-history-rejected.png") });
    await expect
      .poll(() => Boolean(mailTo(ACCOUNTS.listing_owner.email, /was rejected/)), { timeout: 15_000 })
      .toBe(true);
    expect(mailTo(ACCOUNTS.listing_owner.email, /was rejected/)!.mail.text).toContain(
      "Reason: Keep the business name only, without slogans.",
    );
    await owner.goto(`${base()}${slug}`);
    expect((await owner.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(approvedName);

    // Restore: the approved revision's earlier name comes back, after a confirmation naming it.
    await admin.goto(`${base()}${managePath()}`);
    const approvedRevision = admin
      .locator("ol li")
      .filter({ has: admin.getByText("Approved", { exact: true }) })
      .first();
    await approvedRevision.getByRole("link", { name: "Restore" }).click();
    const confirm = admin.getByRole("dialog");
    expect(await confirm.textContent()).toContain(approvedName);
    expect(await confirm.textContent()).toContain(oldName);
    for (const width of [1280, 390]) {
      await admin.setViewportSize({ width, height: 900 });
      await screenshot(admin, { path: path.join(shots, `admin-manage-location-restore-${width}.png`), fullPage: true });
    }
    await admin.setViewportSize({ width: 1280, height: 900 });
    await confirm.getByRole("button", { name: "Restore these values" }).click();
    await toast(admin, "Restored: Name.").waitFor();
    await screenshot(admin, { path: path.join(shots, "admin-manage-location.png"), fullPage: true });
    await owner.goto(`${base()}${slug}`);
    expect((await owner.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(oldName);

    // Two admins on one change: the second is told it is gone, and nothing else happens.
    await rename(owner, `${oldName} Twice`);
    const second = await signedIn(ACCOUNTS.admin.email);
    await second.goto(`${base()}/admin/manage`);
    await admin.goto(`${base()}${managePath()}`);
    await admin.getByRole("button", { name: "Approve", exact: true }).click();
    await toast(admin, "Approved:").waitFor();
    await second.getByRole("button", { name: `Approve the change to ${oldName}` }).click();
    await toast(second, PENDING_CHANGE_GONE_TEXT).waitFor();
    await second.getByText("Nothing waiting for review").waitFor();

    // Without JavaScript, Restore asks in the page instead of a dialog.
    const noScript = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { javaScriptEnabled: false });
    await noScript.goto(`${base()}${managePath()}`);
    await noScript
      .locator("ol li")
      .filter({ has: noScript.getByText("Approved", { exact: true }) })
      .first()
      .getByRole("link", { name: "Restore" })
      .click();
    await noScript.waitForURL(/\?restore=\d+$/);
    const question = noScript.getByRole("group", { name: "Restore the earlier values?" });
    expect(await question.textContent()).toContain(`${oldName} Twice`);
    await question.getByRole("button", { name: "Restore these values" }).click();
    await noScript.getByText("Restored: Name.").first().waitFor();
    expect((await noScript.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(oldName);

    for (const page of [owner, admin, second, noScript]) await page.context().close();
  }, 240_000);
});
