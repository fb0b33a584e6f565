/**
 * npm run auth:purge-anonymous
 *
 * Deletes anonymous accounts idle for 30 days, once. The site also does this every 24 hours on
 * its own; use this from cron when the schedule should live outside the app.
 */
import { purgeIdleAnonymousUsers } from "../server/auth/anonymous-cleanup";
import { runCli, UsageError } from "../server/cli";
import { getConfig } from "../server/config";
import { connectDatabase, disconnectDatabase } from "../server/db";
import { databaseOptionsFromConfig, openDatabase } from "../server/db/client";

const USAGE = `Usage: npm run auth:purge-anonymous

Deletes anonymous accounts (and their sessions) idle for 30 days.`;

function parse(argv: string[]) {
  if (argv.includes("-h") || argv.includes("--help")) return "help" as const;
  if (argv.length > 0) throw new UsageError(`Unexpected argument: ${argv[0]}`);
  return {};
}

async function run(): Promise<number> {
  const handle = await connectDatabase(await openDatabase(databaseOptionsFromConfig(getConfig())));
  try {
    await handle.migrate();
    const count = await purgeIdleAnonymousUsers(handle.db);
    console.log(`Removed ${count} idle anonymous account${count === 1 ? "" : "s"}.`);
    return 0;
  } finally {
    await disconnectDatabase();
  }
}

void runCli({ usage: USAGE, failure: "Purge failed", parse, run });
