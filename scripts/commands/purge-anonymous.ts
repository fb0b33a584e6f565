/**
 * npm run auth:purge-anonymous
 *
 * Deletes anonymous accounts idle for 30 days, once. The site also does this every 24 hours on
 * its own; use this from cron when the schedule should live outside the app.
 */
import { purgeIdleAnonymousUsers } from "../../server/auth/anonymous-cleanup";
import { writeLine, type CliIo, type CliSpec, parseOptionsCommand } from "../../server/cli";
import { parseConfig } from "../../server/config";
import { databaseOptionsFromConfig, openDatabase } from "../../server/db/client";

const USAGE = `Usage: npm run auth:purge-anonymous

Deletes anonymous accounts (and their sessions) idle for 30 days.`;

/** No arguments: -h/--help, or anything else is a usage error. */
const parse = (argv: string[]) => parseOptionsCommand(argv, {});

async function run(_command: object, io: CliIo): Promise<number> {
  const handle = await openDatabase(databaseOptionsFromConfig(parseConfig(io.env)));
  try {
    await handle.migrate();
    const count = await purgeIdleAnonymousUsers(handle.db);
    writeLine(io.stdout, `Removed ${count} idle anonymous account${count === 1 ? "" : "s"}.`);
    return 0;
  } finally {
    await handle.close();
  }
}

export const purgeAnonymousCommand: CliSpec<object> = { usage: USAGE, failure: "Purge failed", parse, run };
