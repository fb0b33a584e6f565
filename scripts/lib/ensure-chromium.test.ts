import { describe, expect, it } from "vitest";
import { ensureChromium, type EnsureChromiumDeps } from "./ensure-chromium";

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
  const files = new Set(present ? ["/usr/bin/chromium"] : []);
  const commands: string[] = [];
  const deps: EnsureChromiumDeps = {
    exists: (file) => files.has(file),
    isRoot: () => root,
    hasAptGet: () => apt,
    run: async (command, args, env) => {
      commands.push(
        `${env?.DEBIAN_FRONTEND === "noninteractive" ? "[noninteractive] " : ""}${command} ${args.join(" ")}`,
      );
      if (args[0] === "update") return updateExit;
      if (installExit === 0 && installCreates) files.add("/usr/bin/chromium");
      return installExit;
    },
    log: () => {},
  };
  return { deps, commands };
}

describe("ensureChromium", () => {
  it("does nothing when Chromium is there", async () => {
    const { deps, commands } = machine({ present: true });
    expect(await ensureChromium(deps, "/usr/bin/chromium")).toEqual({ ok: true, installed: false });
    expect(commands).toEqual([]);
  });

  it("installs it with apt-get, non-interactively, when root on a machine with apt-get", async () => {
    const { deps, commands } = machine();
    expect(await ensureChromium(deps, "/usr/bin/chromium")).toEqual({ ok: true, installed: true });
    expect(commands).toEqual(["[noninteractive] apt-get update", "[noninteractive] apt-get install -y chromium"]);
  });

  it("asks for the install command, without running anything, when not root", async () => {
    const { deps, commands } = machine({ root: false });
    const result = await ensureChromium(deps, "/usr/bin/chromium");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("sudo apt-get update && sudo apt-get install -y chromium");
    expect(commands).toEqual([]);
  });

  it("asks for the install command when apt-get is missing", async () => {
    const { deps, commands } = machine({ apt: false });
    const result = await ensureChromium(deps, "/usr/bin/chromium");
    expect(!result.ok && result.message).toMatch(/^Chromium not found at \/usr\/bin\/chromium: run '/);
    expect(commands).toEqual([]);
  });

  it("stops after a failed apt-get update", async () => {
    const { deps, commands } = machine({ updateExit: 100 });
    const result = await ensureChromium(deps, "/usr/bin/chromium");
    expect(!result.ok && result.message).toContain("'apt-get update' failed (exit 100)");
    expect(commands).toEqual(["[noninteractive] apt-get update"]);
  });

  it("reports a failed install, and an install that left no binary", async () => {
    const failed = await ensureChromium(machine({ installExit: 100 }).deps, "/usr/bin/chromium");
    expect(!failed.ok && failed.message).toContain("'apt-get install -y chromium' failed (exit 100)");
    const empty = await ensureChromium(machine({ installCreates: false }).deps, "/usr/bin/chromium");
    expect(!empty.ok && empty.message).toContain("still missing");
  });

  it("does not install for a CHROME_PATH elsewhere: apt-get would not put it there", async () => {
    const { deps, commands } = machine();
    const result = await ensureChromium(deps, "/opt/chrome/chrome");
    expect(!result.ok && result.message).toContain("CHROME_PATH=/opt/chrome/chrome");
    expect(commands).toEqual([]);
  });
});
