/**
 * npm run backup and npm run restore on embedded databases in temporary DATA_DIRs
 * (docs/operations.md, Backups): exit codes, one-line messages, the lock of a running site, the
 * file manifest checked against DATA_DIR, and --force. In this process, but for one real command
 * line of each (the backup refused for the lock this process holds, the restore of a truncated
 * file: both end before opening a database, which costs a new process far more than this one).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand, runScript } from "../tests/setup/cli";
import { backupCommand } from "./commands/backup";
import { restoreCommand } from "./commands/restore";
import { fill, snapshotOf, storesIn } from "../server/backup/test-support";
import { openDatabase } from "../server/db/client";
import { acquireDataDirLock } from "../server/db/lock";

const SLOW = 300_000;
let work: string;
let source: string;
let backupFile: string;

const snapshotOfDir = async (dataDir: string) => {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    return await snapshotOf(handle.db);
  } finally {
    await handle.close();
  }
};

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "backup-cli-"));
  source = path.join(work, "source");
  backupFile = path.join(work, "backups", "site.ndjson.gz");
  fs.mkdirSync(path.dirname(backupFile));
  const handle = await openDatabase({ kind: "pglite", dataDir: source });
  try {
    await handle.migrate();
    await fill(handle.db, storesIn(source));
  } finally {
    await handle.close();
  }
}, SLOW);
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe("npm run backup / npm run restore", { timeout: SLOW }, () => {
  it("backs up a stopped site's database, and refuses while it runs or without --out", async () => {
    const usage = await runCommand(backupCommand, [], { dataDir: source });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/^Missing --out FILE\.\n\nUsage: npm run backup -- --out FILE/);

    const nothing = await runCommand(backupCommand, ["--out", backupFile], { dataDir: path.join(work, "none") });
    expect(nothing).toMatchObject({
      code: 1,
      stderr: `Backup failed: There is no embedded database in ${path.join(work, "none", "pglite")} (check DATA_DIR).\n`,
    });

    // Another process: this one would take over a lock with its own pid (server/db/lock.ts).
    const release = acquireDataDirLock(source);
    try {
      const locked = await runScript("backup.ts", ["--out", backupFile], { dataDir: source });
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(
        new RegExp(
          `^Backup failed: The embedded database in \\S+ is in use by another process \\(pid ${process.pid}\\)`,
        ),
      );
      expect(fs.readdirSync(path.dirname(backupFile))).toEqual([]);
    } finally {
      release();
    }

    const done = await runCommand(backupCommand, ["--out", backupFile], { dataDir: source });
    expect(done).toMatchObject({ code: 0, stderr: "" });
    expect(done.stdout).toMatch(
      /^Backed up \d+ rows in \d+ tables \(pglite, migration \d{4}_[\w-]+\) and a manifest of 2 images and 1 private files to \S+site\.ndjson\.gz \(\d+\.\d MB, \d+\.\d s\)\.\n$/,
    );
    // Only the finished file: the temporary one was renamed.
    expect(fs.readdirSync(path.dirname(backupFile))).toEqual(["site.ndjson.gz"]);
  });

  it("restores into an empty data directory, names missing files (exit 2), and needs --force to replace data", async () => {
    const target = path.join(work, "target");
    fs.mkdirSync(target);
    const truncated = path.join(work, "truncated.ndjson.gz");
    const bytes = fs.readFileSync(backupFile);
    fs.writeFileSync(truncated, bytes.subarray(0, bytes.length - 100));
    const bad = await runScript("restore.ts", [truncated], { dataDir: target });
    expect(bad).toMatchObject({
      code: 1,
      stderr: `Restore failed: ${truncated}: it is truncated (the compressed data ends early)\n`,
    });
    expect(fs.readdirSync(target)).toEqual([]);

    const first = await runCommand(restoreCommand, [backupFile], { dataDir: target });
    expect(first.code).toBe(2);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Restored \\d+ rows into \\d+ tables from ${backupFile.replaceAll(".", "\\.")} \\(made \\S+ on pglite at migration \\S+\\)\\.\\n$`,
      ),
    );
    expect(first.stderr).toMatch(
      /^Files: 3 of 3 in the manifest are missing from the store: images:blog-images\/cover-1\/w640\.jpg, images:place-images\/\S+\/w320n1\.webp, private:claims\/\S+\.\nCopy them back from your file backup \(docs\/operations\.md, Backups\)\.\n$/,
    );
    expect(await snapshotOfDir(target)).toEqual(await snapshotOfDir(source));

    for (const folder of ["place-images", "blog-images", "private"])
      fs.cpSync(path.join(source, folder), path.join(target, folder), { recursive: true });
    const again = await runCommand(restoreCommand, [backupFile], { dataDir: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^Restore failed: The database already holds data \(in [a-z_, 0-9]+\)\. A restore replaces all of it: pass --force to empty it first\n$/,
    );

    // The search index's snapshot of the data being replaced goes with it.
    const searchSnapshot = path.join(target, "search-index.snapshot");
    fs.writeFileSync(searchSnapshot, "the index of the catalogue before the restore");
    const forced = await runCommand(restoreCommand, [backupFile, "--force"], { dataDir: target });
    expect(forced).toMatchObject({ code: 0, stderr: "" });
    expect(forced.stdout).toContain("\nEmptied first (--force): ");
    expect(forced.stdout).toContain(`\nRemoved ${searchSnapshot}: the next start builds the search index`);
    expect(fs.existsSync(searchSnapshot)).toBe(false);
    expect(forced.stdout).toMatch(/\nFiles: all 3 of the manifest are in the store\.\n$/);
    expect(await snapshotOfDir(target)).toEqual(await snapshotOfDir(source));
  });
});
