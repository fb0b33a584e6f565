/**
 * npm run seed [-- --reset] [--count N]
 *
 * Loads the demo catalogue into an empty database, or with --reset replaces every demo listing
 * (real listings are never touched).
 */
import { parseArgs } from "node:util";
import { UsageError, runCli } from "../server/cli";
import { getConfig } from "../server/config";
import { databaseOptionsFromConfig, openDatabase } from "../server/db/client";
import { connectDatabase, disconnectDatabase } from "../server/db";
import { ensureDemoData, resetDemoData } from "../server/locations/demo-seed";
import { countLocations } from "../server/locations/repository";
import { notifyLocationsChanged } from "../server/search";

const USAGE = `Usage: npm run seed [-- --reset] [--count N]

Options:
  --reset    replace all demo listings with a fresh demo catalogue (real listings are kept)
  --count N  number of demo listings (default DEMO_COUNT, 3000)
  -h, --help show this help`;

function parseCommandLine(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        reset: { type: "boolean", default: false },
        count: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help" as const;
  const count = values.count === undefined ? getConfig().DEMO_COUNT : Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    throw new UsageError(`--count must be a whole number from 1 to 100000, got "${values.count}".`);
  }
  return { reset: values.reset, count };
}

async function run({ reset, count }: Exclude<ReturnType<typeof parseCommandLine>, "help">): Promise<number> {
  const handle = await connectDatabase(await openDatabase(databaseOptionsFromConfig(getConfig())));
  try {
    await handle.migrate();
    if (reset) {
      const { removed, inserted } = await resetDemoData(handle.db, count);
      console.log(`Removed ${removed} demo listings and loaded ${inserted}.`);
    } else {
      const inserted = await ensureDemoData(handle.db, { mode: "auto", count });
      console.log(
        inserted > 0
          ? `Loaded ${inserted} demo listings.`
          : `The database already holds ${await countLocations()} listings; nothing loaded (use --reset to rebuild the demo listings).`,
      );
    }
    await notifyLocationsChanged(handle.db, { refreshLocal: false });
    return 0;
  } finally {
    await disconnectDatabase();
  }
}

void runCli({ usage: USAGE, failure: "Seeding failed", parse: parseCommandLine, run });
