import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchBrowserServer } from "../../scripts/lib/chromium";
import { startBuiltSite } from "../../scripts/lib/serve-built";
import { prepareAccounts, prepareTemplate, type Fixtures } from "./accounts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** Null when testing a site this run did not start (E2E_BASE_URL): no fixture accounts. */
    fixtures: Fixtures | null;
    /** The run's one Chromium, which every file connects to (tests/e2e/browser.ts). */
    browserEndpoint: string;
    /** A directory of this run's own for the files' locks (tests/e2e/exclusive.ts). */
    lockDir: string;
    /**
     * The shared site's TEST_CLOCK_FILE (server/clock.ts): a file that moves it forward writes a
     * larger offset, never a smaller one. Empty for a site this run did not start.
     */
    clockFile: string;
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
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-e2e-"));
  const lockDir = path.join(runDir, "locks");
  fs.mkdirSync(lockDir);
  const clockFile = path.join(runDir, "clock-offset");
  fs.writeFileSync(clockFile, "0");
  // The demo catalogue and the fixtures, prepared once: every site of the run starts on a copy.
  if (!process.env.E2E_BASE_URL) await prepareTemplate(path.join(runDir, "prepared"));
  const site = await startBuiltSite({
    logFile,
    // Every request in the log (status, time taken), to tell afterwards what a failed test was answered.
    // Behind a proxy, as in production: each browser context names its own client address
    // (tests/e2e/browser.ts), so per-address limits count visitors, not the test run.
    env: { TEST_CLOCK_FILE: clockFile, LOG_LEVEL: "info", TRUST_PROXY: "loopback" },
    prepare: async (dataDir) => {
      fixtures = await prepareAccounts(dataDir);
    },
  });
  // Built once, here: a file that starts a site of its own must not build again, which rewrites
  // build/ under the shared site while the other worker's tests load its scripts (they got 500s).
  // The workers, forked after this, inherit it.
  process.env.SKIP_BUILD = "1";
  const browser = await launchBrowserServer();
  project.provide("baseUrl", site.baseUrl);
  project.provide("fixtures", fixtures);
  project.provide("browserEndpoint", browser.wsEndpoint());
  project.provide("lockDir", lockDir);
  project.provide("clockFile", process.env.E2E_BASE_URL ? "" : clockFile);
  return async () => {
    await browser.close();
    await site.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  };
}
