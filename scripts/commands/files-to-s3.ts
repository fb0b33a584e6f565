/**
 * npm run files:to-s3 [-- --dry-run]
 *
 * Exit codes: 0 every file copied or already there, 2 some files skipped, 1 a fatal error (bad
 * usage, S3_BUCKET unset, the bucket unreachable).
 */
import { parseConfig } from "../../server/config";
import { writeLine, type CliIo, type CliSpec, parseOptionsCommand } from "../../server/cli";
import { copyFilesToS3, formatAreaReport } from "../../server/files/copy-to-s3";
import { createS3Client } from "../../server/files/s3";
import { s3SettingsOf } from "../../server/files/s3-settings";

const USAGE = `Usage: npm run files:to-s3 [-- --dry-run]

Copies the files the site keeps under DATA_DIR into the S3 bucket set by S3_BUCKET (and
S3_ENDPOINT, S3_PREFIX, …): photos (place-images/), article images (blog-images/) and claim
evidence (private/, kept private in the bucket). A file already in the bucket with the same
content is left alone, so the command can be run again: it copies only what is new or changed,
and never deletes anything. Run it once while the site still uses DATA_DIR, then once more after
stopping it and before starting it with S3_BUCKET set (docs/operations.md, "Object storage").

Options:
  --dry-run   count what would be copied, write nothing
  -h, --help  show this help

Exit codes: 0 all copied or already there, 2 some files skipped, 1 fatal error.`;

function parseCommandLine(argv: string[]) {
  const values = parseOptionsCommand(argv, { "dry-run": { type: "boolean", default: false } });
  if (values === "help") return values;
  return { dryRun: values["dry-run"] === true };
}

async function run(command: { dryRun: boolean }, io: CliIo): Promise<number> {
  const config = parseConfig(io.env);
  const settings = s3SettingsOf(config);
  if (!settings) throw new Error("S3_BUCKET is not set: there is no bucket to copy to");
  const client = createS3Client(settings);
  try {
    writeLine(
      io.stdout,
      `${command.dryRun ? "Dry run: " : ""}${config.dataDir} -> s3://${settings.bucket}/${settings.prefix ? `${settings.prefix}/` : ""}`,
    );
    const reports = await copyFilesToS3({
      dataDir: config.dataDir,
      client,
      bucket: settings.bucket,
      prefix: settings.prefix,
      dryRun: command.dryRun,
    });
    for (const report of reports) {
      writeLine(io.stdout, formatAreaReport(report, command.dryRun));
      for (const file of report.skipped) writeLine(io.stdout, `  skipped ${file}`);
    }
    return reports.some((report) => report.skipped.length > 0) ? 2 : 0;
  } finally {
    client.destroy();
  }
}

export const filesToS3Command: CliSpec<{ dryRun: boolean }> = {
  usage: USAGE,
  failure: "Copying files to S3 failed",
  parse: parseCommandLine,
  run,
};
