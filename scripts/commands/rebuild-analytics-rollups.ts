/**
 * npm run analytics:rebuild-rollups
 *
 * Recomputes the admin analytics roll-ups (docs/decisions/017-admin-analytics-rollups.md) from
 * the tables they add up, in one transaction: a repair after rows were written with the triggers
 * disabled (a bulk load with `session_replication_role = replica`, say). The triggers keep them
 * right otherwise. On PGlite, stop the site first (one process per data directory).
 */
import { rebuildAnalyticsRollups } from "../../server/analytics/rollups";
import { writeLine, type CliIo, type CliSpec, parseOptionsCommand, withCommandDatabase } from "../../server/cli";
import { parseConfig } from "../../server/config";

const USAGE = `Usage: npm run analytics:rebuild-rollups

Recomputes the admin analytics roll-ups (monthly listing counters, platform days, traffic sources
per day from the raw events kept, search demand per month and day, visitors per settled day).`;

/** No arguments: -h/--help, or anything else is a usage error. */
const parse = (argv: string[]) => parseOptionsCommand(argv, {});

async function run(_command: object, io: CliIo): Promise<number> {
  return withCommandDatabase(parseConfig(io.env), async (db) => {
    const started = Date.now();
    await rebuildAnalyticsRollups(db);
    writeLine(io.stdout, `Rebuilt the analytics roll-ups in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  });
}

export const rebuildAnalyticsRollupsCommand: CliSpec<object> = { usage: USAGE, failure: "Rebuild failed", parse, run };
