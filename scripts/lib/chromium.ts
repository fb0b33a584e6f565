import fs from "node:fs";
import { chromium, type Browser, type BrowserServer } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`), or CHROME_PATH. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/** The flags this closed network needs: no sandbox, no GPU, no background connections. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Chromium features our runs turn off. Chromium 156 opens two WebUI renderers in every new window
 * for the address bar's suggestion popups (chrome://omnibox-popup.top-chrome), headless too, and
 * playwright-core opens a window per browser context: hundreds in a test run. Turning them off
 * cut the CPU of a run of the axe and results files by 18% and its time by 13%
 * (docs/operations.md, "Tests and their run time").
 */
export const DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/**
 * playwright-core's own `--disable-features` list (1.65). Chromium reads only the last
 * `--disable-features` on its command line, so ours must repeat these; `assertFeaturesKept`
 * fails a run whose playwright-core has added one.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/** One `--disable-features` flag: a launcher's defaults, then DISABLED_FEATURES. */
export function disableFeaturesFlag(defaults: readonly string[]): string {
  return `--disable-features=${[...new Set([...defaults, ...DISABLED_FEATURES])].join(",")}`;
}

/**
 * The features a command line's `--disable-features` flags name, in order: the last is the one
 * Chromium reads.
 */
export function disabledFeatureLists(args: readonly string[]): string[][] {
  return args.filter((arg) => arg.startsWith("--disable-features=")).map((arg) => arg.split("=")[1]!.split(","));
}

/**
 * Throws when the `--disable-features` Chromium reads (the last) leaves out a feature an earlier
 * one (a launcher's default) names: that default would be silently lost.
 */
export function assertFeaturesKept(args: readonly string[]): void {
  const lists = disabledFeatureLists(args);
  const last = new Set(lists.at(-1) ?? []);
  const lost = lists.slice(0, -1).flatMap((list) => list.filter((feature) => feature && !last.has(feature)));
  if (lost.length > 0) {
    throw new Error(
      `Chromium would no longer disable ${lost.join(", ")}: add them to PLAYWRIGHT_DISABLED_FEATURES in scripts/lib/chromium.ts`,
    );
  }
}

/** Checks a launched browser's real command line (from chrome://version) with assertFeaturesKept. */
async function checkLaunched(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("chrome://version");
    const commandLine = (await page.locator("#command_line").textContent()) ?? "";
    assertFeaturesKept(commandLine.split(" "));
  } finally {
    await context.close();
  }
}

export function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium' or set CHROME_PATH`,
    );
  }
}

const LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: ["--headless", ...CHROMIUM_FLAGS, "--disable-quic", disableFeaturesFlag(PLAYWRIGHT_DISABLED_FEATURES)],
};

/** Headless Chromium driven by playwright-core, for the browser tests and the page benchmarks. */
export async function launchBrowser(): Promise<Browser> {
  assertChromium();
  const browser = await chromium.launch(LAUNCH);
  try {
    await checkLaunched(browser);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/**
 * The same Chromium, run once and shared over a WebSocket: every browser test file connects to
 * it (`chromium.connect(server.wsEndpoint())`) instead of starting a browser of its own.
 */
export async function launchBrowserServer(): Promise<BrowserServer> {
  assertChromium();
  const server = await chromium.launchServer(LAUNCH);
  try {
    const browser = await chromium.connect(server.wsEndpoint());
    await checkLaunched(browser).finally(() => browser.close());
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
