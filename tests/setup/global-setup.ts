import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../server/db/client";

/** Builds the pre-migrated PGlite template once per test run (see tests/setup/db.ts). */
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return;
  const templatePath = path.resolve(".tmp/pglite-template.tar.gz");
  const handle = await openDatabase({ kind: "pglite-memory" });
  await handle.migrate();
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: string): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir("gzip");
  await handle.close();
  fs.mkdirSync(path.dirname(templatePath), { recursive: true });
  fs.writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = templatePath;
}
