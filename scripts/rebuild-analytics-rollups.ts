// npm run analytics:rebuild-rollups; the command is ./commands/rebuild-analytics-rollups.ts.
import { runCli } from "../server/cli";
import { rebuildAnalyticsRollupsCommand } from "./commands/rebuild-analytics-rollups";

void runCli(rebuildAnalyticsRollupsCommand);
