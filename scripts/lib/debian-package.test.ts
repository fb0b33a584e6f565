import { describe, expect, it } from "vitest";
import { CHROMIUM, NGINX, ensureDebianProgram, type DebianProgram, type SystemDeps } from "./debian-package";

/** A machine described by flags; `run` records each command and can make `apt-get install` create the file. */
function machine(
  program: DebianProgram,
  {
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
  }> = {},
) {
  const files = new Set(present ? [program.binary] : []);
  const commands: string[] = [];
  const deps: SystemDeps = {
    exists: (file) => files.has(file),
    isRoot: () => root,
    hasAptGet: () => apt,
    run: async (command, args, env) => {
      commands.push(
        `${env?.DEBIAN_FRONTEND === "noninteractive" ? "[noninteractive] " : ""}${command} ${args.join(" ")}`,
      );
      if (args[0] === "update") return updateExit;
      if (installExit === 0 && installCreates) files.add(program.binary);
      return installExit;
    },
    log: () => {},
  };
  return { deps, commands };
}

describe.each([CHROMIUM, NGINX])("ensureDebianProgram($label)", (program) => {
  it("does nothing when it is there", async () => {
    const { deps, commands } = machine(program, { present: true });
    expect(await ensureDebianProgram(program, deps)).toEqual({ ok: true, installed: false });
    expect(commands).toEqual([]);
  });

  it("installs Debian's package with apt-get, non-interactively, when root on a machine with apt-get", async () => {
    const { deps, commands } = machine(program);
    expect(await ensureDebianProgram(program, deps)).toEqual({ ok: true, installed: true });
    expect(commands).toEqual([
      "[noninteractive] apt-get update",
      `[noninteractive] apt-get install -y ${[...(program.installOptions ?? []), program.package].join(" ")}`,
    ]);
  });

  it("says in one line how to install it, without running anything, when not root or without apt-get", async () => {
    for (const flags of [{ root: false }, { apt: false }]) {
      const { deps, commands } = machine(program, flags);
      const result = await ensureDebianProgram(program, deps);
      expect(!result.ok && result.message).toBe(
        `${program.label} not found at ${program.binary}: run 'sudo apt-get update && sudo apt-get install -y ${program.package}' (or set ${program.pathVariable}), then ${program.rerun}`,
      );
      expect(commands).toEqual([]);
    }
  });

  it("stops after a failed apt-get update, and reports a failed install or one that left no binary", async () => {
    const update = machine(program, { updateExit: 100 });
    const updated = await ensureDebianProgram(program, update.deps);
    expect(!updated.ok && updated.message).toBe(
      `'apt-get update' failed (exit 100); ${program.label} is not installed`,
    );
    expect(update.commands).toEqual(["[noninteractive] apt-get update"]);
    const failed = await ensureDebianProgram(program, machine(program, { installExit: 100 }).deps);
    expect(!failed.ok && failed.message).toContain(`'apt-get install -y ${program.package}' failed (exit 100)`);
    const empty = await ensureDebianProgram(program, machine(program, { installCreates: false }).deps);
    expect(!empty.ok && empty.message).toContain(`${program.binary} is still missing`);
  });

  it("does not install for a binary named elsewhere: apt-get would not put it there", async () => {
    const { deps, commands } = machine(program);
    const result = await ensureDebianProgram(program, deps, "/opt/elsewhere/bin");
    expect(!result.ok && result.message).toBe(
      `${program.label} not found at ${program.pathVariable}=/opt/elsewhere/bin: point ${program.pathVariable} at ${program.wanted}`,
    );
    expect(commands).toEqual([]);
  });
});
