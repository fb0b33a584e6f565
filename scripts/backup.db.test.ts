/**
 * Backups and restores (docs/operations.md, Backups): a database filled through the services is
 * backed up and restored into a new one, and every table of information_schema's public schema,
 * every sequence and the migration records compare equal; bad files, full databases and backups of
 * other migration levels are refused with nothing written. On PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL (then also PGlite to PostgreSQL and back).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../tests/setup/db";
import { writeBackup } from "../server/backup/backup";
import { rowsOf } from "../server/backup/catalog";
import { ManifestChecker, type FileStores } from "../server/backup/files";
import { BackupFileError, verifyBackup, type BackupHeader } from "../server/backup/format";
import { appliedLevel, applyMigrations, codeMigrations } from "../server/backup/migrations";
import { RestoreRefusedError, planRestore, restoreBackup, type RestoreSummary } from "../server/backup/restore";
import { fill, snapshotOf, storesIn, type Snapshot } from "../server/backup/test-support";
import { insertPerson } from "../server/claims/test-support";
import { openDatabase, type Database, type DatabaseHandle } from "../server/db/client";
import { listingReports } from "../server/db/schema";

const SLOW = 240_000;
const POSTGRES = process.env.TEST_DATABASE_URL;
const KIND = POSTGRES ? "PostgreSQL" : "PGlite";

let work: string;
let seq = 0;
const tempFile = (name: string) => path.join(work, `${++seq}-${name}`);
const opened: DatabaseHandle[] = [];

/** A database with nothing in it, not even migrations: what a restore starts from. */
async function emptyDatabase(kind: "pglite" | "postgres" = POSTGRES ? "postgres" : "pglite"): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (kind === "pglite") handle = await openDatabase({ kind: "pglite-memory" });
  else {
    const name = `rvtest_backup_${Date.now()}_${randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end());
    const url = new URL(POSTGRES!);
    url.pathname = `/${name}`;
    const inner = await openDatabase({ kind: "postgres", url: url.toString(), max: 2 });
    handle = {
      ...inner,
      close: async () => {
        await inner.close();
        const dropper = new pg.Client({ connectionString: POSTGRES });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => dropper.end());
      },
    };
  }
  opened.push(handle);
  return handle;
}

async function backUp(handle: DatabaseHandle, stores: FileStores) {
  const file = tempFile("backup.ndjson.gz");
  const summary = await writeBackup(handle, stores, fs.createWriteStream(file));
  return { file, summary };
}

async function restore(
  handle: DatabaseHandle,
  file: string,
  stores: FileStores,
  force = false,
): Promise<RestoreSummary> {
  const { header } = await verifyBackup(file);
  return restoreBackup(handle.db, file, planRestore(header), { force, stores });
}

/** The backup's lines, to make damaged copies of it. */
const linesOf = (file: string) => gunzipSync(fs.readFileSync(file)).toString("utf8").split("\n");
function writeLines(lines: string[]): string {
  const file = tempFile("edited.ndjson.gz");
  fs.writeFileSync(file, gzipSync(lines.join("\n")));
  return file;
}

let source: DatabaseHandle;
let sourceStores: FileStores;
let expected: Snapshot;
let good: Awaited<ReturnType<typeof backUp>>;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "backup-test-"));
  source = await createTestDatabase();
  opened.push(source);
  sourceStores = storesIn(path.join(work, "source-files"));
  await fill(source.db, sourceStores);
  expected = await snapshotOf(source.db);
  good = await backUp(source, sourceStores);
}, SLOW);
afterAll(async () => {
  for (const handle of opened.reverse()) await handle.close().catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
});

describe(`backup and restore (${KIND})`, { timeout: SLOW }, () => {
  it("restores into a new database with every table, sequence and migration record equal", async () => {
    const nonEmpty = Object.entries(expected.tables)
      .filter(([, t]) => t.rows > 0)
      .map(([name]) => name);
    for (const table of ["users", "accounts", "sessions", "locations", "claims", "claim_evidence", "analytics_events"])
      expect(nonEmpty).toContain(table);
    for (const table of ["analytics_sessions", "location_metrics_monthly", "articles", "leads", "email_outbox"])
      expect(nonEmpty).toContain(table);
    for (const table of ["audit_log", "listing_reports"]) expect(nonEmpty).toContain(table);

    const { file, summary } = good;
    expect(summary.header).toMatchObject({ source: source.kind, migration: { tag: codeMigrations().at(-1)!.tag } });
    expect(summary.header.tables.map((t) => t.name).sort()).toEqual(Object.keys(expected.tables));
    expect(summary.rows).toBe(Object.values(expected.tables).reduce((sum, t) => sum + t.rows, 0));
    expect(summary.files).toEqual({ images: 2, private: 1 });

    const target = await emptyDatabase();
    const restored = await restore(target, file, sourceStores);
    expect(restored).toMatchObject({ rows: summary.rows, migratedAfter: [], emptied: [] });
    expect(restored.migratedTo).toHaveLength(codeMigrations().length);
    expect(restored.files).toMatchObject({ checked: 3, missingCount: 0, changedCount: 0 });
    expect(await snapshotOf(target.db)).toEqual(expected);

    // The site's own migrator finds nothing to do, and numbers continue where they were.
    await target.migrate();
    expect((await snapshotOf(target.db)).migrations).toEqual(expected.migrations);
    const next = async (db: Database) =>
      (await rowsOf<{ n: string }>(db, sql`select nextval('invoice_number_seq')::text as n`))[0]!.n;
    const [id] = await target.db
      .insert(listingReports)
      .values({
        locationId: (await rowsOf<{ id: string }>(target.db, sql`select place_id as id from locations limit 1`))[0]!.id,
        kind: "other",
      })
      .returning({ id: listingReports.id });
    expect(id!.id).toBe(3);
    expect(await next(target.db)).toBe("4");
  });

  it("refuses a database that holds data without force, and replaces what it holds with force", async () => {
    const { file } = good;
    const target = await emptyDatabase();
    await restore(target, file, sourceStores);
    await insertPerson(target.db, { email: "stranger@example.com" });
    const before = await snapshotOf(target.db);

    await expect(restore(target, file, sourceStores)).rejects.toThrow(
      /^The database already holds data \(in analytics_events, [a-z_, ]+, and \d+ more\)\. A restore replaces all of it: pass --force to empty it first$/,
    );
    expect(await snapshotOf(target.db)).toEqual(before);

    const forced = await restore(target, file, sourceStores, true);
    expect(forced.emptied).toContain("users");
    expect(await snapshotOf(target.db)).toEqual(expected);
  });

  it("refuses missing, foreign, truncated, altered and newer-format files, naming the problem", async () => {
    const { file } = good;
    const lines = linesOf(file);
    const plain = tempFile("plain.txt");
    fs.writeFileSync(plain, "place_id,name\n");
    const foreign = tempFile("foreign.ndjson.gz");
    fs.writeFileSync(foreign, gzipSync('{"hello":"world"}\n'));
    const cut = tempFile("cut.ndjson.gz");
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const header = JSON.parse(lines[0]!) as BackupHeader;
    // A row still valid and insertable, one letter changed: only the checksum can tell.
    const rowLine = lines.findIndex((line, i) => i > 1 && line.includes('"name":"') && !line.startsWith('{"table"'));
    const altered = [...lines];
    altered[rowLine] = altered[rowLine]!.replace('"name":"', '"name":"X');
    expect(altered[rowLine]).not.toBe(lines[rowLine]);

    const cases: [string, RegExp][] = [
      [path.join(work, "no-such.ndjson.gz"), /: there is no such file$/],
      [plain, /: it is not a backup \(not a gzip file\)$/],
      [foreign, /: it is not a backup of this site \(no backup header\)$/],
      [cut, /: it is truncated \(the compressed data ends early\)$/],
      [writeLines(lines.slice(0, -2).concat("")), /: it is truncated \(it ends after line \d+, before the trailer\)$/],
      [writeLines(lines.slice(0, 3).concat("")), /: it is truncated \(it ends after line 3, before the trailer\)$/],
      [writeLines(altered), /: its checksum does not match its content \(corrupt or altered\)$/],
      [
        writeLines([JSON.stringify({ ...header, version: 2 }), ...lines.slice(1)]),
        /: it is in backup format version 2, written by a newer version of the site; this one reads version 1$/,
      ],
    ];
    for (const [bad, message] of cases) {
      const error = await verifyBackup(bad).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, bad).toBeInstanceOf(BackupFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("\n");
    }

    // Restored without the check first, the altered file is found out at the trailer, after every
    // row went in: the one transaction rolls it all back, migrations included.
    const target = await emptyDatabase();
    await expect(
      restoreBackup(target.db, writeLines(altered), planRestore(header), { force: false, stores: sourceStores }),
    ).rejects.toThrow(/checksum does not match/);
    expect(await appliedLevel(target.db)).toBeNull();
    expect(await rowsOf(target.db, sql`select 1 from information_schema.tables where table_schema = 'public'`)).toEqual(
      [],
    );
  });

  it("restores an older backup at its own level, then applies the newer migrations; refuses a newer one", async () => {
    const migrations = codeMigrations();
    const old = await emptyDatabase();
    await old.db.transaction((tx) => applyMigrations(tx, migrations.slice(0, -1)));
    await old.db.execute(
      sql`insert into users (id, name, email, email_verified) values ('u-old', 'Olga', 'olga@example.com', true)`,
    );
    const { file, summary } = await backUp(old, storesIn(path.join(work, "old-files")));
    expect(summary.header.migration.tag).toBe(migrations.at(-2)!.tag);

    const target = await emptyDatabase();
    const restored = await restore(target, file, sourceStores);
    expect(restored.migratedAfter).toEqual([migrations.at(-1)!.tag]);
    expect((await snapshotOf(target.db)).migrations).toEqual(expected.migrations);
    expect(await rowsOf(target.db, sql`select name from users`)).toEqual([{ name: "Olga" }]);

    // Now at the newest level, that database cannot go back to the old backup's, even by force.
    await expect(restore(target, file, sourceStores, true)).rejects.toThrow(
      new RegExp(
        `^The database is at migration ${migrations.at(-1)!.tag}, newer than the backup's ${migrations.at(-2)!.tag}`,
      ),
    );

    const edited = { ...summary.header, migration: { ...summary.header.migration, hash: "0".repeat(64) } };
    expect(planRestore(edited).warning).toBe(
      `The migration file ${migrations.at(-2)!.tag}.sql differs from the one the backup's database applied (edited since?); restoring anyway`,
    );

    const newer = { ...summary.header, migration: { tag: "9999_future", hash: "x", createdAt: Date.now() * 2 } };
    expect(() => planRestore(newer)).toThrow(RestoreRefusedError);
    expect(() => planRestore(newer)).toThrow(
      `The backup was made at migration 9999_future, newer than this code's newest (${migrations.at(-1)!.tag}): ` +
        "restore it with the version of the site that made it, or a later one",
    );
  });

  it("lists the manifest's files that the store lacks or holds with other content", async () => {
    const { file } = good;
    const elsewhere = storesIn(path.join(work, "other-files"));
    const [evidence] = linesOf(file)
      .filter((line) => line.startsWith('{"key":"claims/'))
      .map((line) => JSON.parse(line) as { key: string });
    await elsewhere.private.put(evidence!.key, new TextEncoder().encode("not the same"));
    const target = await emptyDatabase();
    const restored = await restore(target, file, elsewhere);
    expect(restored.files).toMatchObject({ checked: 3, missingCount: 2, changedCount: 1 });
    expect(restored.files.missing.every((key) => key.startsWith("images:"))).toBe(true);
    expect(restored.files.changed).toEqual([`private:${evidence!.key}`]);

    // A store that cannot answer (a bucket out of reach) is reported, and fails no restore.
    const unreachable = new ManifestChecker({
      ...elsewhere,
      images: { ...elsewhere.images, exists: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:9000")) },
    });
    const entry = { key: "place-images/x/w320n1.webp", size: 1, sha256: "0".repeat(64) };
    await unreachable.add("images", entry);
    await unreachable.add("private", { ...entry, key: evidence!.key });
    expect(await unreachable.finish()).toMatchObject({
      checked: 1,
      changedCount: 1,
      failedCount: 1,
      firstError: "images:place-images/x/w320n1.webp: connect ECONNREFUSED 127.0.0.1:9000",
    });
  });

  it("lists private files from claim_evidence when the private store is an object store (no list)", async () => {
    const onBucket = await backUp(source, { ...sourceStores, privateDir: null });
    const privateSection = (file: string) => {
      const lines = linesOf(file);
      const start = lines.findIndex((line) => line.startsWith('{"store":"private"'));
      return lines.slice(start, -2).map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    const [marker, ...entries] = privateSection(onBucket.file);
    expect(marker).toEqual({ store: "private", source: "claim_evidence", files: 1 });
    const [walkedMarker, ...walked] = privateSection(good.file);
    expect(walkedMarker).toEqual({ store: "private", source: "directory", files: 1 });
    expect(entries).toEqual(walked);
  });

  it.skipIf(!POSTGRES)("moves a PGlite database to PostgreSQL and back", async () => {
    const lite = await emptyDatabase("pglite");
    await lite.migrate();
    const stores = storesIn(path.join(work, "lite-files"));
    await fill(lite.db, stores);
    const fromLite = await snapshotOf(lite.db);
    const { file } = await backUp(lite, stores);

    const server = await emptyDatabase("postgres");
    await restore(server, file, stores);
    expect(await snapshotOf(server.db)).toEqual(fromLite);

    const back = await backUp(server, stores);
    expect(back.summary.header.source).toBe("postgres");
    const again = await emptyDatabase("pglite");
    await restore(again, back.file, stores);
    expect(await snapshotOf(again.db)).toEqual(fromLite);
  });
});
