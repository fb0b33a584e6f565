import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseLockedError, acquireDataDirLock } from "./lock";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-lock-"));
  dirs.push(dir);
  return dir;
};
/** The pid a lock names (its first line). */
const holder = (dir: string) => fs.readFileSync(path.join(dir, "db.lock"), "utf8").split("\n")[0];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("is taken, released and taken again", () => {
    const dir = tempDir();
    const release = acquireDataDirLock(dir);
    expect(holder(dir)).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);
    acquireDataDirLock(dir)();
  });

  it("refuses while another live process holds it, naming that process", async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"]);
    try {
      fs.writeFileSync(path.join(dir, "db.lock"), String(other.pid));
      expect(() => acquireDataDirLock(dir)).toThrow(DatabaseLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by another process \\(pid ${other.pid}\\)`));
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that has died", async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ["-e", "0"]);
    await new Promise((resolve) => dead.once("exit", resolve));
    fs.writeFileSync(path.join(dir, "db.lock"), String(dead.pid));
    const release = acquireDataDirLock(dir);
    expect(holder(dir)).toBe(String(process.pid));
    release();
  });

  // A pid is given out again after its process died (a reboot after a crash makes that likely):
  // the start time written with it tells the new process from the holder.
  it.skipIf(!fs.existsSync("/proc/self/stat"))(
    "takes over a lock whose pid now belongs to another process",
    async () => {
      const dir = tempDir();
      const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"]);
      try {
        await new Promise((resolve) => other.once("spawn", resolve));
        const lockFile = path.join(dir, "db.lock");
        fs.writeFileSync(lockFile, `${other.pid}\n1`);
        acquireDataDirLock(dir)();
        // The same pid with its own start time still holds it.
        const start = fs.readFileSync(`/proc/${other.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19];
        fs.writeFileSync(lockFile, `${other.pid}\n${start}`);
        expect(() => acquireDataDirLock(dir)).toThrow(DatabaseLockedError);
      } finally {
        other.kill();
      }
    },
  );
});
