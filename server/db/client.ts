import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { logger } from "../logger";
import { acquireDataDirLock } from "./lock";
import * as schema from "./schema";

/** The one database type the services use, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Applies the committed migrations; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: "postgres"; url: string; max?: number }
  | { kind: "pglite"; dataDir: string }
  | { kind: "pglite-memory"; loadDataDir?: Blob };

/** Where the committed migrations live, found from the project root (source and bundle alike). */
export function migrationsFolder(): string {
  const candidates = [
    process.env.MIGRATIONS_DIR,
    path.resolve(process.cwd(), "server/db/migrations"),
    path.resolve(path.dirname(new URL(import.meta.url).pathname), "migrations"),
  ];
  const found = candidates.find((dir) => dir && fs.existsSync(path.join(dir, "meta/_journal.json")));
  if (!found)
    throw new Error(`Cannot find the database migrations (looked in ${candidates.filter(Boolean).join(", ")})`);
  return found;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    // A connection attempt to an unreachable server gives up after 5 s, so requests answer a 503
    // instead of hanging (docs/operations.md, "When the database is unreachable").
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? 10,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    // An idle connection that the server ends (a restart, a failover, an administrator) is an
    // 'error' on the pool; unhandled, it would crash the process. The pool replaces the
    // connection on the next query, so a warning is all it takes.
    pool.on("error", (error) => {
      logger.warn({ err: error }, "an idle database connection was closed by the server");
    });
    // Fail fast with the driver's message (wrong host, database missing) instead of at first query.
    try {
      const probe = await pool.connect();
      probe.release();
    } catch (error) {
      await pool.end().catch(() => {});
      const where = new URL(options.url);
      where.password = where.password ? "***" : "";
      throw new Error(`Could not connect to PostgreSQL at ${where.toString()}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const db = drizzlePg({ client: pool, schema });
    return {
      db: db as unknown as Database,
      kind: "postgres",
      migrate: () => migratePg(db, { migrationsFolder: migrationsFolder() }),
      close: () => pool.end(),
    };
  }

  let release = () => {};
  let client: PGlite;
  if (options.kind === "pglite") {
    release = acquireDataDirLock(options.dataDir);
    try {
      client = await PGlite.create(path.join(options.dataDir, "pglite"));
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  }
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: migrationsFolder() }),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** The database the configuration asks for: PostgreSQL when DATABASE_URL is set, else PGlite. */
export function databaseOptionsFromConfig(config: {
  DATABASE_URL?: string | undefined;
  dataDir: string;
}): DatabaseOptions {
  return config.DATABASE_URL
    ? { kind: "postgres", url: config.DATABASE_URL }
    : { kind: "pglite", dataDir: config.dataDir };
}
