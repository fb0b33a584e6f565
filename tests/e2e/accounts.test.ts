import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { newHumanContext, browserForThisFile, signInAfterSignUp } from "./browser";
import { screenshot } from "./screenshot";

const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");

const browser = browserForThisFile();

async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newHumanContext(browser());
  return { context, page: await context.newPage() };
}

async function signInThroughForm(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const consoleLinks = (page: Page) =>
  Promise.all([
    page.getByRole("link", { name: "Admin Console" }).count(),
    page.getByRole("link", { name: "Owner Console" }).count(),
  ]);

describe("accounts in the browser", () => {
  it("gives a visitor an anonymous session silently, and shows no console links", async () => {
    const { context, page } = await freshPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") violations.push(message.text());
    });
    await page.goto(`${baseUrl}/`);
    await expect
      .poll(async () => (await context.cookies()).some((c) => c.name === "rvs.session_token"), { timeout: 5000 })
      .toBe(true);
    const cookie = (await context.cookies()).find((c) => c.name === "rvs.session_token")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(await consoleLinks(page)).toEqual([0, 0]);
    expect(await page.getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    // The nonce-based Content-Security-Policy lets the page's own scripts run and blocks nothing.
    expect(violations.filter((v) => /Content Security Policy/i.test(v))).toEqual([]);
    await context.close();
  });

  it("signs up, signs out and signs back in", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${baseUrl}/signup`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Enter your name.").waitFor();
    // Focus moves to the first field with a problem.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("name"));
    await expect.poll(focused).toBe("name");
    await page.getByLabel("Name").fill("Robin Camper");
    await page.getByLabel("Email").fill("robin@e2e.test");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Use at least 8 characters for your password.").waitFor();
    await expect.poll(focused).toBe("password");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, { path: ".tmp/screenshots/signup-error-phone.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    // "Check your email", whether or not the address had an account; nobody is signed in yet.
    await page.getByText("We sent a message to robin@e2e.test.").waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    await signInAfterSignUp(page, "robin@e2e.test");
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await consoleLinks(page)).toEqual([0, 1]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Login" }).waitFor();
    expect(await consoleLinks(page)).toEqual([0, 0]);

    await page.getByRole("link", { name: "Login" }).click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByLabel("Email").fill("robin@e2e.test");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "That email and password do not match an account." }).waitFor();
    await signInThroughForm(page, "robin@e2e.test");
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await screenshot(page, { path: ".tmp/screenshots/signed-in-header.png" });
    await context.close();
  });
});

describe.skipIf(!fixtures)("roles in the browser", () => {
  it("shows an admin the Admin Console and a user only the Owner Console", async () => {
    const admin = await freshPage();
    await admin.page.goto(`${baseUrl}/login`);
    await signInThroughForm(admin.page, ACCOUNTS.admin.email);
    await admin.page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await consoleLinks(admin.page)).toEqual([1, 1]);
    // On a phone, every header control still fits without scrolling sideways.
    await admin.page.setViewportSize({ width: 360, height: 740 });
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(admin.page, { path: ".tmp/screenshots/admin-header-phone.png" });
    await admin.context.close();

    const user = await freshPage();
    await user.page.goto(`${baseUrl}/login`);
    await signInThroughForm(user.page, ACCOUNTS.user.email);
    await user.page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await consoleLinks(user.page)).toEqual([0, 1]);

    // A user opening the admin area gets the 403 page.
    const response = await user.page.goto(`${baseUrl}/admin`);
    expect(response?.status()).toBe(403);
    expect(await user.page.getByRole("heading", { name: "Not allowed" }).isVisible()).toBe(true);
    await user.context.close();
  });

  it("sends a visitor opening /admin/users to login, and back there after signing in as admin", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${baseUrl}/admin/users`);
    await page.waitForURL(`${baseUrl}/login?redirectTo=%2Fadmin%2Fusers`);
    await screenshot(page, { path: ".tmp/screenshots/login.png" });
    await signInThroughForm(page, ACCOUNTS.admin.email);
    await page.waitForURL(`${baseUrl}/admin/users`);
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    await context.close();
  });

  it("lands a business owner on the dashboard with their listing", async () => {
    const { context, page } = await freshPage();
    await page.goto(`${baseUrl}/business/login`);
    await signInThroughForm(page, ACCOUNTS.listing_owner.email);
    await page.waitForURL(`${baseUrl}/owner`);
    await page.getByRole("heading", { name: "Your listings" }).waitFor();
    expect(await page.getByRole("link", { name: /Update listing/ }).count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, { path: ".tmp/screenshots/business-dashboard-phone.png", fullPage: true });
    await context.close();
  });
});
