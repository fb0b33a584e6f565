import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
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

async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not become healthy within ${timeoutMs} ms`);
}

/**
 * Builds the site when needed, starts it on a free port over a fresh data directory (so it loads
 * the demo catalogue exactly as `npm start` does on a new machine), and stops it afterwards.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    project.provide("baseUrl", process.env.E2E_BASE_URL);
    return;
  }
  const root = path.resolve(import.meta.dirname, "../..");
  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("The build failed");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-e2e-"));
  const port = await freePort();
  const logPath = path.join(root, ".tmp/e2e-server.log");
  fs.mkdirSync(path.dirname(logPath), { recursive: true });
  const log = fs.openSync(logPath, "w");
  const server = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", log, log],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server, 120_000);
  } catch (error) {
    server.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${fs.readFileSync(logPath, "utf8").slice(-4000)}`);
  }
  project.provide("baseUrl", baseUrl);
  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
