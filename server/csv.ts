/**
 * The project's one CSV reader and writer (RFC 4180: quoted fields, doubled quotes, commas and
 * line breaks inside quotes, CRLF or LF line ends, a leading byte-order mark). Every CSV the site
 * writes goes through `formatCsvRow` / `formatCsv`: the catalogue export, the leads and the
 * analytics downloads (docs/operations.md, "Import and export"). Pure and browser-safe.
 *
 * The reader is lenient where spreadsheets are (a stray quote inside an unquoted field is kept as
 * text) and strict only where guessing would shift columns: an unterminated quoted field.
 */

export class CsvError extends Error {
  override name = "CsvError";
}

type State = "fieldStart" | "unquoted" | "quoted" | "quoteInQuoted";

/** Incremental parser: feed text chunks with `write`, then call `end`; each returns whole records. */
export class CsvParser {
  private state: State = "fieldStart";
  private field = "";
  private record: string[] = [];
  private started = false;
  /** A chunk ended on "\r": a "\n" starting the next chunk belongs to the same line break. */
  private skipLineFeed = false;
  private line = 1;
  private quoteLine = 1;

  write(chunk: string): string[][] {
    const records: string[][] = [];
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    let i = 0;
    if (this.skipLineFeed && text.length > 0) {
      this.skipLineFeed = false;
      if (text[0] === "\n") i = 1;
    }
    const n = text.length;
    while (i < n) {
      if (this.state === "quoted") {
        const close = text.indexOf('"', i);
        const end = close === -1 ? n : close;
        const content = text.slice(i, end);
        this.field += content;
        this.line += countLineFeeds(content);
        if (close === -1) break;
        this.state = "quoteInQuoted";
        i = close + 1;
        continue;
      }
      const c = text[i];
      if (this.state === "quoteInQuoted") {
        if (c === '"') {
          this.field += '"';
          this.state = "quoted";
          i++;
          continue;
        }
        // The field's closing quote. Text after it and before the next comma is kept as is.
        this.state = "unquoted";
      }
      if (c === ",") {
        this.record.push(this.field);
        this.field = "";
        this.state = "fieldStart";
        i++;
      } else if (c === "\n" || c === "\r") {
        records.push(this.finishRecord());
        this.line++;
        i++;
        if (c === "\r") {
          if (i === n) this.skipLineFeed = true;
          else if (text[i] === "\n") i++;
        }
      } else if (c === '"' && this.state === "fieldStart") {
        this.state = "quoted";
        this.quoteLine = this.line;
        i++;
      } else {
        const stop = nextDelimiter(text, i);
        this.field += text.slice(i, stop);
        this.state = "unquoted";
        i = stop;
      }
    }
    return records;
  }

  end(): string[][] {
    if (this.state === "quoted") {
      throw new CsvError(`unterminated quoted field starting on line ${this.quoteLine} (a " without its closing ")`);
    }
    if (this.state === "fieldStart" && this.record.length === 0) return [];
    return [this.finishRecord()];
  }

  private finishRecord(): string[] {
    this.record.push(this.field);
    const record = this.record;
    this.record = [];
    this.field = "";
    this.state = "fieldStart";
    return record;
  }
}

function nextDelimiter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "," || c === "\n" || c === "\r") return i;
  }
  return text.length;
}

function countLineFeeds(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Parses a whole CSV text into records (a blank line is a record with one empty field). */
export function parseCsv(text: string): string[][] {
  const parser = new CsvParser();
  return [...parser.write(text), ...parser.end()];
}

/**
 * A cell to write. Text is owners' and visitors' words, so a spreadsheet must never run it;
 * numbers and booleans are written as they are (a number such as -5 is not a formula, and an
 * apostrophe would turn it into text).
 */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * Text a spreadsheet would run as a formula starts with = + - @, a tab or a carriage return
 * (OWASP "CSV injection"). Apostrophes before one of those count too, so that neutralising can
 * be undone exactly (`restoreCsvText`): "'=x" is written "''=x" and read back as "'=x".
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** What `neutralizeCsvText` wrote: an apostrophe it added, then the text that needed it. */
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/** The text with a leading apostrophe when a spreadsheet would otherwise run it as a formula. */
export function neutralizeCsvText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The inverse of `neutralizeCsvText`, for an importer reading a file this site wrote: the
 * apostrophe in front of = + - @ tab or CR is dropped; any other text is kept as it is.
 */
export function restoreCsvText(text: string): string {
  return NEUTRALISED.test(text) ? text.slice(1) : text;
}

/**
 * One field: text neutralised (see above), then quoted when it must be (delimiters, quotes) or
 * when a spreadsheet would trim it.
 */
export function formatCsvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  const text = neutralizeCsvText(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF line end. */
export function formatCsvRow(values: readonly CsvCell[]): string {
  return `${values.map(formatCsvField).join(",")}\r\n`;
}

/** A header and its rows as one CSV text. */
export function formatCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map(formatCsvRow).join("");
}
