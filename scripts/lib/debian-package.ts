import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Makes sure a program the tests or benchmarks need from Debian (Chromium for the browser tests,
 * nginx for the caching proxy) is there: present, or installed with apt-get when this runs as root
 * on a machine that has it (as on a fresh CI machine), or else a one-line instruction.
 * `npm test`, `npm run test:e2e` and `npm run bench:site` run scripts/ensure-chromium.ts and
 * scripts/ensure-nginx.ts first, so the README's one command sets itself up.
 */
export interface DebianProgram {
  /** Its name in messages: "Chromium", "nginx". */
  label: string;
  /** The Debian package that installs it. */
  package: string;
  /** Where that package puts the binary. */
  binary: string;
  /** The environment variable that names another binary. */
  pathVariable: string;
  /** What such a binary must be: "a Chromium binary". */
  wanted: string;
  /** apt-get install's options beyond -y. */
  installOptions?: readonly string[];
  /** What to run again after installing by hand. */
  rerun: string;
}

export const CHROMIUM: DebianProgram = {
  label: "Chromium",
  package: "chromium",
  binary: "/usr/bin/chromium",
  pathVariable: "CHROME_PATH",
  wanted: "a Chromium binary",
  rerun: "npm test again",
};

/** Debian's `nginx` package installs /usr/sbin/nginx; NGINX_PATH names another binary. */
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export const NGINX: DebianProgram = {
  label: "nginx",
  package: "nginx",
  binary: "/usr/sbin/nginx",
  pathVariable: "NGINX_PATH",
  // The reference configuration (deploy/nginx/) needs no module outside the stock package.
  wanted: "an nginx binary (1.11.10 or later)",
  // The binary and nginx-common are all the proxy needs.
  installOptions: ["--no-install-recommends"],
  rerun: "run the command again",
};

export interface SystemDeps {
  exists: (path: string) => boolean;
  isRoot: () => boolean;
  /** Whether `apt-get` is on the PATH. */
  hasAptGet: () => boolean;
  /** Runs a command with inherited output; resolves to its exit code. */
  run: (command: string, args: string[], env?: Record<string, string>) => Promise<number>;
  log: (line: string) => void;
}

export type EnsureResult = { ok: true; installed: boolean } | { ok: false; message: string };

/** `program` at `binaryPath` (its variable's value, or Debian's place), installing it if it may. */
export async function ensureDebianProgram(
  program: DebianProgram,
  deps: SystemDeps,
  binaryPath: string = program.binary,
): Promise<EnsureResult> {
  const { label, binary } = program;
  if (deps.exists(binaryPath)) return { ok: true, installed: false };
  // apt-get installs where Debian puts it; a path elsewhere is the user's to provide.
  if (binaryPath !== binary) {
    return {
      ok: false,
      message: `${label} not found at ${program.pathVariable}=${binaryPath}: point ${program.pathVariable} at ${program.wanted}`,
    };
  }
  const command = `apt-get update && apt-get install -y ${program.package}`;
  if (!deps.isRoot() || !deps.hasAptGet()) {
    return {
      ok: false,
      message: `${label} not found at ${binary}: run 'sudo ${command.replace("&& apt-get", "&& sudo apt-get")}' (or set ${program.pathVariable}), then ${program.rerun}`,
    };
  }
  deps.log(`${label} not found at ${binary}: installing it (${command})`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await deps.run("apt-get", ["update"], env);
  if (update !== 0) {
    return { ok: false, message: `'apt-get update' failed (exit ${update}); ${label} is not installed` };
  }
  const install = await deps.run("apt-get", ["install", "-y", ...(program.installOptions ?? []), program.package], env);
  if (install !== 0) {
    return {
      ok: false,
      message: `'apt-get install -y ${program.package}' failed (exit ${install}); ${label} is not installed`,
    };
  }
  if (!deps.exists(binary)) {
    return { ok: false, message: `apt-get installed ${program.package} but ${binary} is still missing` };
  }
  return { ok: true, installed: true };
}

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));

/** The machine itself: files, root, apt-get, and commands run with the console attached. */
export const systemDeps: SystemDeps = {
  exists: (file: string) => fs.existsSync(file),
  isRoot: () => process.getuid?.() === 0,
  hasAptGet: () => onPath("apt-get"),
  run: (command: string, args: string[], env?: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
      child.on("error", () => resolve(127));
      child.on("exit", (code) => resolve(code ?? 1));
    }),
  log: (line: string) => console.log(line),
};

/** Runs from a script: installs `program` if it must, or prints why not and exits 1. */
export async function ensureOrExit(program: DebianProgram, binaryPath?: string): Promise<void> {
  const result = await ensureDebianProgram(program, systemDeps, binaryPath);
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
}
