import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ACCOUNTS, PASSWORD, prepareAccounts } from "./accounts";
import { browserForThisFile, newHumanContext, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * The admin accounts screens end to end (docs/product.md section 12, "Accounts"): an
 * administrator finds an account, bans it with a reason, and its open session ends at once while
 * its right password is answered "suspended"; the ban is lifted and it signs in again; the
 * administrator's own account offers no controls over itself. Its own site, since it bans a
 * fixture account other files sign in with.
 */
const browser = browserForThisFile();
const shots = path.resolve(".tmp/screenshots");
const { base } = mailingSiteForThisFile(async (dataDir) => {
  await prepareAccounts(dataDir);
});

const TARGET = ACCOUNTS.business_owner.email;
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text }).first();

async function tryBusinessSignIn(page: Page) {
  await page.goto(`${base()}/business/login`);
  await page.getByLabel("Email").fill(TARGET);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("the admin accounts screens", () => {
  it("bans an account, which is signed out at once and cannot sign in, then lifts the ban", async () => {
    const owner = await signedInPage(browser(), base(), TARGET, { loginPath: "/business/login" });
    await owner.goto(`${base()}/owner`);
    expect(new URL(owner.url()).pathname).toBe("/owner");

    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/users`);
    await admin.getByLabel("Search").fill(TARGET);
    await admin.getByRole("button", { name: "Filter" }).click();
    await admin.waitForURL(/\?q=/);
    await admin.getByRole("link", { name: TARGET, exact: true }).click();
    await admin.waitForURL(/\/admin\/users\/[^/]+$/);
    // The account's page has loaded when its sessions are listed (networkidle once waited 30 s in CI).
    await admin.getByRole("heading", { name: /Signed-in devices/ }).waitFor();
    // The fixture's sign-up left a session too, beside the browser's.
    const heading = await admin.getByRole("heading", { name: /Signed-in devices/ }).textContent();
    const sessions = Number(/\((\d+)\)/.exec(heading ?? "")?.[1]);
    expect(sessions).toBeGreaterThanOrEqual(1);

    await admin.getByLabel("Reason for a ban").fill("Posting fake listings");
    await admin.getByRole("button", { name: "Ban account" }).click();
    const dialog = admin.getByRole("dialog");
    expect(await dialog.textContent()).toContain(`${sessions} active session`);
    await dialog.getByRole("button", { name: "Ban account" }).click();
    const ended = sessions === 1 ? "1 session was" : `${sessions} sessions were`;
    await toast(admin, `Account banned: it cannot sign in, and ${ended} ended.`).waitFor();
    await admin.getByText("This account is banned: it cannot sign in. Reason: Posting fake listings.").waitFor();
    expect(await admin.getByText("user.ban").count()).toBeGreaterThan(0);
    await screenshot(admin, { path: path.join(shots, "admin-user-banned.png"), fullPage: true });

    // The open session ended with the ban: the owner console sends the owner to sign in again.
    await owner.goto(`${base()}/owner`);
    expect(new URL(owner.url()).pathname).toBe("/business/login");
    // The right password is told the account is suspended; a wrong one learns nothing.
    const fresh = await (await newHumanContext(browser())).newPage();
    await tryBusinessSignIn(fresh);
    await fresh.getByText("This account has been suspended by an administrator, so it cannot sign in.").waitFor();
    expect(new URL(fresh.url()).pathname).toBe("/business/login");

    await admin.getByRole("button", { name: "Lift the ban" }).click();
    await toast(admin, "Ban lifted: the account can sign in again.").waitFor();
    await tryBusinessSignIn(fresh);
    await fresh.waitForURL((url) => !url.pathname.endsWith("/login"));
  });

  it("offers an administrator no controls over their own account, and filters by role", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/users?role=admin`);
    const rows = admin.getByRole("table", { name: "Accounts" }).getByRole("row");
    expect(await rows.count()).toBe(2); // the header row and the one administrator
    await admin.getByRole("link", { name: ACCOUNTS.admin.email }).click();
    await admin.getByRole("heading", { name: "This is your account" }).waitFor();
    expect(await admin.getByRole("button", { name: "Ban account" }).count()).toBe(0);
    expect(await admin.getByRole("button", { name: "Delete account" }).count()).toBe(0);
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto(`${base()}/admin/users`);
    await screenshot(admin, { path: path.join(shots, "admin-users-phone.png"), fullPage: true });
  });
});
