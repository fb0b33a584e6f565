import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client";

/** Only meaningful on PostgreSQL: PGlite has no server to end a connection. */
describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL connection pool", () => {
  it("survives the server ending an idle connection, and keeps answering", async () => {
    const handle = await openDatabase({ kind: "postgres", url: process.env.TEST_DATABASE_URL!, max: 2 });
    try {
      const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
      const pid = rows(await handle.db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
      // The pool tells of an idle connection the server ended with an 'error', after it has
      // dropped that connection (server/db/client.ts logs it): the next query then gets a new one.
      const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
      const dropped = new Promise<Error>((resolve) => pool.once("error", resolve));
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query("select pg_terminate_backend($1)", [pid]);
      } finally {
        await admin.end();
      }
      expect((await dropped).message).toMatch(/terminat/i);
      const again = rows(await handle.db.execute(sql`select 1 as one`));
      expect(again[0]!.one).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
