/**
 * Starts the built site (`server.js`) on a free port over a fresh data directory, as a new user's
 * `npm start` would, for the browser tests and the page benchmarks. SITE_URL points them at a
 * site that is already up instead; SKIP_BUILD=1 reuses the last build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface RunningSite {
  baseUrl: string;
  stop(): Promise<void>;
  /** The server process (undefined for SITE_URL), for tests that signal it themselves. */
  child?: ChildProcess;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function startBuiltSite({
  logFile,
  prepare,
  env = {},
  dataDir: givenDataDir,
  port: givenPort,
  nodeArgs = [],
}: {
  logFile?: string;
  /** Runs on the fresh data directory before the site starts (fixture accounts, say). */
  prepare?: (dataDir: string) => Promise<void>;
  /** Environment for the site on top of the defaults below (an empty string unsets a variable). */
  env?: Record<string, string>;
  /** A data directory to use (and keep) instead of a fresh one: a restart over the same data. */
  dataDir?: string;
  /** A port to listen on instead of a free one. */
  port?: number;
  /** Flags for node ahead of server.js (`--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
} = {}): Promise<RunningSite> {
  if (process.env.SITE_URL) return { baseUrl: process.env.SITE_URL.replace(/\/$/, ""), stop: async () => {} };
  const root = path.resolve(import.meta.dirname, "../..");
  if (!process.env.SKIP_BUILD) {
    // NODE_ENV must be production for the build: under Vitest it is "test", which would bundle
    // React's development build (twice the size) into the site that npm start then reuses.
    const build = spawnSync("npx", ["react-router", "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (build.status !== 0) throw new Error("The build failed: run `npx react-router build` to see why");
  }
  const dataDir = givenDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "rv-bench-"));
  await prepare?.(dataDir);
  const port = givenPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = logFile ? fs.openSync(logFile, "w") : "ignore";
  const server = spawn(process.execPath, [...nodeArgs, "server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // Inherited from a Vitest worker, it would silence the site's logger and hide its errors.
      VITEST: "",
      // Canonical links, sitemaps and cookies name the address the tests use.
      PUBLIC_URL: baseUrl,
      ...env,
    },
    stdio: ["ignore", log, log],
  });
  const deadline = Date.now() + 120_000;
  const tail = () => (logFile ? `\n${fs.readFileSync(logFile, "utf8").slice(-4000)}` : "");
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The site exited with code ${server.exitCode}${tail()}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.kill("SIGKILL");
      throw new Error(`The site did not start within 120 s${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    child: server,
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((r) => server.once("exit", r));
        server.kill("SIGTERM");
        // A server whose event loop is stuck never runs its SIGTERM handler.
        const force = setTimeout(() => server.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(force);
      }
      if (!givenDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A facility page URL: the first card of a city's results. */
async function firstFacilityPath(baseUrl: string, city = "austin-tx"): Promise<string> {
  const html = await (await fetch(`${baseUrl}/rv-storage/${city}`)).text();
  // Found by position rather than with `href="(\/location\/[^"]+)"`, whose `[^"]+` the engine
  // would rescan from every earlier start on a page without a closing quote.
  const prefix = 'href="/location/';
  for (let start = html.indexOf(prefix); start >= 0; start = html.indexOf(prefix, start + 1)) {
    const end = html.indexOf('"', start + prefix.length);
    if (end < 0) break;
    if (end > start + prefix.length) return html.slice(start + 'href="'.length, end);
  }
  throw new Error(`No facility link on /rv-storage/${city}`);
}

/** The pages the page benchmarks measure: a facility, a results page and the home page. */
export async function measuredPages(baseUrl: string): Promise<(readonly [name: string, path: string])[]> {
  return [
    ["facility", await firstFacilityPath(baseUrl)],
    ["results", "/rv-storage/austin-tx"],
    ["home", "/"],
    // A demo article every fresh site has (server/blog/demo-articles.ts).
    ["article", "/blog/prepare-rv-for-winter-storage-checklist"],
  ];
}

/** Runs a benchmark script's main and exits with its code; a failure prints one line, exit 1. */
export function runScript(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
