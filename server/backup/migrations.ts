import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrationsFolder } from "../db/client";
import { rowsOf, type Executor } from "./catalog";

/**
 * drizzle's migrations as a restore needs them: applied up to a given one inside the restore's own
 * transaction, recorded in drizzle.__drizzle_migrations exactly as drizzle's migrator records them
 * (hash of the file, the journal's `when` as created_at), so that the site's migrator at start-up
 * sees them as applied.
 */
export interface Migration {
  tag: string;
  hash: string;
  /** The journal's `when`; drizzle compares these to decide what is applied. */
  createdAt: number;
  statements: string[];
}

export interface AppliedLevel {
  hash: string;
  createdAt: number;
}

export function codeMigrations(folder = migrationsFolder()): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return files.map((file, index) => ({
    tag: journal.entries[index]!.tag,
    hash: file.hash,
    createdAt: file.folderMillis,
    statements: file.sql,
  }));
}

/** The last migration recorded in the database, or null when none is (a new, empty database). */
export async function appliedLevel(db: Executor): Promise<AppliedLevel | null> {
  const [table] = await rowsOf<{ exists: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (!table?.exists) return null;
  const [last] = await rowsOf<{ hash: string; created_at: string }>(
    db,
    sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  );
  return last ? { hash: last.hash, createdAt: Number(last.created_at) } : null;
}

/** Applies `migrations` in order, in the caller's transaction, recording each as drizzle does. */
export async function applyMigrations(db: Executor, migrations: Migration[]): Promise<void> {
  await db.execute(sql`create schema if not exists "drizzle"`);
  await db.execute(
    sql`create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const migration of migrations) {
    for (const statement of migration.statements) await db.execute(sql.raw(statement));
    await db.execute(
      sql`insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values (${migration.hash}, ${migration.createdAt})`,
    );
  }
}
