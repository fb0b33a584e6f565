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
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("is taken, released and taken again", () => {
    const dir = tempDir();
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, "db.lock"), "utf8")).toBe(String(process.pid));
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
    expect(fs.readFileSync(path.join(dir, "db.lock"), "utf8")).toBe(String(process.pid));
    release();
  });
});
