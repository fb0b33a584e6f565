/**
 * npm run import -- FILE [--dry-run]
 *
 * Exit codes: 0 every row accepted, 2 some rows rejected (the accepted ones are written unless
 * --dry-run), 1 a fatal error (bad usage, unreadable file, database unavailable or locked).
 */
import { parseConfig } from "../../server/config";
import {
  UsageError,
  parseSingleTargetCommand,
  writeLine,
  type CliIo,
  type CliSpec,
  withCommandDatabase,
} from "../../server/cli";
import { importSource } from "../../server/locations/import";
import { notifyLocationsChanged } from "../../server/search";
import { openLocationFile, type FileFormat } from "../../server/locations/read-file";
import { formatImportReport, importExitCode } from "../../server/locations/report";

const USAGE = `Usage: npm run import -- FILE [--dry-run] [--format csv|json|ndjson]

Imports RV storage locations from a CSV, JSON or NDJSON file whose fields are the product field names
(place_id, name, address, state, latitude, longitude, ...). Rows are upserted by place_id in one
transaction; rejected rows are listed with their row number, field and reason.

Options:
  --dry-run        check every row (including against the database) but write nothing
  --format FORMAT  csv, json or ndjson (default: from the file extension, else sniffed)
  -h, --help       show this help

Exit codes: 0 all rows accepted, 2 some rows rejected, 1 fatal error.
The database is the one the site uses (DATABASE_URL, else the embedded one in DATA_DIR).`;

const FORMATS: readonly FileFormat[] = ["csv", "json", "ndjson"];

function parseCommandLine(argv: string[]) {
  const parsed = parseSingleTargetCommand(argv, "FILE", {
    "dry-run": { type: "boolean", default: false },
    format: { type: "string" },
  });
  if (parsed === "help") return parsed;
  const format = parsed.values.format as FileFormat | undefined;
  if (format !== undefined && !FORMATS.includes(format))
    throw new UsageError(`Unknown --format ${format}: use csv, json or ndjson.`);
  return { file: parsed.target, dryRun: parsed.values["dry-run"] === true, format };
}

type ImportCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

async function run(command: ImportCommand, io: CliIo): Promise<number> {
  // The file is checked before the database is opened, so a typo costs nothing.
  const source = await openLocationFile(command.file, command.format);
  return withCommandDatabase(parseConfig(io.env), async (db) => {
    const report = await importSource(db, source, { dryRun: command.dryRun });
    // On PostgreSQL the running site LISTENs for this and rebuilds its search index.
    if (!report.dryRun && report.accepted > 0) await notifyLocationsChanged(db, { refreshLocal: false });
    writeLine(io.stdout, formatImportReport(report, { source: command.file }));
    return importExitCode(report);
  });
}

export const importCommand: CliSpec<ImportCommand> = {
  usage: USAGE,
  failure: "Import failed",
  parse: parseCommandLine,
  run,
};
