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

/** Resolves after the frame after next: layout, paint and React's effects have caught up. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/**
 * A document of ours that has not hydrated yet: its module script (or the inert copy the server
 * holds back until the first paint, server/http/script-priority.ts) is there and the root's effect
 * has not marked it. A page without scripts (a JSON answer, a stand-in's page) has nothing to wait for.
 */
const SETTLED = 'html[data-hydrated], html:not(:has(script[type="module"], script[type="text/x-after-paint"]))';

/**
 * Resolves once the page's current document, if it is one of ours, has hydrated. The scripts load
 * after the first paint, so `load` can come before React has attached a single handler.
 */
export async function settled(page: Page): Promise<void> {
  try {
    await page.locator(SETTLED).waitFor({ state: "attached", timeout: 20_000 });
  } catch (error) {
    throw new Error(`${page.url()} did not hydrate: ${(error as Error).message}`);
  }
}

/**
 * Makes every way a test loads a document (goto, reload, back, forward, waitForURL) resolve only
 * once that document has hydrated, as a person's first click would need. Client-side navigations
 * keep the mark, so those waits cost nothing.
 */
const awaitingHydration = new WeakSet<Page>();
function waitForHydrationAfterLoads(page: Page): Page {
  if (awaitingHydration.has(page)) return page;
  awaitingHydration.add(page);
  for (const name of ["goto", "reload", "goBack", "goForward", "waitForURL"] as const) {
    const original = page[name].bind(page) as (...args: unknown[]) => Promise<unknown>;
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const result = await original(...args);
      await settled(page);
      return result;
    };
  }
  return page;
}

let contexts = 0;

/**
 * A client address of its own for each browser context, as people behind the shared site's proxy
 * would have (the shared site trusts X-Forwarded-For from loopback: tests/e2e/global-setup.ts).
 * Without it every context came from 127.0.0.1 and, with files two at a time, used up the 30 new
 * anonymous sessions an address gets in 10 minutes; the analytics test's visitor then had none.
 * Sites a file starts itself ignore the header and keep seeing 127.0.0.1.
 */
function clientAddress(): string {
  contexts += 1;
  return `10.${process.pid % 250}.${(contexts >> 8) & 255}.${contexts & 255}`;
}

/** `browser` whose contexts hand out pages that wait for hydration after each document load. */
function hydrationAwareBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({
      ...options,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddress(), ...options.extraHTTPHeaders },
    });
    // Without JavaScript nothing hydrates: the server's HTML is the page.
    if (options.javaScriptEnabled === false) return context;
    context.on("page", waitForHydrationAfterLoads);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => waitForHydrationAfterLoads(await newPage());
    return context;
  };
  browser.newPage = async (...args) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    // A page of its own closes its context with it, as Browser.newPage's does.
    // (The browser may be closing already: then so is the context.)
    page.on("close", () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}

/**
 * A page in a new context of its own (1280x900 unless told), opened at `url` and hydrated (the
 * wrapped `goto` waits for it). Not "network idle": Chromium reports that about five seconds after
 * the last request on these pages, which cost every test five seconds and proved nothing.
 */
export async function openPage(
  browser: Browser,
  url: string,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; response: Response | null }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const response = await page.goto(url);
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
    browser = hydrationAwareBrowser(endpoint ? await chromium.connect(endpoint) : await launchBrowser());
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
