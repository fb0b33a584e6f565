import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../db/client";
import {
  publicSequences,
  publicTables,
  qualified,
  quoteIdent,
  rowsOf,
  sequenceState,
  useExactTextOutput,
  type Executor,
  type TableInfo,
} from "./catalog";
import { imageManifest, privateManifestFromDirectory, type FileStores } from "./files";
import { BACKUP_FORMAT, BACKUP_VERSION, LineHasher, type BackupHeader, type ManifestEntry } from "./format";
import { appliedLevel, codeMigrations } from "./migrations";

/** Rows fetched from the cursor at a time: memory holds one batch, never a table. */
const FETCH_ROWS = 1000;

export interface BackupSummary {
  header: BackupHeader;
  rows: number;
  files: { images: number; private: number };
}

/** The database has nothing a backup could describe (no migrations applied). */
export class NothingToBackUpError extends Error {
  override name = "NothingToBackUpError";
}

/**
 * Writes a backup of every table of the public schema, read in one snapshot (REPEATABLE READ,
 * READ ONLY: on PostgreSQL the site may keep running; PGlite is held by this process alone), and
 * the file stores' manifest, to `out` as gzip'd NDJSON (server/backup/format.ts). Resolves once
 * `out` has every byte; a failure leaves it incomplete (the caller writes to a temporary file).
 */
export async function writeBackup(
  handle: Pick<DatabaseHandle, "db" | "kind">,
  stores: FileStores,
  out: Writable,
  now = new Date(),
): Promise<BackupSummary> {
  const { db } = handle;
  return db.transaction(
    async (tx) => {
      await useExactTextOutput(tx);
      const level = await appliedLevel(tx);
      if (!level) throw new NothingToBackUpError("The database has no migrations applied: there is nothing to back up");
      const tag = codeMigrations().find((m) => m.createdAt === level.createdAt)?.tag ?? null;
      const tables = await publicTables(tx);
      const counts = new Map<string, number>();
      for (const table of tables) {
        const [row] = await rowsOf<{ n: string }>(
          tx,
          sql.raw(`select count(*)::text as n from ${qualified(table.name)}`),
        );
        counts.set(table.name, Number(row!.n));
      }
      const sequences = [];
      for (const sequence of await publicSequences(tx))
        sequences.push({ name: sequence.name, ...(await sequenceState(tx, sequence.name)) });
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: now.toISOString(),
        source: handle.kind,
        migration: { tag, hash: level.hash, createdAt: level.createdAt },
        tables: tables.map((t) => ({ name: t.name, rows: counts.get(t.name)! })),
        sequences,
      };
      const files = { images: 0, private: 0 };
      async function* lines(): AsyncGenerator<string> {
        const hasher = new LineHasher();
        yield hasher.line(JSON.stringify(header));
        for (const table of tables) {
          const rows = counts.get(table.name)!;
          yield hasher.line(JSON.stringify({ table: table.name, columns: table.columns, rows }));
          let written = 0;
          for await (const row of tableRows(tx, table)) {
            if (row.includes("\n")) throw new Error(`A row of ${table.name} has a raw line break in its JSON`);
            written++;
            yield hasher.line(row);
          }
          if (written !== rows)
            throw new Error(`${table.name} changed during the backup (${rows} rows counted, ${written} read)`);
        }
        const images = await imageManifest(stores.images);
        files.images = images.length;
        yield* manifestLines(hasher, "images", "list", images);
        const privateFiles = stores.privateDir
          ? await privateManifestFromDirectory(stores.private, stores.privateDir)
          : await privateManifestFromDatabase(tx);
        files.private = privateFiles.length;
        yield* manifestLines(hasher, "private", stores.privateDir ? "directory" : "claim_evidence", privateFiles);
        yield hasher.trailer();
      }
      await pipeline(Readable.from(lines()), createGzip(), out);
      return { header, rows: [...counts.values()].reduce((a, b) => a + b, 0), files };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

function* manifestLines(
  hasher: LineHasher,
  store: "images" | "private",
  source: string,
  entries: ManifestEntry[],
): Generator<string> {
  yield hasher.line(JSON.stringify({ store, source, files: entries.length }));
  for (const entry of entries) yield hasher.line(JSON.stringify(entry));
}

/** A table's rows as row_to_json text, in primary key order, FETCH_ROWS at a time from a cursor. */
async function* tableRows(tx: Executor, table: TableInfo): AsyncGenerator<string> {
  const order = table.primaryKey.length > 0 ? ` order by ${table.primaryKey.map(quoteIdent).join(", ")}` : "";
  await tx.execute(
    sql.raw(
      `declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${qualified(table.name)} t${order}`,
    ),
  );
  try {
    for (;;) {
      const batch = await rowsOf<{ j: string }>(tx, sql.raw(`fetch forward ${FETCH_ROWS} from backup_rows`));
      for (const row of batch) yield row.j;
      if (batch.length < FETCH_ROWS) break;
    }
  } finally {
    // After a failed statement the transaction is aborted and rolls back anyway.
    await tx.execute(sql`close backup_rows`).catch(() => {});
  }
}

/** With the private files in an object store (no list): the files claim_evidence says are stored. */
async function privateManifestFromDatabase(tx: Executor): Promise<ManifestEntry[]> {
  const rows = await rowsOf<{ key: string; size: string; sha256: string }>(
    tx,
    sql`select storage_key as key, size_bytes::text as size, sha256 from claim_evidence order by storage_key`,
  );
  return rows.map((r) => ({ key: r.key, size: Number(r.size), sha256: r.sha256 }));
}
