// npm run auth:purge-anonymous; the command is ./commands/purge-anonymous.ts.
import { runCli } from "../server/cli";
import { purgeAnonymousCommand } from "./commands/purge-anonymous";

void runCli(purgeAnonymousCommand);
