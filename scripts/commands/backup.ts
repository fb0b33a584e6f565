/**
 * npm run backup -- --out FILE
 *
 * A logical backup of the whole database (server/backup/format.ts): every table of the public
 * schema in one snapshot, plus the file stores' manifest. The file appears only when complete: it
 * is written beside FILE under a temporary name, then renamed. Exit codes: 0 written, 1 failed.
 */
import fs from "node:fs";
import path from "node:path";
import { parseConfig } from "../../server/config";
import { databaseOptionsFromConfig, openDatabase } from "../../server/db/client";
import { UsageError, writeLine, type CliIo, type CliSpec, parseOptionsCommand } from "../../server/cli";
import { writeBackup } from "../../server/backup/backup";
import { configuredFileStores } from "../../server/backup/files";

const USAGE = `Usage: npm run backup -- --out FILE

Writes a backup of the site's database (DATABASE_URL, else the embedded one in DATA_DIR): every
table, read in one consistent snapshot, as gzip'd NDJSON, with a manifest of the stored files
(photos, article images, claim evidence: key, size, sha256). The files themselves are not in it:
back them up alongside (docs/operations.md, Backups). Restore with npm run restore -- FILE.

On PostgreSQL the site may keep running; the embedded database must be stopped first.

Options:
  --out FILE   where to write, e.g. backups/rvstorage-$(date +%F).ndjson.gz (required)
  -h, --help   show this help`;

function parseCommandLine(argv: string[]) {
  const values = parseOptionsCommand(argv, { out: { type: "string" } });
  if (values === "help") return values;
  const { out } = values;
  if (out === undefined || out === "") throw new UsageError("Missing --out FILE.");
  return { out: path.resolve(out) };
}

type BackupCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function run({ out }: BackupCommand, io: CliIo): Promise<number> {
  const directory = path.dirname(out);
  try {
    await fs.promises.access(directory, fs.constants.W_OK);
  } catch {
    throw new Error(`Cannot write to the directory ${directory} (missing or read-only).`);
  }
  const config = parseConfig(io.env);
  const options = databaseOptionsFromConfig(config);
  // Opening a data directory that holds no database would create one, only to back up nothing.
  if (options.kind === "pglite" && !fs.existsSync(path.join(options.dataDir, "pglite")))
    throw new Error(`There is no embedded database in ${path.join(options.dataDir, "pglite")} (check DATA_DIR).`);

  const started = Date.now();
  const handle = await openDatabase(options);
  const temporary = path.join(directory, `.${path.basename(out)}.${process.pid}.tmp`);
  try {
    const stream = fs.createWriteStream(temporary, { mode: 0o600 });
    const summary = await writeBackup(handle, configuredFileStores(config), stream);
    await fs.promises.rename(temporary, out);
    const { header, rows, files } = summary;
    const size = (await fs.promises.stat(out)).size;
    writeLine(
      io.stdout,
      `Backed up ${rows} rows in ${header.tables.length} tables (${handle.kind}, migration ` +
        `${header.migration.tag ?? header.migration.hash}) and a manifest of ${files.images} images and ` +
        `${files.private} private files to ${out} (${megabytes(size)}, ${((Date.now() - started) / 1000).toFixed(1)} s).`,
    );
    return 0;
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

export const backupCommand: CliSpec<BackupCommand> = {
  usage: USAGE,
  failure: "Backup failed",
  parse: parseCommandLine,
  run,
};
