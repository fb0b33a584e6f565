// npm run seed; the command is ./commands/seed.ts.
import { runCli } from "../server/cli";
import { seedCommand } from "./commands/seed";

void runCli(seedCommand);
