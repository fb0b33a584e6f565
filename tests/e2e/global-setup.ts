import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchBrowserServer } from "../../scripts/lib/chromium";
import { startBuiltSite } from "../../scripts/lib/serve-built";
import { prepareAccounts, type Fixtures } from "./accounts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** Null when testing a site this run did not start (E2E_BASE_URL): no fixture accounts. */
    fixtures: Fixtures | null;
    /** The run's one Chromium, which every file connects to (tests/e2e/browser.ts). */
    browserEndpoint: string;
    /** A directory of this run's own for the files' locks (tests/e2e/exclusive.ts). */
    lockDir: string;
  }
}

/**
 * Builds the site, starts it on a free port over a fresh data directory (so it loads the demo
 * catalogue exactly as `npm start` does on a new machine, plus the fixture accounts of
 * tests/e2e/accounts.ts), and stops it afterwards.
 * E2E_BASE_URL tests a running site; E2E_SKIP_BUILD=1 reuses the last build. Starts the one
 * Chromium the files share too: a browser per file cost a launch each.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) process.env.SITE_URL = process.env.E2E_BASE_URL;
  if (process.env.E2E_SKIP_BUILD) process.env.SKIP_BUILD = "1";
  const logFile = path.resolve(import.meta.dirname, "../../.tmp/e2e-server.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  let fixtures: Fixtures | null = null;
  const site = await startBuiltSite({
    logFile,
    prepare: async (dataDir) => {
      fixtures = await prepareAccounts(dataDir);
    },
  });
  const browser = await launchBrowserServer();
  const lockDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-e2e-locks-"));
  project.provide("baseUrl", site.baseUrl);
  project.provide("fixtures", fixtures);
  project.provide("browserEndpoint", browser.wsEndpoint());
  project.provide("lockDir", lockDir);
  return async () => {
    await browser.close();
    await site.stop();
    fs.rmSync(lockDir, { recursive: true, force: true });
  };
}
