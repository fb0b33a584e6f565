import { chromium, type Browser, type BrowserContext, type Page, type Response } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { launchBrowser } from "../../scripts/lib/chromium";
import { PASSWORD } from "./accounts";

/**
 * A desktop Chrome user agent. Headless Chromium announces itself as HeadlessChrome, which the
 * site treats as a bot (no anonymous session, no analytics); tests of those use this one.
 */
export const HUMAN_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** A new browser context (own cookies) as a person would be, on a desktop-sized window. */
export function newHumanContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  return browser.newContext({ userAgent: HUMAN_USER_AGENT, viewport: { width: 1280, height: 900 }, ...options });
}

/**
 * Resolves once React has hydrated the page (the root's effect marks <html data-hydrated>, app/root.tsx):
 * a click before then would land on server HTML with no handler yet.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** A page in a new context of its own (1280x900 unless told), opened at `url`, hydrated and settled (network idle). */
export async function openPage(
  browser: Browser,
  url: string,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; response: Response | null }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const response = await page.goto(url);
  await page.waitForLoadState("networkidle");
  // Only HTML pages hydrate (a JSON or error answer from the server has nothing to wait for).
  if (response?.headers()["content-type"]?.startsWith("text/html")) await hydrated(page);
  return { context, page, response };
}

/** The count in a results page's heading: 'Storage Locations in Austin, Texas (57)' is 57. */
export async function resultsCount(page: Page): Promise<number> {
  const text = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  const match = /\((\d+)\)$/.exec(text);
  if (!match) throw new Error(`No count in heading "${text}"`);
  return Number(match[1]);
}

/**
 * Chromium for one test file: a connection to the run's one browser (started by the global setup,
 * tests/e2e/global-setup.ts), opened before the file's tests and closed after them, which closes
 * the contexts the file made. Without that browser (a file run by another config), a browser of
 * the file's own. Returns a getter, for use inside tests and hooks.
 */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    const endpoint = inject("browserEndpoint");
    browser = endpoint ? await chromium.connect(endpoint) : await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser is launched in beforeAll: use it inside tests and hooks");
    return browser;
  };
}

/** Signs `page` in through a sign-in form (`/login` or `/business/login`) with the fixture password. */
export async function signIn(page: Page, baseUrl: string, email: string, loginPath = "/login"): Promise<void> {
  await page.goto(`${baseUrl}${loginPath}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !new URL(url).pathname.endsWith("/login"));
}

/**
 * From sign-up's "Check your email" answer, through its "Go to sign in" link, signed in as the new
 * account (an unconfirmed account may sign in). The account is made just after that answer
 * (server/auth/account-work.ts), so a sign-in that comes before it is tried again.
 */
export async function signInAfterSignUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Check your email" }).waitFor();
  await page.getByRole("link", { name: "Go to sign in" }).click();
  await page.waitForURL((url) => new URL(url).pathname === "/login");
  await expect
    .poll(
      async () => {
        if (new URL(page.url()).pathname !== "/login") return true;
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Sign in" }).click();
        return page
          .waitForURL((url) => new URL(url).pathname !== "/login", { timeout: 3_000 })
          .then(
            () => true,
            () => false,
          );
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** A page in a new context of its own, signed in as `email`. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  { loginPath = "/login", ...options }: Parameters<Browser["newContext"]>[0] & { loginPath?: string } = {},
): Promise<Page> {
  const context = await newHumanContext(browser, options);
  const page = await context.newPage();
  await signIn(page, baseUrl, email, loginPath);
  return page;
}
