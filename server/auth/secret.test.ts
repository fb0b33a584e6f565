import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveAuthSecret } from "./secret";

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-secret-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("resolveAuthSecret", () => {
  it("prefers AUTH_SECRET, else makes one per data folder and keeps it, read once", () => {
    expect(resolveAuthSecret({ AUTH_SECRET: "x".repeat(32), dataDir: "/nowhere", DATABASE_URL: undefined })).toBe(
      "x".repeat(32),
    );
    const one = dataDir();
    const made = resolveAuthSecret({ AUTH_SECRET: undefined, dataDir: one, DATABASE_URL: undefined });
    expect(fs.readFileSync(path.join(one, "auth-secret"), "utf8").trim()).toBe(made);
    // Read from memory afterwards: the page path does not open the file again.
    fs.writeFileSync(path.join(one, "auth-secret"), "y".repeat(64));
    expect(resolveAuthSecret({ AUTH_SECRET: undefined, dataDir: one, DATABASE_URL: undefined })).toBe(made);

    const two = dataDir();
    fs.writeFileSync(path.join(two, "auth-secret"), `${"z".repeat(64)}\n`);
    expect(resolveAuthSecret({ AUTH_SECRET: undefined, dataDir: two, DATABASE_URL: undefined })).toBe("z".repeat(64));
  });
});
