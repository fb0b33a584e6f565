/**
 * The index's strings without a JavaScript string per row (docs/operations.md, "Search index"):
 * a million listings' names, addresses and ids as a million objects each cost the heap hundreds of
 * megabytes and every garbage collection the time to walk them. Here a column's strings sit end to
 * end in one UTF-8 buffer, and the few that repeat (states, size lists, photo URLs once their
 * listing's id is taken out) are numbers into a table. A page decodes only its own rows.
 */

/** The typed arrays the index's columns are made of. */
export type Numbers = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * `array`, or a copy half as long again (at least `length`) when it is shorter. The build leaves
 * spare rows (columns.ts `spareRows`), so appending copies a column only after many changes.
 */
export function room<T extends Numbers>(array: T, length: number): T {
  if (array.length >= length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(length, Math.ceil(array.length * 1.5) + 16));
  bigger.set(array);
  return bigger;
}

/** The parts of a column a snapshot stores and reads back (snapshot.ts). */
export interface TextColumnParts {
  count: number;
  starts: Uint32Array;
  bytes: Uint8Array;
  nulls: Uint8Array;
}

/**
 * Strings by entry number, appended one after another: entry i is bytes starts[i] .. starts[i + 1]
 * of one buffer. Null is told apart from "" by `nulls`.
 */
export class TextColumn {
  count = 0;
  private starts: Uint32Array;
  private bytes: Buffer;
  private nulls: Uint8Array;
  /** Whether every string so far was plain ASCII (one byte a character). */
  private lastWasAscii = true;

  constructor(entries = 1024, bytesPerEntry = 32, parts?: TextColumnParts) {
    if (parts) {
      this.count = parts.count;
      this.starts = parts.starts;
      this.bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.byteLength);
      this.nulls = parts.nulls;
      return;
    }
    this.starts = new Uint32Array(entries + 1);
    this.bytes = Buffer.alloc(entries * bytesPerEntry);
    this.nulls = new Uint8Array(entries);
  }

  /** Appends a string (or null) and returns its entry number. */
  push(value: string | null): number {
    const i = this.count;
    const at = this.starts[i]!;
    this.starts = room(this.starts, i + 2);
    this.nulls = room(this.nulls, i + 1);
    let written = 0;
    if (value !== null && value.length > 0) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      if (this.bytes.length < at + value.length * 3) {
        const bigger = Buffer.alloc(Math.max(at + value.length * 3, Math.ceil(this.bytes.length * 1.5) + 64));
        this.bytes.copy(bigger, 0, 0, at);
        this.bytes = bigger;
      }
      written = this.bytes.write(value, at, "utf8");
    }
    this.lastWasAscii = value === null || written === value.length;
    this.nulls[i] = value === null ? 1 : 0;
    this.starts[i + 1] = at + written;
    this.count = i + 1;
    return i;
  }

  /** Whether the last string pushed was plain ASCII (its bytes are its characters). */
  get lastAscii(): boolean {
    return this.lastWasAscii;
  }

  get(i: number): string | null {
    if (this.nulls[i]) return null;
    return this.bytes.toString("utf8", this.starts[i]!, this.starts[i + 1]!);
  }

  /**
   * Whether entry i, an ASCII one, contains `needle` (lower-case bytes) with its letters compared
   * case-insensitively: the same answer as `get(i).toLowerCase().includes(needle)` for ASCII text,
   * without making the string.
   */
  containsFolded(i: number, needle: Uint8Array): boolean {
    const from = this.starts[i]!;
    const last = this.starts[i + 1]! - needle.length;
    const bytes = this.bytes;
    const first = needle[0]!;
    for (let at = from; at <= last; at++) {
      if (FOLD[bytes[at]!] !== first) continue;
      let k = 1;
      while (k < needle.length && FOLD[bytes[at + k]!] === needle[k]) k++;
      if (k === needle.length) return true;
    }
    return false;
  }

  /**
   * What a snapshot stores: the bytes in use and some spare room (a twentieth more), so that the
   * first strings appended after a start from the snapshot do not copy the whole buffer.
   */
  parts(): TextColumnParts {
    const used = this.starts[this.count]!;
    return {
      count: this.count,
      starts: this.starts,
      bytes: this.bytes.subarray(0, Math.min(this.bytes.length, used + Math.max(65_536, Math.ceil(used / 20)))),
      nulls: this.nulls,
    };
  }

  /** Bytes held, spare room included. */
  get byteLength(): number {
    return this.starts.byteLength + this.bytes.byteLength + this.nulls.byteLength;
  }
}

/** ASCII upper-case letters to lower case, every other byte to itself. */
const FOLD = Uint8Array.from({ length: 256 }, (_, b) => (b >= 65 && b <= 90 ? b + 32 : b));

/** The parts of a coded column a snapshot stores and reads back. */
export interface CodeColumnParts {
  count: number;
  codes: Uint32Array;
  values: (string | null)[];
}

/**
 * Strings that repeat, as numbers into a table of the distinct ones: a state code, a size list,
 * a photo URL pattern. Code 0 is null.
 */
export class CodeColumn {
  count = 0;
  private codes: Uint32Array;
  private readonly values: (string | null)[];
  private readonly known = new Map<string, number>();

  constructor(entries = 1024, parts?: CodeColumnParts) {
    if (parts) {
      this.count = parts.count;
      this.codes = parts.codes;
      this.values = parts.values;
      parts.values.forEach((value, code) => {
        if (value !== null) this.known.set(value, code);
      });
      return;
    }
    this.codes = new Uint32Array(entries);
    this.values = [null];
  }

  /** The code of `value`, added to the table when new. */
  codeOf(value: string | null): number {
    if (value === null) return 0;
    let code = this.known.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.known.set(value, code);
    }
    return code;
  }

  push(value: string | null): number {
    const i = this.count;
    this.codes = room(this.codes, i + 1);
    this.codes[i] = this.codeOf(value);
    this.count = i + 1;
    return i;
  }

  get(i: number): string | null {
    return this.values[this.codes[i]!] ?? null;
  }

  code(i: number): number {
    return this.codes[i]!;
  }

  /** Every distinct value with its code (code 0, null, left out). */
  *table(): Generator<[code: number, value: string]> {
    for (let code = 1; code < this.values.length; code++) yield [code, this.values[code]!];
  }

  parts(): CodeColumnParts {
    return { count: this.count, codes: this.codes, values: this.values };
  }

  get byteLength(): number {
    return this.codes.byteLength;
  }
}

/** The strings of a listing the index keeps (besides its size list). */
export interface ListingStrings {
  id: string;
  slug: string;
  name: string;
  address: string | null;
  state: string | null;
  photo: string | null;
}

/** Stands for the listing's id inside a stored photo URL (ids are never empty and hold no NUL). */
const ID_MARK = "\u0000";

/**
 * The strings of a result card and of the text filter, by entry (columns.ts maps a row to its
 * entry). A photo URL is stored with its listing's id replaced by a mark, so the URLs of a million
 * listings' first photos come down to a few patterns.
 */
export class RowText {
  readonly id: TextColumn;
  readonly slug: TextColumn;
  readonly name: TextColumn;
  readonly address: TextColumn;
  readonly state: CodeColumn;
  readonly sizeLabels: CodeColumn;
  readonly photo: CodeColumn;
  /**
   * The lower-cased "name NUL address NUL state" of the entries with any character beyond ASCII;
   * the others are searched in place (TextColumn.containsFolded).
   */
  readonly unusual: Map<number, string>;

  constructor(
    entries = 1024,
    parts?: {
      id: TextColumnParts;
      slug: TextColumnParts;
      name: TextColumnParts;
      address: TextColumnParts;
      state: CodeColumnParts;
      sizeLabels: CodeColumnParts;
      photo: CodeColumnParts;
      unusual: [number, string][];
    },
  ) {
    this.id = new TextColumn(entries, 28, parts?.id);
    this.slug = new TextColumn(entries, 48, parts?.slug);
    this.name = new TextColumn(entries, 32, parts?.name);
    this.address = new TextColumn(entries, 48, parts?.address);
    this.state = new CodeColumn(entries, parts?.state);
    this.sizeLabels = new CodeColumn(entries, parts?.sizeLabels);
    this.photo = new CodeColumn(entries, parts?.photo);
    this.unusual = new Map(parts?.unusual);
  }

  get count(): number {
    return this.id.count;
  }

  /** Appends one listing's strings; returns its entry number. */
  push(row: ListingStrings & { sizeLabels: string }): number {
    const entry = this.id.push(row.id);
    this.slug.push(row.slug);
    this.name.push(row.name);
    let ascii = this.name.lastAscii;
    this.address.push(row.address);
    ascii &&= this.address.lastAscii;
    this.state.push(row.state);
    ascii &&= row.state === null || /^[\x20-\x7e]*$/.test(row.state);
    this.sizeLabels.push(row.sizeLabels);
    const photo = row.photo;
    const at = photo === null || photo.includes(ID_MARK) ? -1 : photo.indexOf(row.id);
    this.photo.push(at < 0 ? photo : photo!.slice(0, at) + ID_MARK + photo!.slice(at + row.id.length));
    if (!ascii) this.unusual.set(entry, haystackOf(row.name, row.address, row.state));
    return entry;
  }

  /** The entry's strings, each decoded once. */
  listing(entry: number): ListingStrings {
    const id = this.id.get(entry)!;
    return {
      id,
      slug: this.slug.get(entry)!,
      name: this.name.get(entry)!,
      address: this.address.get(entry),
      state: this.state.get(entry),
      photo: this.photoOf(entry, id),
    };
  }

  /** The entry's photo URL, with its id (`id`) put back. */
  private photoOf(entry: number, id: string): string | null {
    const pattern = this.photo.get(entry);
    if (pattern === null) return null;
    const at = pattern.indexOf(ID_MARK);
    return at < 0 ? pattern : pattern.slice(0, at) + id + pattern.slice(at + 1);
  }

  /**
   * Whether the entry's name, address or state contains `needle` ignoring case: the needle is
   * lower-cased text without NUL, given as a string and as its UTF-8 bytes.
   */
  contains(entry: number, needle: string, needleBytes: Uint8Array): boolean {
    const unusual = this.unusual.get(entry);
    if (unusual !== undefined) return unusual.includes(needle);
    if (needleBytes.length === 0) return true;
    // An ASCII entry cannot hold a byte beyond ASCII.
    if (this.name.containsFolded(entry, needleBytes) || this.address.containsFolded(entry, needleBytes)) return true;
    const state = this.state.get(entry);
    return state !== null && state.toLowerCase().includes(needle);
  }

  get byteLength(): number {
    let unusual = 0;
    for (const text of this.unusual.values()) unusual += 16 + 2 * text.length;
    return (
      this.id.byteLength +
      this.slug.byteLength +
      this.name.byteLength +
      this.address.byteLength +
      this.state.byteLength +
      this.sizeLabels.byteLength +
      this.photo.byteLength +
      unusual
    );
  }
}

/** The text-filter form of a listing; the query lower-cases its needle the same way. */
function haystackOf(name: string, address: string | null, state: string | null): string {
  return `${name}\u0000${address ?? ""}\u0000${state ?? ""}`.toLowerCase();
}
