import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/client";

/**
 * A fresh, migrated database for one test file.
 *
 * With TEST_DATABASE_URL set, a new PostgreSQL database is created on that server (and dropped on
 * close). Otherwise an in-memory PGlite is loaded from the pre-migrated template that the global
 * setup dumped, because creating and migrating a new PGlite cluster takes seconds.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) return createPostgresDatabase(serverUrl);

  const templatePath = process.env.PGLITE_TEMPLATE ?? path.resolve(".tmp/pglite-template.tar.gz");
  if (!fs.existsSync(templatePath)) {
    const handle = await openDatabase({ kind: "pglite-memory" });
    await handle.migrate();
    return handle;
  }
  return openDatabase({ kind: "pglite-memory", loadDataDir: new Blob([fs.readFileSync(templatePath)]) });
}

/**
 * A new, empty database on the PostgreSQL server at `serverUrl`: its URL (for a child process too)
 * and how to drop it.
 */
export async function createScratchPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rvtest_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

async function createPostgresDatabase(serverUrl: string): Promise<DatabaseHandle> {
  const scratch = await createScratchPostgres(serverUrl);
  const handle = await openDatabase({ kind: "postgres", url: scratch.url, max: 4 });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}
