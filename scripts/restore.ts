// npm run restore; the command is ./commands/restore.ts.
import { runCli } from "../server/cli";
import { restoreCommand } from "./commands/restore";

void runCli(restoreCommand);
