import { spawn } from "node:child_process";
import path from "node:path";

/** What a command-line run printed and how it ended. */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Runs one of scripts/*.ts as `npm run` would, in a child process on the embedded database in
 * `dataDir` (never PostgreSQL, whatever the environment says: the data directory lock they must
 * respect only exists there), with no demo data and no logs. `input` is written to its stdin.
 */
export function runScript(
  script: string,
  args: string[],
  { dataDir, env = {}, input }: { dataDir: string; env?: Record<string, string>; input?: string },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", script), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DEMO_DATA: "off", DATABASE_URL: "", LOG_LEVEL: "silent", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}
