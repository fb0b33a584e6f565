// npm run import; the command is ./commands/import.ts.
import { runCli } from "../server/cli";
import { importCommand } from "./commands/import";

void runCli(importCommand);
