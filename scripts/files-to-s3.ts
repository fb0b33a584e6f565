// npm run files:to-s3; the command is ./commands/files-to-s3.ts.
import { runCli } from "../server/cli";
import { filesToS3Command } from "./commands/files-to-s3";

void runCli(filesToS3Command);
