/**
 * npm run auth:purge-anonymous
 *
 * Deletes anonymous accounts idle for 30 days, once. The site also does this every 24 hours on
 * its own; use this from cron when the schedule should live outside the app.
 */
import { purgeIdleAnonymousUsers } from "../../server/auth/anonymous-cleanup";
import { writeLine, type CliIo, type CliSpec, parseOptionsCommand, withCommandDatabase } from "../../server/cli";
import { parseConfig } from "../../server/config";

const USAGE = `Usage: npm run auth:purge-anonymous

Deletes anonymous accounts (and their sessions) idle for 30 days.`;

/** No arguments: -h/--help, or anything else is a usage error. */
const parse = (argv: string[]) => parseOptionsCommand(argv, {});

async function run(_command: object, io: CliIo): Promise<number> {
  return withCommandDatabase(parseConfig(io.env), async (db) => {
    const count = await purgeIdleAnonymousUsers(db);
    writeLine(io.stdout, `Removed ${count} idle anonymous account${count === 1 ? "" : "s"}.`);
    return 0;
  });
}

export const purgeAnonymousCommand: CliSpec<object> = { usage: USAGE, failure: "Purge failed", parse, run };
