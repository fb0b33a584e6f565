/**
 * Reads an import file (CSV, JSON or NDJSON) into numbered raw records, streaming CSV and NDJSON
 * so that files of a hundred megabytes do not have to fit in memory as one string.
 *
 * A file that cannot be read at all throws an ImportFileError; a single bad record is yielded as
 * an error row, so that the rest of the file is still checked.
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import { CsvError, CsvParser, restoreCsvText } from "../csv";
import { normalizeKey, type RawRecord } from "./record";

export type FileFormat = "csv" | "json" | "ndjson";

/**
 * One record of the file, numbered so a user can find it: the spreadsheet row for CSV (the
 * header is row 1), the line for NDJSON, the 1-based position in the array for JSON.
 */
export type SourceRow = { row: number; record: RawRecord } | { row: number; error: string };

export interface LocationSource {
  path: string;
  format: FileFormat;
  rows: AsyncIterable<SourceRow>;
  /** Problems with the file as a whole; filled in while `rows` is read. */
  warnings: string[];
}

/** The file cannot be imported at all (missing, empty, no place_id column, broken JSON). */
export class ImportFileError extends Error {
  override name = "ImportFileError";
}

const EXTENSIONS: Record<string, FileFormat> = {
  ".csv": "csv",
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
};
const SNIFF_BYTES = 64 * 1024;

export function formatFromExtension(filePath: string): FileFormat | undefined {
  return EXTENSIONS[path.extname(filePath).toLowerCase()];
}

export async function openLocationFile(filePath: string, format?: FileFormat): Promise<LocationSource> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportFileError(
      code === "ENOENT" ? `${filePath}: no such file` : `${filePath}: cannot be read (${code})`,
    );
  }
  if (!stat.isFile()) throw new ImportFileError(`${filePath}: is not a file`);
  const head = await readHead(filePath);
  if (head.trim() === "") throw new ImportFileError(`${filePath}: the file is empty`);

  const chosen = format ?? formatFromExtension(filePath) ?? sniffFormat(head);
  const warnings: string[] = [];
  if (chosen === "csv") return { path: filePath, format: chosen, warnings, rows: await csvRows(filePath, warnings) };
  if (chosen === "ndjson") return { path: filePath, format: chosen, warnings, rows: ndjsonRows(filePath, warnings) };
  return { path: filePath, format: chosen, warnings, rows: await jsonRows(filePath) };
}

async function readHead(filePath: string): Promise<string> {
  const handle = await fs.promises.open(filePath, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return stripBom(buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
}

function stripBom(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * For files without a known extension: "[" is a JSON array; "{" is NDJSON when the first line is
 * a whole object (other than a {"locations": [...]} wrapper), else a JSON document; anything else
 * is CSV.
 */
export function sniffFormat(head: string): FileFormat {
  const text = head.trimStart();
  if (text.startsWith("[")) return "json";
  if (!text.startsWith("{")) return "csv";
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  try {
    const value = JSON.parse(firstLine) as unknown;
    return isObject(value) && Array.isArray(value.locations) ? "json" : "ndjson";
  } catch {
    return "json";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text chunks of the file; notes once when the bytes were not UTF-8 (an Excel "CSV" is often Windows-1252). */
async function* textChunks(filePath: string, warnings: string[]): AsyncGenerator<string> {
  let warned = false;
  for await (const chunk of fs.createReadStream(filePath, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    if (!warned && text.includes("\uFFFD")) {
      warned = true;
      warnings.push("the file is not valid UTF-8 (saved as Windows-1252?): some characters were replaced by \uFFFD");
    }
    yield text;
  }
}

async function* csvRecords(filePath: string, warnings: string[]): AsyncGenerator<string[]> {
  const parser = new CsvParser();
  try {
    for await (const chunk of textChunks(filePath, warnings)) yield* parser.write(chunk);
    yield* parser.end();
  } catch (error) {
    if (error instanceof CsvError) throw new ImportFileError(`${filePath}: ${error.message}`);
    throw error;
  }
}

function isBlankRecord(fields: readonly string[]): boolean {
  return fields.every((value) => value.trim() === "");
}

async function csvRows(filePath: string, warnings: string[]): Promise<AsyncIterable<SourceRow>> {
  const records = csvRecords(filePath, warnings);
  const first = await records.next();
  const header = (first.done ? [] : first.value).map(normalizeKey);
  const fail = async (message: string) => {
    await records.return(undefined);
    return new ImportFileError(`${filePath}: ${message}`);
  };
  if (!header.includes("place_id")) {
    const found = header.filter(Boolean).join(", ") || "nothing";
    throw await fail(`the header (line 1) has no place_id column (found: ${found})`);
  }
  const repeated = header.find((name, i) => name !== "" && header.indexOf(name) !== i);
  if (repeated) throw await fail(`the header names the column ${repeated} twice`);

  return (async function* () {
    let row = 1;
    for await (const fields of records) {
      row++;
      if (isBlankRecord(fields)) continue;
      // Spreadsheets pad rows with empty cells; only extra cells with content are an error.
      if (fields.length > header.length && !isBlankRecord(fields.slice(header.length))) {
        yield { row, error: `has ${fields.length} fields but the header has ${header.length}` };
        continue;
      }
      const record: RawRecord = {};
      header.forEach((name, i) => {
        // Our own export put an apostrophe before text a spreadsheet would run (server/csv.ts).
        const field = fields[i];
        if (name !== "") record[name] = field === undefined ? field : restoreCsvText(field);
      });
      yield { row, record };
    }
  })();
}

async function* ndjsonRows(filePath: string, warnings: string[]): AsyncGenerator<SourceRow> {
  const input = Readable.from(textChunks(filePath, warnings));
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let row = 0;
  for await (const rawLine of lines) {
    row++;
    const line = row === 1 ? stripBom(rawLine) : rawLine;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      yield { row, error: `is not valid JSON (${(error as Error).message})` };
      continue;
    }
    yield isObject(value) ? { row, record: value } : { row, error: "is not a JSON object" };
  }
}

async function jsonRows(filePath: string): Promise<AsyncIterable<SourceRow>> {
  const text = stripBom(await fs.promises.readFile(filePath, "utf8"));
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`${filePath}: is not valid JSON (${(error as Error).message})`);
  }
  const items = Array.isArray(document) ? document : isObject(document) ? document.locations : undefined;
  if (!Array.isArray(items)) {
    throw new ImportFileError(`${filePath}: expected a JSON array of locations, or {"locations": [...]}`);
  }
  return (async function* () {
    for (const [index, item] of items.entries()) {
      yield isObject(item) ? { row: index + 1, record: item } : { row: index + 1, error: "is not a JSON object" };
    }
  })();
}
