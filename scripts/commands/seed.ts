/**
 * npm run seed [-- --reset] [--count N]
 *
 * Loads the demo catalogue into an empty database, or with --reset replaces every demo listing
 * (real listings are never touched).
 */
import {
  UsageError,
  writeLine,
  type CliIo,
  type CliSpec,
  parseOptionsCommand,
  withCommandDatabase,
} from "../../server/cli";
import { parseConfig } from "../../server/config";
import { ensureDemoData, resetDemoData } from "../../server/locations/demo-seed";
import { locations } from "../../server/db/schema";
import { notifyLocationsChanged } from "../../server/search";

const USAGE = `Usage: npm run seed [-- --reset] [--count N]

Options:
  --reset    replace all demo listings with a fresh demo catalogue (real listings are kept)
  --count N  number of demo listings (default DEMO_COUNT, 3000)
  -h, --help show this help`;

function parseCommandLine(argv: string[]) {
  const values = parseOptionsCommand(argv, { reset: { type: "boolean", default: false }, count: { type: "string" } });
  if (values === "help") return values;
  return { reset: values.reset, count: values.count === undefined ? undefined : checkCount(values.count) };
}

function checkCount(text: string): number {
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    throw new UsageError(`--count must be a whole number from 1 to 100000, got "${text}".`);
  }
  return count;
}

type SeedCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

async function run(command: SeedCommand, io: CliIo): Promise<number> {
  const { reset } = command;
  const config = parseConfig(io.env);
  // Without --count, DEMO_COUNT of the environment, which may be 0 (no demo data for the site).
  if (command.count === undefined && config.DEMO_COUNT < 1)
    throw new UsageError(`DEMO_COUNT is ${config.DEMO_COUNT}: pass --count N, a whole number from 1 to 100000.`);
  const count = command.count ?? config.DEMO_COUNT;
  return withCommandDatabase(config, async (db) => {
    if (reset) {
      const { removed, inserted } = await resetDemoData(db, count);
      writeLine(io.stdout, `Removed ${removed} demo listings and loaded ${inserted}.`);
    } else {
      const inserted = await ensureDemoData(db, { mode: "auto", count });
      writeLine(
        io.stdout,
        inserted > 0
          ? `Loaded ${inserted} demo listings.`
          : `The database already holds ${await db.$count(locations)} listings; nothing loaded (use --reset to rebuild the demo listings).`,
      );
    }
    await notifyLocationsChanged(db, { refreshLocal: false });
    return 0;
  });
}

export const seedCommand: CliSpec<SeedCommand> = {
  usage: USAGE,
  failure: "Seeding failed",
  parse: parseCommandLine,
  run,
};
