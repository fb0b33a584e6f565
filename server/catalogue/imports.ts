/**
 * Catalogue imports from the browser (docs/product.md section 12, "Import and export"). The file
 * is streamed to DATA_DIR/imports as it arrives, then checked by the importer that exists
 * (server/locations/import.ts) as a dry run in the background, its progress written as it goes;
 * an administrator reads the report and applies the file, which imports it in one transaction.
 * The work is read and written in chunks with awaits between them, so other requests keep being
 * answered while a large file is checked.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { IMPORT_MAX_BYTES, STORED_REJECTIONS, type StoredImportReport } from "../../domain/catalogue";
import { recordAudit, type AuditActor } from "../audit/record";
import { getConfig } from "../config";
import type { Database } from "../db/client";
import { catalogueImports, type CatalogueImportRow } from "../db/schema";
import { AppError } from "../errors";
import { logger } from "../logger";
import { ImportDatabaseError, importSource, type ImportReport } from "../locations/import";
import { ImportFileError, formatFromExtension, openLocationFile, type SourceRow } from "../locations/read-file";
import { notifyLocationsChanged } from "../search/notify";

const MAX_FILE_NAME = 200;
/** How often the running step writes its progress. */
const PROGRESS_EVERY_MS = 1000;
/**
 * A step not running here that wrote nothing for this long was cut off (its process stopped). An
 * apply writes no progress while its transaction runs, so it gets longer.
 */
const STALE_AFTER_MS = { checking: 2 * 60 * 1000, applying: 30 * 60 * 1000 } as const;

export function importsDir(): string {
  return path.join(getConfig().dataDir, "imports");
}

const fileOf = (row: Pick<CatalogueImportRow, "id" | "format">) => path.join(importsDir(), `${row.id}.${row.format}`);

/** The steps running in this process, by import id. */
const running = new Map<string, Promise<void>>();

/** Resolves when every step running in this process has finished (tests, shutdown). */
export async function settleImports(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

function storedReport(report: ImportReport): StoredImportReport {
  return {
    read: report.read,
    accepted: report.accepted,
    inserted: report.inserted,
    updated: report.updated,
    rejectedRows: report.rejectedRows,
    rejected: report.rejected.slice(0, STORED_REJECTIONS),
    rejectedTotal: report.rejected.length,
    warnings: report.warnings.slice(0, 50),
  };
}

export interface UploadedFile {
  name: string;
  stream: ReadableStream<Uint8Array>;
}

/** A file name as shown back: its base name, printable and capped. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, MAX_FILE_NAME);
  return clean || "upload";
}

/**
 * Stores an upload and starts its check. Refuses (400/413, nothing kept) a file of another type,
 * an empty one and one over IMPORT_MAX_BYTES.
 */
export async function startImport(
  db: Database,
  actor: AuditActor,
  file: UploadedFile,
  requestId?: string | null,
): Promise<CatalogueImportRow> {
  const fileName = displayName(file.name);
  const format = formatFromExtension(fileName);
  if (!format)
    throw new AppError(
      "bad_request",
      400,
      `${fileName}: choose a .csv, .json or .ndjson file (the importer reads those).`,
    );
  const id = randomUUID();
  const target = path.join(importsDir(), `${id}.${format}`);
  await fsp.mkdir(importsDir(), { recursive: true, mode: 0o700 });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > IMPORT_MAX_BYTES) callback(new AppError("too_large", 413, tooLargeMessage(fileName)));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(file.stream as WebReadableStream<Uint8Array>),
      counter,
      fs.createWriteStream(target, { mode: 0o600 }),
    );
  } catch (error) {
    await fsp.rm(target, { force: true });
    throw error;
  }
  if (size === 0) {
    await fsp.rm(target, { force: true });
    throw new AppError("bad_request", 400, `${fileName}: the file is empty.`);
  }
  const [row] = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const inserted = await tx
      .insert(catalogueImports)
      .values({
        id,
        createdBy: actor.userId,
        createdByEmail: actor.email,
        fileName,
        format,
        sizeBytes: size,
        status: "checking",
      })
      .returning();
    await recordAudit(tx, {
      actor,
      action: "catalogue.import.upload",
      subject: { type: "catalogue_import", id },
      after: { fileName, sizeBytes: size },
      requestId,
    });
    return inserted;
  });
  runStep(db, row!, "check");
  return row!;
}

export const tooLargeMessage = (fileName: string) =>
  `${fileName} is larger than the ${IMPORT_MAX_BYTES / 1024 / 1024} MB the browser import takes. Split it, or import it with \`npm run import\` on the server.`;

/** Records read by the steps running in this process, by import id. */
const progress = new Map<string, number>();

/**
 * Reads the file's records, counting them for the progress bar. A check also writes the count to
 * the import's row once a second, for other instances; an apply does not, since its transaction
 * holds the connection on PGlite until it ends.
 */
async function* counted(
  db: Database,
  id: string,
  rows: AsyncIterable<SourceRow>,
  persist: boolean,
): AsyncGenerator<SourceRow> {
  let read = 0;
  let last = Date.now();
  for await (const row of rows) {
    read += 1;
    progress.set(id, read);
    if (persist && Date.now() - last >= PROGRESS_EVERY_MS) {
      last = Date.now();
      await db
        .update(catalogueImports)
        .set({ rowsRead: read, updatedAt: new Date() })
        .where(eq(catalogueImports.id, id));
    }
    yield row;
  }
}

/** The importer's messages name the stored file; the administrator knows the file by its own name. */
const inWords = (message: string, row: CatalogueImportRow) => message.split(fileOf(row)).join(row.fileName);

function runStep(db: Database, row: CatalogueImportRow, step: "check" | "apply"): void {
  const work = (async () => {
    try {
      // The progress writes go outside the import's transaction, so they are seen while it runs.
      const source = await openLocationFile(fileOf(row), row.format as "csv" | "json" | "ndjson");
      const report = await importSource(
        db,
        { ...source, rows: counted(db, row.id, source.rows, step === "check") },
        {
          dryRun: step === "check",
          // "applied" commits with the rows (a dry run never calls this), so a crash never leaves
          // one without the other (docs/operations.md, "Crashes").
          beforeCommit: async (tx, report) => {
            const done = new Date();
            await tx
              .update(catalogueImports)
              .set({
                status: "applied",
                applyReport: storedReport(report),
                rowsRead: report.read,
                appliedAt: done,
                updatedAt: done,
              })
              .where(eq(catalogueImports.id, row.id));
          },
        },
      );
      if (step === "check") {
        await db
          .update(catalogueImports)
          .set({ status: "checked", checkReport: storedReport(report), rowsRead: report.read, updatedAt: new Date() })
          .where(eq(catalogueImports.id, row.id));
      } else {
        // Committed: a file left behind is removed by the daily job, not a reason to say "failed".
        await fsp
          .rm(fileOf(row), { force: true })
          .catch((e: unknown) => logger.warn({ err: e, importId: row.id }, "could not remove an applied import file"));
        if (report.accepted > 0) await notifyLocationsChanged(db);
      }
      logger.info(
        { importId: row.id, step, read: report.read, accepted: report.accepted },
        "catalogue import step done",
      );
    } catch (error) {
      const known = error instanceof ImportFileError || error instanceof ImportDatabaseError;
      if (!known) logger.error({ err: error, importId: row.id, step }, "catalogue import step failed");
      const message = known
        ? inWords((error as Error).message, row)
        : "The import stopped on an unexpected error; nothing was written. Try again.";
      await db
        .update(catalogueImports)
        .set({ status: "failed", error: message, updatedAt: new Date() })
        .where(eq(catalogueImports.id, row.id))
        .catch((e: unknown) => logger.error({ err: e, importId: row.id }, "could not record a failed import"));
      await fsp.rm(fileOf(row), { force: true }).catch(() => undefined);
    }
  })().finally(() => {
    running.delete(row.id);
    progress.delete(row.id);
  });
  running.set(row.id, work);
}

/**
 * Applies a checked import. Only a `checked` import can be applied, and only once: the status
 * moves to `applying` in one conditional update, so a second click (or a second admin) is refused.
 */
export async function applyImport(
  db: Database,
  actor: AuditActor,
  id: string,
  requestId?: string | null,
): Promise<CatalogueImportRow> {
  const row = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const [updated] = await tx
      .update(catalogueImports)
      .set({ status: "applying", rowsRead: 0, updatedAt: new Date() })
      .where(and(eq(catalogueImports.id, id), eq(catalogueImports.status, "checked")))
      .returning();
    if (!updated) {
      const [existing] = await tx.select().from(catalogueImports).where(eq(catalogueImports.id, id));
      if (!existing) throw new AppError("not_found", 404, "No such import.");
      throw new AppError(
        "conflict",
        409,
        existing.status === "applied" || existing.status === "applying"
          ? "This import was already applied."
          : "Only a checked import can be applied.",
      );
    }
    await recordAudit(tx, {
      actor,
      action: "catalogue.import.apply",
      subject: { type: "catalogue_import", id },
      after: { fileName: updated.fileName, accepted: updated.checkReport?.accepted ?? null },
      requestId,
    });
    return updated;
  });
  runStep(db, row, "apply");
  return row;
}

/** One import, with a step cut off by a stopped process marked failed (its transaction rolled back). */
export async function getImport(db: Database, id: string, now = new Date()): Promise<CatalogueImportRow> {
  const [row] = await db.select().from(catalogueImports).where(eq(catalogueImports.id, id));
  if (!row) throw new AppError("not_found", 404, "No such import.");
  if (running.has(id)) return { ...row, rowsRead: Math.max(row.rowsRead, progress.get(id) ?? 0) };
  if (
    (row.status === "checking" || row.status === "applying") &&
    now.getTime() - row.updatedAt.getTime() > STALE_AFTER_MS[row.status]
  ) {
    const [failed] = await db
      .update(catalogueImports)
      .set({
        status: "failed",
        error: "The import was interrupted (the server restarted); nothing was written. Upload the file again.",
        updatedAt: now,
      })
      .where(and(eq(catalogueImports.id, id), inArray(catalogueImports.status, ["checking", "applying"])))
      .returning();
    return failed ?? row;
  }
  return row;
}

export async function recentImports(db: Database, limit = 20): Promise<CatalogueImportRow[]> {
  return db.select().from(catalogueImports).orderBy(desc(catalogueImports.createdAt)).limit(limit);
}

/**
 * Daily: files of imports never applied are removed after a week (the reports stay), then the
 * files a crash left behind (docs/operations.md, "Crashes"). Returns how many files went.
 */
export async function purgeStaleImportFiles(db: Database, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
  const rows = await db
    .select({ id: catalogueImports.id, format: catalogueImports.format })
    .from(catalogueImports)
    .where(and(eq(catalogueImports.status, "checked"), lt(catalogueImports.createdAt, before)));
  for (const row of rows) {
    await fsp.rm(fileOf(row), { force: true });
    await db
      .update(catalogueImports)
      .set({ status: "failed", error: "Not applied within a week; the file was removed.", updatedAt: now })
      .where(eq(catalogueImports.id, row.id));
  }
  return rows.length + (await removeLeftImportFiles(db, now));
}

const IMPORT_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(?:csv|json|ndjson)$/;
/** An upload still arriving has a file and no row yet; none takes this long. */
const UPLOAD_MAX_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the files of imports applied or failed (a crash came between the commit and the
 * removal), of imports whose step was cut off (marked failed as getImport does), and of uploads
 * that stopped before their row was written.
 */
async function removeLeftImportFiles(db: Database, now: Date): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(importsDir());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const files = names.flatMap((name) => {
    const id = IMPORT_FILE.exec(name)?.[1];
    return id && !running.has(id) ? [{ id, file: path.join(importsDir(), name) }] : [];
  });
  if (files.length === 0) return 0;
  const statuses = new Map(
    (
      await db
        .select({ id: catalogueImports.id, status: catalogueImports.status })
        .from(catalogueImports)
        .where(
          inArray(
            catalogueImports.id,
            files.map((f) => f.id),
          ),
        )
    ).map((r) => [r.id, r.status]),
  );
  let removed = 0;
  for (const { id, file } of files) {
    let status = statuses.get(id);
    if (status === "checking" || status === "applying") status = (await getImport(db, id, now)).status;
    const written = status === undefined ? (await fsp.stat(file).catch(() => undefined))?.mtime : undefined;
    const left =
      status === "applied" || status === "failed" || (written && now.getTime() - written.getTime() > UPLOAD_MAX_MS);
    if (!left) continue;
    await fsp.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
