// npm run seed [-- --reset] [--count N]
// Loads the demo catalogue into an empty database, or with --reset replaces every demo listing
// (real listings are never touched).
import { parseArgs } from "node:util";
import { getConfig } from "../server/config";
import { databaseOptionsFromConfig, openDatabase } from "../server/db/client";
import { countLocations } from "../server/locations/repository";
import { ensureDemoData, resetDemoData } from "../server/locations/demo-seed";
import { connectDatabase, disconnectDatabase } from "../server/db";

const usage =
  "Usage: npm run seed [-- --reset] [--count N]\n  --reset    replace all demo listings with a fresh demo catalogue\n  --count N  number of demo listings (default DEMO_COUNT, 3000)";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { reset: { type: "boolean" }, count: { type: "string" }, help: { type: "boolean" } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 1;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const config = getConfig();
  const size = values.count === undefined ? config.DEMO_COUNT : Number(values.count);
  if (!Number.isInteger(size) || size < 1 || size > 100_000) {
    console.error(`--count must be a whole number from 1 to 100000, got "${values.count}"`);
    return 1;
  }
  const handle = await connectDatabase(await openDatabase(databaseOptionsFromConfig(config)));
  try {
    await handle.migrate();
    if (values.reset) {
      const { removed, inserted } = await resetDemoData(handle.db, size);
      console.log(`Removed ${removed} demo listings and loaded ${inserted}.`);
    } else {
      const inserted = await ensureDemoData(handle.db, { mode: "auto", count: size });
      console.log(
        inserted > 0
          ? `Loaded ${inserted} demo listings.`
          : `The database already holds ${await countLocations()} listings; nothing loaded (use --reset to rebuild the demo listings).`,
      );
    }
    return 0;
  } finally {
    await disconnectDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
