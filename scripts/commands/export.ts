/**
 * npm run export -- --format csv|geojson [--out FILE]
 *
 * CSV is in the import's raw shape (npm run import reads it back to identical rows); GeoJSON is a
 * FeatureCollection of the locations with coordinates. With --out the file appears only when the
 * export is complete: it is written beside it under a temporary name, then renamed.
 */
import fs from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import { parseConfig } from "../../server/config";
import type { Database } from "../../server/db/client";
import {
  UsageError,
  writeLine,
  type CliIo,
  type CliSpec,
  parseOptionsCommand,
  withCommandDatabase,
} from "../../server/cli";
import { exportCsv, exportGeoJson } from "../../server/locations/export";

const USAGE = `Usage: npm run export -- --format csv|geojson [--out FILE]

Writes every location of the database (DATABASE_URL, else the embedded one in DATA_DIR):
  csv      the import's raw shape, one row per location (re-importable as is)
  geojson  a FeatureCollection of Point features, for locations with coordinates

Options:
  --format FORMAT  csv or geojson (required)
  --out FILE       write to FILE instead of standard output
  -h, --help       show this help`;

const EXPORTERS: Record<string, (db: Database, out: NodeJS.WritableStream) => Promise<number>> = {
  csv: exportCsv,
  geojson: exportGeoJson,
};

function parseCommandLine(argv: string[]) {
  const values = parseOptionsCommand(argv, { format: { type: "string" }, out: { type: "string" } });
  if (values === "help") return values;
  const { format, out } = values;
  if (format === undefined) throw new UsageError("Missing --format (csv or geojson).");
  const exporter = EXPORTERS[format];
  if (!exporter) throw new UsageError(`Unknown --format ${format}: use csv or geojson.`);
  return { exporter, out };
}

/** A typo in --out should fail before the database is opened, naming the directory. */
async function checkWritable(directory: string): Promise<void> {
  try {
    await fs.promises.access(directory, fs.constants.W_OK);
  } catch {
    throw new Error(`Cannot write to the directory ${directory} (missing or read-only).`);
  }
}

/** Exports to a temporary file beside `target`, renamed into place only once complete. */
async function exportToFile(run: (out: NodeJS.WritableStream) => Promise<number>, target: string): Promise<number> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  const stream = fs.createWriteStream(temporary);
  try {
    const count = await run(stream);
    stream.end();
    await finished(stream);
    await fs.promises.rename(temporary, target);
    return count;
  } catch (error) {
    stream.destroy();
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

type ExportCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

async function run(command: ExportCommand, io: CliIo): Promise<number> {
  const { exporter, out } = command;
  if (out !== undefined) await checkWritable(path.dirname(path.resolve(out)));

  return withCommandDatabase(parseConfig(io.env), async (db) => {
    const run = (stream: NodeJS.WritableStream) => exporter(db, stream);
    if (out === undefined) {
      const count = await run(io.stdout);
      writeLine(io.stderr, `Exported ${count} locations.`);
    } else {
      const count = await exportToFile(run, out);
      writeLine(io.stdout, `Exported ${count} locations to ${out}.`);
    }
    return 0;
  });
}

/** A reader that stops early (`| head`) closes the pipe: that ends the export, it is no failure. */
const isClosedPipe = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "EPIPE";

export const exportCommand: CliSpec<ExportCommand> = {
  usage: USAGE,
  failure: "Export failed",
  parse: parseCommandLine,
  run,
  isQuiet: isClosedPipe,
};
