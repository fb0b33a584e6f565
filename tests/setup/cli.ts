import { spawn } from "node:child_process";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { executeCli, type CliSpec } from "../../server/cli";

/** What a command-line run printed and how it ended. */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

interface RunOptions {
  dataDir: string;
  env?: Record<string, string>;
  input?: string;
}

/**
 * The environment of a command in a test: the embedded database in `dataDir` (never PostgreSQL,
 * whatever the environment says: the data directory lock the commands must respect only exists
 * there), no demo data, no logs.
 */
const commandEnv = ({ dataDir, env = {} }: RunOptions): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  DEMO_DATA: "off",
  DATABASE_URL: "",
  LOG_LEVEL: "silent",
  ...env,
});

/** A stream that keeps what is written to it, as text. */
function collector(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Runs a command of scripts/commands/ in this process, on the environment runScript would give
 * it, with `input` as its stdin. A spawn costs about 2 s of loading tsx and the modules; this is
 * for every case but the one per command that checks the real entry point, and cases that need
 * another process (a data directory lock held by this one).
 */
export async function runCommand<C>(spec: CliSpec<C>, args: string[], options: RunOptions): Promise<Outcome> {
  const stdout = collector();
  const stderr = collector();
  const code = await executeCli(spec, args, {
    env: commandEnv(options),
    stdin: Readable.from([options.input ?? ""]),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Runs one of scripts/*.ts as `npm run` would, in a child process, on the environment of
 * commandEnv. `input` is written to its stdin.
 */
export function runScript(script: string, args: string[], options: RunOptions): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", script), ...args], {
      cwd: ROOT,
      env: commandEnv(options),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}
