// npm run user:create-admin; the command is ./commands/create-admin.ts.
import { runCli } from "../server/cli";
import { createAdminCommand } from "./commands/create-admin";

void runCli(createAdminCommand);
