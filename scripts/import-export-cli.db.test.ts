/**
 * npm run import and npm run export on an embedded database in a temporary DATA_DIR (always
 * PGlite: the lock they must respect only exists there). In this process, but for one real command
 * line of each: the import refused while another process holds the database (this one would take
 * over a lock with its own pid, server/db/lock.ts), and the export to standard output.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand, runScript } from "../tests/setup/cli";
import { parseCsv } from "../server/csv";
import { exportCommand } from "./commands/export";
import { importCommand } from "./commands/import";

const ROOT = path.resolve(".");
const fixture = (name: string) => path.join(ROOT, "tests/fixtures/import", name);
const SLOW = 120_000;

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "import-cli-"));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const run = (command: "import" | "export", args: string[]) =>
  command === "import" ? runCommand(importCommand, args, { dataDir }) : runCommand(exportCommand, args, { dataDir });
/** The same, as `npm run import` or `npm run export` in a child process. */
const spawned = (script: "import" | "export", args: string[]) => runScript(`${script}.ts`, args, { dataDir });

describe("npm run import", { timeout: SLOW }, () => {
  it("prints usage for --help (exit 0) and for a missing FILE (exit 1)", async () => {
    const help = await run("import", ["--help"]);
    expect(help).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Usage: npm run import -- FILE [--dry-run]"),
    });
    const missing = await run("import", []);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Missing FILE\.\n\nUsage: npm run import/);
  });

  it("exits 1 on an unreadable file, before opening the database", async () => {
    const outcome = await run("import", [fixture("does-not-exist.csv")]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("Import failed: ");
    expect(outcome.stderr).toContain("does-not-exist.csv: no such file");
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("exits 0 when every row is accepted", async () => {
    const outcome = await run("import", [fixture("good.csv")]);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("3 rows read: 3 accepted (3 new, 0 updated), 0 rejected.");
    expect(outcome.stdout).toContain("ignored unknown columns: legacy_notes");
  });

  it("exits 2 when rows are rejected, listing each with row, place id and field", async () => {
    const outcome = await run("import", [fixture("bad.ndjson")]);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toContain("8 rows read: 2 accepted (2 new, 0 updated), 6 rejected.");
    expect(outcome.stdout).toContain("row 2 (place_id ChIJbad-lat-0002): latitude: 95 is out of range (-90 to 90)");
    expect(outcome.stdout).toContain('row 3 (place_id ChIJbad-lng-0003): longitude: "abc" is not a number');
    expect(outcome.stdout).toContain(
      "row 5 (place_id ChIJbad-good-0001): place_id: duplicate place_id, first seen on row 1",
    );
    expect(outcome.stdout).toMatch(/row 8: record: is not valid JSON/);
  });

  it("writes nothing with --dry-run", async () => {
    const outcome = await run("import", [fixture("good.ndjson"), "--dry-run"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("nothing was written");
    expect(outcome.stdout).toContain("2 accepted (2 would be new, 0 would be updated)");
  });

  it("refuses, exit 1, while another process holds the embedded database", async () => {
    const lockFile = path.join(dataDir, "db.lock");
    fs.writeFileSync(lockFile, String(process.pid));
    try {
      const outcome = await spawned("import", [fixture("good.json")]);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`is in use by another process (pid ${process.pid})`);
      expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    } finally {
      fs.rmSync(lockFile);
    }
  });
});

describe("npm run export", { timeout: SLOW }, () => {
  it("writes CSV to a file, with what the imports wrote and nothing of the dry run", async () => {
    const out = path.join(dataDir, "export.csv");
    const outcome = await run("export", ["--format", "csv", "--out", out]);
    expect(outcome.stderr).toBe("");
    expect(outcome).toMatchObject({ code: 0, stdout: `Exported 5 locations to ${out}.\n` });
    const ids = parseCsv(fs.readFileSync(out, "utf8"))
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toEqual([
      "ChIJbad-good-0001",
      "ChIJbad-good-0009",
      "ChIJgood-austin-0001",
      "ChIJgood-denver-0002",
      "ChIJgood-nocoords-0003",
    ]);
    expect(fs.readdirSync(dataDir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes GeoJSON to standard output", async () => {
    const outcome = await spawned("export", ["--format", "geojson"]);
    expect(outcome.code).toBe(0);
    expect((JSON.parse(outcome.stdout) as { features: unknown[] }).features).toHaveLength(4);
    expect(outcome.stderr).toBe("Exported 4 locations.\n");
  });

  it("exits 1 on a bad format or output directory, writing no file", async () => {
    const out = path.join(dataDir, "never.xml");
    const outcome = await run("export", ["--format", "xml", "--out", out]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^Unknown --format xml: use csv or geojson\./);
    expect(fs.existsSync(out)).toBe(false);

    const nowhere = await run("export", ["--format", "csv", "--out", path.join(dataDir, "missing-dir", "x.csv")]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("Export failed: Cannot write to the directory");
  });
});
