/**
 * Makes sure the caching proxy's nginx is there (scripts/lib/caching-proxy.ts): present, or
 * installed with apt-get when this runs as root on a machine that has it (as on a fresh CI
 * machine), or else a one-line instruction. `npm test`, `npm run test:e2e` and `npm run bench:site`
 * run it first, so the README's one command sets itself up. Stock Debian nginx: the reference
 * configuration (deploy/nginx/) needs no module outside the package.
 */

/** Debian's `nginx` package installs /usr/sbin/nginx; NGINX_PATH names another binary. */
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export const NGINX_INSTALL_COMMAND = "apt-get update && apt-get install -y nginx";

export interface EnsureNginxDeps {
  exists: (path: string) => boolean;
  isRoot: () => boolean;
  /** Whether `apt-get` is on the PATH. */
  hasAptGet: () => boolean;
  /** Runs a command with inherited output; resolves to its exit code. */
  run: (command: string, args: string[], env?: Record<string, string>) => Promise<number>;
  log: (line: string) => void;
}

export type EnsureNginxResult = { ok: true; installed: boolean } | { ok: false; message: string };

export async function ensureNginx(deps: EnsureNginxDeps, nginxPath: string = NGINX_PATH): Promise<EnsureNginxResult> {
  if (deps.exists(nginxPath)) return { ok: true, installed: false };
  if (nginxPath !== "/usr/sbin/nginx") {
    return {
      ok: false,
      message: `nginx not found at NGINX_PATH=${nginxPath}: point NGINX_PATH at an nginx binary (1.11.10 or later)`,
    };
  }
  if (!deps.isRoot() || !deps.hasAptGet()) {
    return {
      ok: false,
      message: `nginx not found at ${nginxPath}: run 'sudo ${NGINX_INSTALL_COMMAND.replace("&& apt-get", "&& sudo apt-get")}' (or set NGINX_PATH), then run the command again`,
    };
  }
  deps.log(`nginx not found at ${nginxPath}: installing it (${NGINX_INSTALL_COMMAND})`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await deps.run("apt-get", ["update"], env);
  if (update !== 0) return { ok: false, message: `'apt-get update' failed (exit ${update}); nginx is not installed` };
  // --no-install-recommends: the binary and nginx-common are all the proxy needs.
  const install = await deps.run("apt-get", ["install", "-y", "--no-install-recommends", "nginx"], env);
  if (install !== 0) {
    return { ok: false, message: `'apt-get install -y nginx' failed (exit ${install}); nginx is not installed` };
  }
  if (!deps.exists(nginxPath)) {
    return { ok: false, message: `apt-get installed nginx but ${nginxPath} is still missing` };
  }
  return { ok: true, installed: true };
}
