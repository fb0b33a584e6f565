import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import { createGunzip } from "node:zlib";
import { z } from "zod";

/**
 * The logical backup file (docs/operations.md, Backups; docs/decisions/021-logical-backups.md):
 * gzip'd NDJSON, one JSON value per line, in this order:
 *
 *   header                     {"format":"rv-storage-directory-backup","version":1,…,"tables":[…]}
 *   per table, in the header's order (parents before the tables that reference them):
 *     {"table":"users","columns":["id",…],"rows":N}   then exactly N lines, each row_to_json of a row
 *   per file store ("images", then "private"):
 *     {"store":"images","source":"list","files":N}     then exactly N lines {"key","size","sha256",…}
 *   trailer                    {"end":true,"lines":L,"sha256":"…"}
 *
 * The trailer's sha256 covers the uncompressed bytes of the L lines before it (newlines included),
 * so a file cut short or altered anywhere is refused before anything is written.
 */
export const BACKUP_FORMAT = "rv-storage-directory-backup";
export const BACKUP_VERSION = 1;

/** No line may be longer: a row is far smaller (an article body is capped at 200 kB). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const MAX_TABLES = 1000;
const MAX_SEQUENCES = 1000;
const NAME = z.string().min(1).max(63);
const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 in hex");

export const STORES = ["images", "private"] as const;
export type StoreName = (typeof STORES)[number];

const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.iso.datetime(),
  source: z.enum(["pglite", "postgres"]),
  migration: z.object({
    /** The journal tag (e.g. 0020_leads); null when the code that made the backup did not know it. */
    tag: z.string().max(200).nullable(),
    hash: z.string().max(200),
    /** drizzle.__drizzle_migrations.created_at, the journal's `when`: what identifies the level. */
    createdAt: z.number().int().nonnegative(),
  }),
  tables: z.array(z.object({ name: NAME, rows: z.number().int().nonnegative() })).max(MAX_TABLES),
  sequences: z
    .array(z.object({ name: NAME, lastValue: z.string().regex(/^-?\d{1,19}$/), isCalled: z.boolean() }))
    .max(MAX_SEQUENCES),
});
export type BackupHeader = z.infer<typeof headerSchema>;

const tableSchema = z.object({
  table: NAME,
  columns: z.array(NAME).max(1600),
  rows: z.number().int().nonnegative(),
});
const storeSchema = z.object({
  store: z.enum(STORES),
  /** How the keys were found: the store's list(), a walk of DATA_DIR/private, or claim_evidence rows. */
  source: z.enum(["list", "directory", "claim_evidence"]),
  files: z.number().int().nonnegative(),
});
const fileSchema = z.object({
  key: z.string().min(1).max(1024),
  size: z.number().int().nonnegative(),
  sha256: SHA256,
  etag: z.string().max(200).optional(),
});
export type ManifestEntry = z.infer<typeof fileSchema>;
const trailerSchema = z.object({ end: z.literal(true), lines: z.number().int().nonnegative(), sha256: SHA256 });

/** A file that is not a complete, intact backup of this format: the message names the problem. */
export class BackupFileError extends Error {
  override name = "BackupFileError";
}

/** Writes lines, hashing them for the trailer. */
export class LineHasher {
  private readonly hash: Hash = createHash("sha256");
  lines = 0;

  /** The line with its newline, counted and hashed. */
  line(text: string): string {
    const line = `${text}\n`;
    this.hash.update(line);
    this.lines++;
    return line;
  }

  trailer(): string {
    return `${JSON.stringify({ end: true, lines: this.lines, sha256: this.hash.digest("hex") })}\n`;
  }
}

/** Splits a byte stream into lines (without the newline), refusing one longer than `maxBytes`. */
export async function* splitLines(input: AsyncIterable<Buffer>, maxBytes = MAX_LINE_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  const tooLong = () => new BackupFileError(`a line is longer than ${maxBytes} bytes (not a backup, or corrupt)`);
  for await (const chunk of input) {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline >= 0; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingLength + piece.length > maxBytes) throw tooLong();
      yield pendingLength === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      pendingLength = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      pendingLength += chunk.length - start;
      if (pendingLength > maxBytes) throw tooLong();
      pending.push(chunk.subarray(start));
    }
  }
  if (pendingLength > 0) throw new BackupFileError("it ends in the middle of a line (truncated)");
}

/** What reading a backup yields, in file order. Rows come in batches of JSON texts. */
export type BackupEvent =
  | { type: "header"; header: BackupHeader }
  | { type: "table"; name: string; columns: string[]; rows: number }
  | { type: "rows"; table: string; rows: string[] }
  | { type: "store"; store: StoreName; source: z.infer<typeof storeSchema>["source"]; files: number }
  | { type: "file"; store: StoreName; entry: ManifestEntry }
  | { type: "end"; lines: number };

export const BATCH_ROWS = 500;
export const BATCH_CHARS = 4 * 1024 * 1024;

function parseLine<T>(schema: z.ZodType<T>, text: string, lineNumber: number, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupFileError(`line ${lineNumber} is not JSON (expected ${what})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BackupFileError(
      `line ${lineNumber} is not a valid ${what} (${[...issue.path].join(".") || "value"}: ${issue.message})`,
    );
  }
  return parsed.data;
}

/** The first line: a clear message for a file of another kind or another format version. */
function parseHeader(text: string): BackupHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const object = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  if (object.format !== BACKUP_FORMAT) throw new BackupFileError("it is not a backup of this site (no backup header)");
  if (object.version !== BACKUP_VERSION) {
    const version = JSON.stringify(object.version);
    throw new BackupFileError(
      typeof object.version === "number" && object.version > BACKUP_VERSION
        ? `it is in backup format version ${version}, written by a newer version of the site; this one reads version ${BACKUP_VERSION}`
        : `it is in backup format version ${version}; this version of the site reads version ${BACKUP_VERSION}`,
    );
  }
  return parseLine(headerSchema, text, 1, "backup header");
}

/** Turns zlib's and the file system's errors into one line about the file. */
function describeReadError(error: unknown, decoded: boolean): Error {
  if (error instanceof BackupFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new BackupFileError("there is no such file");
  if (code === "EISDIR") return new BackupFileError("it is a directory, not a file");
  if (code === "EACCES") return new BackupFileError("it cannot be read (permission denied)");
  if (code === "Z_DATA_ERROR") {
    const message = (error as Error).message;
    return new BackupFileError(
      message.includes("header check") && !decoded
        ? "it is not a backup (not a gzip file)"
        : `it is corrupt (${message})`,
    );
  }
  if (code === "Z_BUF_ERROR") return new BackupFileError("it is truncated (the compressed data ends early)");
  return error as Error;
}

/**
 * Reads and checks a backup file as it streams: the header, each section's declared count, and the
 * trailer's line count and checksum. Throws BackupFileError (with the file name) on the first
 * problem. Whoever acts on the events must treat everything as provisional until "end" arrives.
 */
export async function* readBackup(file: string): AsyncGenerator<BackupEvent> {
  const input = fs.createReadStream(file);
  const gunzip = createGunzip();
  // pipe() does not pass on the file's errors (a missing file): the reader must see them.
  input.on("error", (error) => gunzip.destroy(error));
  let decoded = false;
  gunzip.once("data", () => (decoded = true));
  try {
    yield* readEvents(input.pipe(gunzip));
  } catch (error) {
    const problem = describeReadError(error, decoded);
    if (problem instanceof BackupFileError) throw new BackupFileError(`${file}: ${problem.message}`);
    throw problem;
  } finally {
    input.destroy();
  }
}

async function* readEvents(input: AsyncIterable<Buffer>): AsyncGenerator<BackupEvent> {
  const hash = createHash("sha256");
  let lineNumber = 0;
  let header: BackupHeader | undefined;
  let tableIndex = 0;
  let storeIndex = 0;
  // What the next lines must be: a section marker, or `remaining` rows/files of the current section.
  let section: { kind: "rows"; table: string } | { kind: "files"; store: StoreName } | undefined;
  let remaining = 0;
  let batch: string[] = [];
  let batchChars = 0;
  let ended = false;

  for await (const bytes of splitLines(input)) {
    lineNumber++;
    if (ended) throw new BackupFileError(`line ${lineNumber} follows the trailer`);
    const text = bytes.toString("utf8");
    if (!header) {
      header = parseHeader(text);
      const names = new Set(header.tables.map((t) => t.name));
      if (names.size !== header.tables.length) throw new BackupFileError("the header lists a table twice");
      hash.update(bytes).update("\n");
      yield { type: "header", header };
      continue;
    }
    if (section && remaining > 0) {
      hash.update(bytes).update("\n");
      remaining--;
      if (section.kind === "rows") {
        if (!text.startsWith("{") || !text.endsWith("}"))
          throw new BackupFileError(`line ${lineNumber} is not a row of ${section.table}`);
        batch.push(text);
        batchChars += text.length;
        if (batch.length >= BATCH_ROWS || batchChars >= BATCH_CHARS || remaining === 0) {
          yield { type: "rows", table: section.table, rows: batch };
          batch = [];
          batchChars = 0;
        }
      } else {
        yield { type: "file", store: section.store, entry: parseLine(fileSchema, text, lineNumber, "manifest entry") };
      }
      continue;
    }
    // A section marker or the trailer.
    if (tableIndex < header.tables.length) {
      const expected = header.tables[tableIndex++]!;
      const marker = parseLine(tableSchema, text, lineNumber, `start of table ${expected.name}`);
      if (marker.table !== expected.name || marker.rows !== expected.rows)
        throw new BackupFileError(
          `line ${lineNumber} starts table ${marker.table} with ${marker.rows} rows; the header announced ${expected.name} with ${expected.rows}`,
        );
      hash.update(bytes).update("\n");
      section = { kind: "rows", table: marker.table };
      remaining = marker.rows;
      yield { type: "table", name: marker.table, columns: marker.columns, rows: marker.rows };
      continue;
    }
    if (storeIndex < STORES.length) {
      const expected = STORES[storeIndex++]!;
      const marker = parseLine(storeSchema, text, lineNumber, `start of the ${expected} manifest`);
      if (marker.store !== expected)
        throw new BackupFileError(`line ${lineNumber} starts the ${marker.store} manifest; expected ${expected}`);
      hash.update(bytes).update("\n");
      section = { kind: "files", store: marker.store };
      remaining = marker.files;
      yield { type: "store", store: marker.store, source: marker.source, files: marker.files };
      continue;
    }
    const trailer = parseLine(trailerSchema, text, lineNumber, "trailer");
    if (trailer.lines !== lineNumber - 1)
      throw new BackupFileError(`the trailer counts ${trailer.lines} lines but ${lineNumber - 1} precede it`);
    if (trailer.sha256 !== hash.digest("hex"))
      throw new BackupFileError("its checksum does not match its content (corrupt or altered)");
    ended = true;
    yield { type: "end", lines: trailer.lines };
  }
  if (!header) throw new BackupFileError("it is empty");
  if (!ended) throw new BackupFileError(`it is truncated (it ends after line ${lineNumber}, before the trailer)`);
}

/** Reads the whole file once, checking everything; returns its header. Writes nothing anywhere. */
export async function verifyBackup(file: string): Promise<{ header: BackupHeader; files: number }> {
  let header: BackupHeader | undefined;
  let files = 0;
  for await (const event of readBackup(file)) {
    if (event.type === "header") header = event.header;
    else if (event.type === "store") files += event.files;
  }
  return { header: header!, files };
}
