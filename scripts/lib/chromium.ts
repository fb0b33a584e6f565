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

export function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium' or set CHROME_PATH`,
    );
  }
}

const LAUNCH = { executablePath: CHROMIUM_PATH, args: ["--headless", ...CHROMIUM_FLAGS, "--disable-quic"] };

/** Headless Chromium driven by playwright-core, for the browser tests and the page benchmarks. */
export async function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch(LAUNCH);
}

/**
 * The same Chromium, run once and shared over a WebSocket: every browser test file connects to
 * it (`chromium.connect(server.wsEndpoint())`) instead of starting a browser of its own.
 */
export async function launchBrowserServer(): Promise<BrowserServer> {
  assertChromium();
  return chromium.launchServer(LAUNCH);
}
