// npm run images:ingest; the command is ./commands/images-ingest.ts.
import { runCli } from "../server/cli";
import { imagesIngestCommand } from "./commands/images-ingest";

void runCli(imagesIngestCommand);
