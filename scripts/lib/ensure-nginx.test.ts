import { describe, expect, it } from "vitest";
import { ensureNginx, type EnsureNginxDeps } from "./ensure-nginx";

/** A machine described by flags; `run` records each command and can make `apt-get install` create the file. */
function machine({
  present = false,
  root = true,
  apt = true,
  updateExit = 0,
  installExit = 0,
  installCreates = true,
}: Partial<{
  present: boolean;
  root: boolean;
  apt: boolean;
  updateExit: number;
  installExit: number;
  installCreates: boolean;
}> = {}) {
  const files = new Set(present ? ["/usr/sbin/nginx"] : []);
  const commands: string[] = [];
  const deps: EnsureNginxDeps = {
    exists: (file) => files.has(file),
    isRoot: () => root,
    hasAptGet: () => apt,
    run: async (command, args, env) => {
      commands.push(
        `${env?.DEBIAN_FRONTEND === "noninteractive" ? "[noninteractive] " : ""}${command} ${args.join(" ")}`,
      );
      if (args[0] === "update") return updateExit;
      if (installExit === 0 && installCreates) files.add("/usr/sbin/nginx");
      return installExit;
    },
    log: () => {},
  };
  return { deps, commands };
}

describe("ensureNginx", () => {
  it("does nothing when nginx is there", async () => {
    const { deps, commands } = machine({ present: true });
    expect(await ensureNginx(deps, "/usr/sbin/nginx")).toEqual({ ok: true, installed: false });
    expect(commands).toEqual([]);
  });

  it("installs Debian's package with apt-get, non-interactively, when root on a machine with apt-get", async () => {
    const { deps, commands } = machine();
    expect(await ensureNginx(deps, "/usr/sbin/nginx")).toEqual({ ok: true, installed: true });
    expect(commands).toEqual([
      "[noninteractive] apt-get update",
      "[noninteractive] apt-get install -y --no-install-recommends nginx",
    ]);
  });

  it("says in one line how to install it, without running anything, when not root or without apt-get", async () => {
    for (const flags of [{ root: false }, { apt: false }]) {
      const { deps, commands } = machine(flags);
      const result = await ensureNginx(deps, "/usr/sbin/nginx");
      expect(!result.ok && result.message).toBe(
        "nginx not found at /usr/sbin/nginx: run 'sudo apt-get update && sudo apt-get install -y nginx' (or set NGINX_PATH), then run the command again",
      );
      expect(commands).toEqual([]);
    }
  });

  it("stops after a failed apt-get update, and reports a failed install or one that left no binary", async () => {
    const update = machine({ updateExit: 100 });
    const updated = await ensureNginx(update.deps, "/usr/sbin/nginx");
    expect(!updated.ok && updated.message).toContain("'apt-get update' failed (exit 100)");
    expect(update.commands).toEqual(["[noninteractive] apt-get update"]);
    const failed = await ensureNginx(machine({ installExit: 100 }).deps, "/usr/sbin/nginx");
    expect(!failed.ok && failed.message).toContain("'apt-get install -y nginx' failed (exit 100)");
    const empty = await ensureNginx(machine({ installCreates: false }).deps, "/usr/sbin/nginx");
    expect(!empty.ok && empty.message).toContain("still missing");
  });

  it("does not install for an NGINX_PATH elsewhere: apt-get would not put it there", async () => {
    const { deps, commands } = machine();
    const result = await ensureNginx(deps, "/opt/nginx/sbin/nginx");
    expect(!result.ok && result.message).toContain("NGINX_PATH=/opt/nginx/sbin/nginx");
    expect(commands).toEqual([]);
  });
});
