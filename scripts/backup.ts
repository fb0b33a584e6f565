// npm run backup; the command is ./commands/backup.ts.
import { runCli } from "../server/cli";
import { backupCommand } from "./commands/backup";

void runCli(backupCommand);
