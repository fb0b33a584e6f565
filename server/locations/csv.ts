/**
 * A small RFC 4180 CSV reader and writer: quoted fields, doubled quotes, commas and line breaks
 * inside quotes, CRLF or LF line ends, and a leading byte-order mark. Pure and browser-safe.
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

/** Quotes a field when it must be (delimiters, quotes) or when a spreadsheet would trim it. */
export function formatCsvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One record with its CRLF line end. */
export function formatCsvRow(values: readonly string[]): string {
  return `${values.map(formatCsvField).join(",")}\r\n`;
}
