import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { publicSequences, publicTables, qualified, quoteIdent, rowsOf, type Executor, type TableInfo } from "./catalog";
import { ManifestChecker, type FileStores, type ManifestCheck } from "./files";
import { BackupFileError, readBackup, type BackupHeader } from "./format";
import { appliedLevel, applyMigrations, codeMigrations, type Migration } from "./migrations";

/** The restore will not go ahead (the database or the backup does not fit); nothing was written. */
export class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

export interface RestorePlan {
  header: BackupHeader;
  migrations: Migration[];
  /** Index in `migrations` of the backup's level. */
  level: number;
  /** Set when the backup's migration file differs from this code's (edited after it was applied). */
  warning?: string;
}

const describeLevel = (migrations: Migration[], createdAt: number, tag: string | null) =>
  migrations.find((m) => m.createdAt === createdAt)?.tag ?? tag ?? `of ${new Date(createdAt).toISOString()}`;

/** Finds the backup's migration among this code's, or refuses with what to do instead. */
export function planRestore(header: BackupHeader, migrations = codeMigrations()): RestorePlan {
  const level = migrations.findIndex((m) => m.createdAt === header.migration.createdAt);
  const newest = migrations.at(-1);
  const backupLevel = describeLevel(migrations, header.migration.createdAt, header.migration.tag);
  if (level < 0) {
    if (!newest || header.migration.createdAt > newest.createdAt)
      throw new RestoreRefusedError(
        `The backup was made at migration ${backupLevel}, newer than this code's newest (${newest?.tag ?? "none"}): ` +
          `restore it with the version of the site that made it, or a later one`,
      );
    throw new RestoreRefusedError(`The backup was made at migration ${backupLevel}, which this code does not have`);
  }
  const migration = migrations[level]!;
  const warning =
    migration.hash === header.migration.hash
      ? undefined
      : `The migration file ${migration.tag}.sql differs from the one the backup's database applied (edited since?); restoring anyway`;
  return { header, migrations, level, ...(warning ? { warning } : {}) };
}

export interface RestoreSummary {
  rows: number;
  tables: number;
  /** Migrations applied before the rows were loaded (up to the backup's level). */
  migratedTo: string[];
  /** This code's migrations newer than the backup, applied after the rows were loaded. */
  migratedAfter: string[];
  /** Tables that held rows and were emptied (with force). */
  emptied: string[];
  files: ManifestCheck;
}

/**
 * Restores the backup `file` (checked beforehand by verifyBackup, which gave `plan.header`) into
 * `db`, all in one transaction: migrations up to the backup's level, the rows (tables in
 * foreign-key order, their own triggers off so the analytics roll-ups are copied rather than
 * added to), sequences, then this code's later migrations. Any failure, a corrupt file included,
 * rolls everything back.
 */
export async function restoreBackup(
  db: Database,
  file: string,
  plan: RestorePlan,
  { force, stores }: { force: boolean; stores: FileStores },
): Promise<RestoreSummary> {
  const { header, migrations, level } = plan;
  const backupTag = migrations[level]!.tag;
  return db.transaction(async (tx) => {
    const applied = await appliedLevel(tx);
    const current = applied ? migrations.findIndex((m) => m.createdAt === applied.createdAt) : -1;
    if (applied && current < 0)
      throw new RestoreRefusedError(
        applied.createdAt > migrations.at(-1)!.createdAt
          ? "The database was migrated by a newer version of the site than this one: restore with that version"
          : "The database has a migration this code does not have: restore into a new, empty database",
      );
    if (current > level)
      throw new RestoreRefusedError(
        `The database is at migration ${migrations[current]!.tag}, newer than the backup's ${backupTag}, and migrations ` +
          `cannot be undone: restore into a new, empty database (PostgreSQL: a new database in DATABASE_URL; ` +
          `PGlite: an empty DATA_DIR); this code's later migrations are applied after the rows are loaded`,
      );

    const emptied = applied ? await tablesWithRows(tx, await publicTables(tx)) : [];
    if (emptied.length > 0 && !force) {
      const shown = emptied.slice(0, 5).join(", ") + (emptied.length > 5 ? `, and ${emptied.length - 5} more` : "");
      throw new RestoreRefusedError(
        `The database already holds data (in ${shown}). A restore replaces all of it: pass --force to empty it first`,
      );
    }
    if (emptied.length > 0) {
      const all = await publicTables(tx);
      await tx.execute(sql.raw(`truncate table ${all.map((t) => qualified(t.name)).join(", ")} restart identity`));
    }
    const before = migrations.slice(current + 1, level + 1);
    await applyMigrations(tx, before);

    const tables = await publicTables(tx);
    checkSameTables(tables, header, backupTag);
    const byName = new Map(tables.map((t) => [t.name, t]));
    const withTriggers = tables.filter((t) => t.hasTriggers);
    for (const t of withTriggers) await tx.execute(sql.raw(`alter table ${qualified(t.name)} disable trigger user`));

    const checker = new ManifestChecker(stores);
    let rows = 0;
    let insert: ((json: string) => Promise<void>) | undefined;
    let complete = false;
    for await (const event of readBackup(file)) {
      if (event.type === "header") {
        if (JSON.stringify(event.header) !== JSON.stringify(header))
          throw new BackupFileError(`${file}: it changed while it was being restored`);
      } else if (event.type === "table") {
        const table = byName.get(event.name)!;
        checkSameColumns(table, event.columns, backupTag);
        insert = inserter(tx, table);
      } else if (event.type === "rows") {
        await insert!(`[${event.rows.join(",")}]`);
        rows += event.rows.length;
      } else if (event.type === "file") {
        await checker.add(event.store, event.entry);
      } else if (event.type === "end") complete = true;
    }
    // readBackup throws rather than end early; this only guards against a change to it.
    if (!complete) throw new BackupFileError(`${file}: it ends before its trailer`);

    await restoreSequences(tx, header);
    for (const t of withTriggers) await tx.execute(sql.raw(`alter table ${qualified(t.name)} enable trigger user`));
    const after = migrations.slice(level + 1);
    await applyMigrations(tx, after);
    // Fresh planner statistics, so the first queries after the restore do not guess.
    await tx.execute(sql`analyze`);
    return {
      rows,
      tables: tables.length,
      migratedTo: before.map((m) => m.tag),
      migratedAfter: after.map((m) => m.tag),
      emptied,
      files: await checker.finish(),
    };
  });
}

async function tablesWithRows(tx: Executor, tables: TableInfo[]): Promise<string[]> {
  const holding: string[] = [];
  for (const t of tables) {
    const [row] = await rowsOf<{ any: boolean }>(
      tx,
      sql.raw(`select exists (select 1 from ${qualified(t.name)}) as any`),
    );
    if (row!.any) holding.push(t.name);
  }
  return holding;
}

function checkSameTables(tables: TableInfo[], header: BackupHeader, tag: string): void {
  const here = new Set(tables.map((t) => t.name));
  const there = new Set(header.tables.map((t) => t.name));
  const unknown = [...there].filter((name) => !here.has(name));
  const absent = [...here].filter((name) => !there.has(name));
  if (unknown.length > 0)
    throw new RestoreRefusedError(
      `The backup holds tables that the migrations up to ${tag} do not create: ${unknown.join(", ")}`,
    );
  if (absent.length > 0)
    throw new RestoreRefusedError(
      `The backup lacks tables that the migrations up to ${tag} create: ${absent.join(", ")}`,
    );
}

function checkSameColumns(table: TableInfo, columns: string[], tag: string): void {
  const here = new Set(table.columns);
  const there = new Set(columns);
  const differ = [...there].filter((c) => !here.has(c)).concat([...here].filter((c) => !there.has(c)));
  if (differ.length > 0)
    throw new RestoreRefusedError(
      `The backup's table ${table.name} has other columns than the migrations up to ${tag} give it (${differ.join(", ")})`,
    );
}

/** Inserts a JSON array of rows (row_to_json's shape) into `table`: one statement per batch. */
function inserter(tx: Executor, table: TableInfo): (json: string) => Promise<void> {
  const columns = table.insertable.map(quoteIdent).join(", ");
  const overriding = table.identityAlways ? " overriding system value" : "";
  const head = sql.raw(
    `insert into ${qualified(table.name)} (${columns})${overriding} select ${columns} from json_populate_recordset(null::${qualified(table.name)}, `,
  );
  return async (json) => {
    await tx.execute(sql`${head}${json}::json)`);
  };
}

/**
 * Every sequence as the backup recorded it (so invoice numbers and ids of deleted rows are not
 * handed out again), and never below the largest value of the column it numbers.
 */
async function restoreSequences(tx: Executor, header: BackupHeader): Promise<void> {
  const saved = new Map(header.sequences.map((s) => [s.name, s]));
  const sequences = await publicSequences(tx);
  const unknown = [...saved.keys()].filter((name) => !sequences.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new RestoreRefusedError(`The backup holds sequences the migrations do not create: ${unknown.join(", ")}`);
  for (const sequence of sequences) {
    const state = saved.get(sequence.name);
    let value = state ? BigInt(state.lastValue) : null;
    let isCalled = state?.isCalled ?? true;
    if (sequence.owner) {
      const [row] = await rowsOf<{ max: string | null }>(
        tx,
        sql.raw(
          `select max(${quoteIdent(sequence.owner.column)})::text as max from ${qualified(sequence.owner.table)}`,
        ),
      );
      const max = row?.max == null ? null : BigInt(row.max);
      const used = value === null ? null : isCalled ? value : value - 1n;
      if (max !== null && (used === null || used < max)) {
        value = max;
        isCalled = true;
      }
    }
    if (value !== null)
      await tx.execute(
        sql`select setval(${qualified(sequence.name)}::regclass, ${value.toString()}::bigint, ${isCalled})`,
      );
  }
}
