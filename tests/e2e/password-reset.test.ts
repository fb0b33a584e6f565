import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACCOUNTS, PASSWORD, prepareAccounts } from "./accounts";
import { browserForThisFile, newHumanContext } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Account recovery in a real browser against the built site (docs/product.md section 10): "Forgot password?" on
 * the sign-in page, the link read from the email this file's SMTP sink received, a new password,
 * and signing in with it. Its own site, because the shared one sends no mail a test can read.
 */
const browser = browserForThisFile();
const shots = path.resolve(".tmp/screenshots");
const NEW_PASSWORD = "a fresh e2e password";

const { base, mailTo } = mailingSiteForThisFile(async (dataDir) => void (await prepareAccounts(dataDir)));
const resetMail = (address: string) => mailTo(address, /Reset your/);

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("resetting a forgotten password", () => {
  it("mails a link that sets a new password once, and the new password signs in", async () => {
    const email = ACCOUNTS.business_owner.email;
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    await page.goto(`${base()}/business/login`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(`${base()}/forgot-password`);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(`If an account uses ${email}, we have sent a reset link`).waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, { path: path.join(shots, `forgot-password-${width}.png`), fullPage: true });
    }

    // An unknown address gets the very same answer, and no mail.
    await page.goto(`${base()}/forgot-password`);
    await page.getByLabel("Email").fill("nobody-here@e2e.test");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("If an account uses nobody-here@e2e.test, we have sent a reset link").waitFor();

    await expect.poll(() => Boolean(resetMail(email)), { timeout: 15_000 }).toBe(true);
    const text = resetMail(email)!.mail.text ?? "";
    const link = /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(text)?.[1];
    expect(link, text).toBeDefined();
    expect(new URL(link!).origin).toBe(new URL(base()).origin);

    await page.goto(link!);
    await page.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("New password again").fill("something else");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("The two passwords differ").waitFor();
    await screenshot(page, { path: path.join(shots, "reset-password-390.png"), fullPage: true });
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("New password again").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL(`${base()}/login`);
    await page.getByText("Your password is changed").waitFor();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("That email and password do not match an account.").waitFor();
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));

    // Signed in: the settings page renders (its forms are covered by server/account tests).
    await page.goto(`${base()}/owner/settings`);
    await page.getByRole("heading", { level: 1, name: "Account settings" }).waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, { path: path.join(shots, `owner-settings-${width}.png`), fullPage: true });
    }

    // The link was spent.
    await page.goto(link!);
    await page.getByRole("heading", { level: 1, name: "This link no longer works" }).waitFor();
    await context.close();
  });
});
