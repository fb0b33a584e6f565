/**
 * Makes sure the browser tests have their Chromium: present, or installed with apt-get when this
 * runs as root on a machine that has it (as on a fresh CI machine), or else a one-line instruction.
 * `npm test` runs it before the browser tests, so the README's one command sets itself up.
 */
import { CHROMIUM_PATH } from "./chromium";

export interface EnsureChromiumDeps {
  exists: (path: string) => boolean;
  isRoot: () => boolean;
  /** Whether `apt-get` is on the PATH. */
  hasAptGet: () => boolean;
  /** Runs a command with inherited output; resolves to its exit code. */
  run: (command: string, args: string[], env?: Record<string, string>) => Promise<number>;
  log: (line: string) => void;
}

export type EnsureChromiumResult = { ok: true; installed: boolean } | { ok: false; message: string };

export const INSTALL_COMMAND = "apt-get update && apt-get install -y chromium";

export async function ensureChromium(
  deps: EnsureChromiumDeps,
  chromiumPath: string = CHROMIUM_PATH,
): Promise<EnsureChromiumResult> {
  if (deps.exists(chromiumPath)) return { ok: true, installed: false };
  // Debian's package installs /usr/bin/chromium; a CHROME_PATH elsewhere is the user's to provide.
  if (chromiumPath !== "/usr/bin/chromium") {
    return {
      ok: false,
      message: `Chromium not found at CHROME_PATH=${chromiumPath}: point CHROME_PATH at a Chromium binary`,
    };
  }
  if (!deps.isRoot() || !deps.hasAptGet()) {
    return {
      ok: false,
      message: `Chromium not found at ${chromiumPath}: run 'sudo ${INSTALL_COMMAND.replace("&& apt-get", "&& sudo apt-get")}' (or set CHROME_PATH), then npm test again`,
    };
  }
  deps.log(`Chromium not found at ${chromiumPath}: installing it (${INSTALL_COMMAND})`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await deps.run("apt-get", ["update"], env);
  if (update !== 0)
    return { ok: false, message: `'apt-get update' failed (exit ${update}); Chromium is not installed` };
  const install = await deps.run("apt-get", ["install", "-y", "chromium"], env);
  if (install !== 0) {
    return { ok: false, message: `'apt-get install -y chromium' failed (exit ${install}); Chromium is not installed` };
  }
  if (!deps.exists(chromiumPath)) {
    return { ok: false, message: `apt-get installed chromium but ${chromiumPath} is still missing` };
  }
  return { ok: true, installed: true };
}
