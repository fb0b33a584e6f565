// npm run export; the command is ./commands/export.ts.
import { runCli } from "../server/cli";
import { exportCommand } from "./commands/export";

void runCli(exportCommand);
