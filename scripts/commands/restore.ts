/**
 * npm run restore -- FILE [--force]
 *
 * Loads a backup made by npm run backup into the site's database, in one transaction: the file is
 * read and checked whole first (header, counts, checksum), then restored; a refusal or any error
 * writes nothing. Exit codes: 0 restored, 2 restored but files of the manifest are missing from,
 * differ in or could not be checked in the store, 1 nothing restored.
 */
import fs from "node:fs";
import path from "node:path";
import { parseConfig } from "../../server/config";
import { databaseOptionsFromConfig, openDatabase } from "../../server/db/client";
import { parseSingleTargetCommand, writeLine, type CliIo, type CliSpec } from "../../server/cli";
import { configuredFileStores, type ManifestCheck } from "../../server/backup/files";
import { verifyBackup } from "../../server/backup/format";
import { planRestore, restoreBackup } from "../../server/backup/restore";
import { SNAPSHOT_FILE } from "../../server/search/snapshot";

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores a backup made by npm run backup into the site's database (DATABASE_URL, else the embedded
one in DATA_DIR), in one transaction: the migrations up to the backup's, every row, the sequences,
then this code's newer migrations. Stop the site first. Then it checks the backup's file manifest
against the file store and lists files that are missing (restore those from your file backup).

A database that holds data is refused unless --force: then it is emptied first, in the same
transaction. A database at a newer migration than the backup is refused: restore into a new one.

Options:
  --force      replace the data the database holds
  -h, --help   show this help

Exit codes: 0 restored, 2 restored but files are missing, differ or could not be checked,
1 nothing restored.`;

function parseCommandLine(argv: string[]) {
  const parsed = parseSingleTargetCommand(argv, "FILE", { force: { type: "boolean", default: false } });
  if (parsed === "help") return parsed;
  return { file: parsed.target, force: parsed.values.force === true };
}

type RestoreCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

const filesComplete = (files: ManifestCheck) =>
  files.missingCount === 0 && files.changedCount === 0 && files.failedCount === 0;

function filesReport(files: ManifestCheck): string {
  if (filesComplete(files)) return `Files: all ${files.checked} of the manifest are in the store.`;
  const lines = [];
  if (files.failedCount > 0)
    lines.push(`Files: ${files.failedCount} could not be checked; the first error: ${files.firstError}.`);
  if (files.missingCount > 0) {
    const more =
      files.missingCount > files.missing.length ? `, and ${files.missingCount - files.missing.length} more` : "";
    lines.push(
      `Files: ${files.missingCount} of ${files.checked} in the manifest are missing from the store: ${files.missing.join(", ")}${more}.`,
    );
  }
  if (files.changedCount > 0) {
    const more =
      files.changedCount > files.changed.length ? `, and ${files.changedCount - files.changed.length} more` : "";
    lines.push(
      `Files: ${files.changedCount} differ from the backup's (size or sha256): ${files.changed.join(", ")}${more}.`,
    );
  }
  if (files.missingCount + files.changedCount > 0)
    lines.push("Copy them back from your file backup (docs/operations.md, Backups).");
  return lines.join("\n");
}

async function run({ file, force }: RestoreCommand, io: CliIo): Promise<number> {
  // The whole file is checked before the database is opened: a bad file costs nothing.
  const { header } = await verifyBackup(file);
  const plan = planRestore(header);
  if (plan.warning) writeLine(io.stderr, plan.warning);

  const config = parseConfig(io.env);
  const options = databaseOptionsFromConfig(config);
  const pgliteDir = options.kind === "pglite" ? path.join(options.dataDir, "pglite") : undefined;
  const created = pgliteDir !== undefined && !fs.existsSync(pgliteDir);
  const handle = await openDatabase(options);
  let restored = false;
  try {
    const summary = await restoreBackup(handle.db, file, plan, { force, stores: configuredFileStores(config) });
    restored = true;
    const lines = [
      `Restored ${summary.rows} rows into ${summary.tables} tables from ${file} ` +
        `(made ${header.createdAt} on ${header.source} at migration ${plan.migrations[plan.level]!.tag}).`,
    ];
    if (summary.emptied.length > 0) lines.push(`Emptied first (--force): ${summary.emptied.join(", ")}.`);
    if (summary.migratedAfter.length > 0)
      lines.push(`Then applied this code's newer migrations: ${summary.migratedAfter.join(", ")}.`);
    // The search index's snapshot reflects the catalogue before the restore: the next start builds anew.
    const snapshot = path.join(config.dataDir, SNAPSHOT_FILE);
    if (fs.existsSync(snapshot)) {
      fs.rmSync(snapshot, { force: true });
      lines.push(`Removed ${snapshot}: the next start builds the search index from the restored catalogue.`);
    }
    writeLine(io.stdout, lines.join("\n"));
    const files = filesReport(summary.files);
    const complete = filesComplete(summary.files);
    writeLine(complete ? io.stdout : io.stderr, files);
    return complete ? 0 : 2;
  } finally {
    await handle.close();
    // A data directory this run created for nothing is removed again.
    if (created && !restored) fs.rmSync(pgliteDir!, { recursive: true, force: true });
  }
}

export const restoreCommand: CliSpec<RestoreCommand> = {
  usage: USAGE,
  failure: "Restore failed",
  parse: parseCommandLine,
  run,
};
