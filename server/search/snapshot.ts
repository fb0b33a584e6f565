/**
 * The search index saved to a file and read back (docs/operations.md, "Search index"): an instance
 * starts from the newest snapshot and applies what the change log says happened since, instead of
 * reading the whole catalogue. The columns are typed arrays and byte buffers (columns.ts, text.ts),
 * so a snapshot is those arrays end to end behind a JSON header, and reading it back makes views
 * on the file's bytes instead of objects.
 *
 *   "RVSINDEX" | header length (uint32 LE) | header JSON | sections, each at a multiple of 8
 *
 * A file that is cut short, of another format, or whose header does not match its length is
 * refused with an error naming the problem; the caller then builds from the database.
 */
import fs from "node:fs";
import path from "node:path";
import KDBush from "kdbush";
import { summariseBlocks } from "./blocks";
import { stateLists, type IndexColumns } from "./columns";
import { RowText, type CodeColumnParts, type TextColumnParts } from "./text";

const MAGIC = "RVSINDEX";
/** Bumped whenever the columns' layout or what a row's values mean changes: older files are refused. */
export const SNAPSHOT_FORMAT = 2;
/** The file's name in the data folder. */
export const SNAPSHOT_FILE = "search-index.snapshot";

/** What a snapshot reflects, besides its columns. */
export interface SnapshotInfo {
  /** The change-log horizon the columns reflect (load.ts `changeHorizon`). */
  horizon: string;
  /** Which database it was read from (load.ts `databaseIdentity`). */
  database: string;
  /** When the horizon was read (ms). */
  takenAt: number;
  skipped: number;
}

type TypedArray = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;
const TYPES = { Float64Array, Float32Array, Uint32Array, Uint16Array, Uint8Array } as const;
type TypeName = keyof typeof TYPES;

interface Section {
  name: string;
  type: TypeName | "ArrayBuffer";
  offset: number;
  length: number;
}

interface Header extends SnapshotInfo {
  format: number;
  fileBytes: number;
  size: number;
  baseSize: number;
  live: number;
  text: {
    counts: Record<"id" | "slug" | "name" | "address" | "state" | "sizeLabels" | "photo", number>;
    tables: Record<"state" | "sizeLabels" | "photo", (string | null)[]>;
    unusual: [number, string][];
  };
  sections: Section[];
}

/** The numeric columns a snapshot stores as they are. */
const NUMERIC = [
  "dead",
  "idOrder",
  "lat",
  "lng",
  "unit",
  "tierWeight",
  "rating",
  "ratingKey",
  "reviewCount",
  "amenityMask",
  "sizeMask",
  "longestFeet",
  "clearance",
  "minPrice",
  "offerStart",
  "offerLength",
  "offerPrice",
  "openStart",
  "openLength",
  "openUntil",
  "openLatest",
  "statusStart",
  "statusKind",
  "statusAt",
  "isDemo",
  "entry",
] as const satisfies readonly (keyof IndexColumns)[];

const TEXT_COLUMNS = ["id", "slug", "name", "address"] as const;
const CODE_COLUMNS = ["state", "sizeLabels", "photo"] as const;

const align8 = (n: number) => (n + 7) & ~7;

/** The array's type as the header names it (a Buffer is stored as the bytes it is). */
function typeName(array: TypedArray): TypeName {
  const name = (Object.keys(TYPES) as TypeName[]).find((type) => array instanceof TYPES[type]);
  if (!name) throw new Error(`search snapshot: cannot store a ${array.constructor.name}`);
  return name;
}

/**
 * Writes the columns to `file` (through a temporary file and a rename, so a reader never sees half
 * of one). The caller keeps the columns unchanged until the returned promise settles.
 */
export async function writeSnapshot(file: string, cols: IndexColumns, info: SnapshotInfo): Promise<number> {
  const arrays: { name: string; data: Uint8Array; type: Section["type"]; length: number }[] = [];
  const add = (name: string, array: TypedArray) =>
    arrays.push({
      name,
      type: typeName(array),
      length: array.length,
      data: new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
    });
  for (const name of NUMERIC) add(name, cols[name]);
  const treeData = cols.tree.data as ArrayBuffer;
  arrays.push({ name: "tree", type: "ArrayBuffer", length: treeData.byteLength, data: new Uint8Array(treeData) });
  for (const name of TEXT_COLUMNS) {
    const parts = cols.text[name].parts();
    add(`${name}.starts`, parts.starts);
    add(`${name}.bytes`, parts.bytes);
    add(`${name}.nulls`, parts.nulls);
  }
  for (const name of CODE_COLUMNS) add(`${name}.codes`, cols.text[name].parts().codes);

  const header: Header = {
    ...info,
    format: SNAPSHOT_FORMAT,
    fileBytes: 0,
    size: cols.size,
    baseSize: cols.baseSize,
    live: cols.live,
    text: {
      counts: {
        id: cols.text.id.count,
        slug: cols.text.slug.count,
        name: cols.text.name.count,
        address: cols.text.address.count,
        state: cols.text.state.count,
        sizeLabels: cols.text.sizeLabels.count,
        photo: cols.text.photo.count,
      },
      tables: {
        state: cols.text.state.parts().values,
        sizeLabels: cols.text.sizeLabels.parts().values,
        photo: cols.text.photo.parts().values,
      },
      unusual: [...cols.text.unusual],
    },
    sections: [],
  };
  // The sections' offsets depend on the header's length and the header lists them: lay them out
  // after a header of a generous guess, then pad the header to it.
  const draft = Buffer.from(JSON.stringify({ ...header, sections: arrays.map((a) => ({ ...a, data: undefined })) }));
  const headerRoom = align8(12 + draft.length + 64 * arrays.length + 64);
  let offset = headerRoom;
  for (const array of arrays) {
    header.sections.push({ name: array.name, type: array.type, offset, length: array.length });
    offset = align8(offset + array.data.byteLength);
  }
  header.fileBytes = offset;
  const json = Buffer.from(JSON.stringify(header));
  if (12 + json.length > headerRoom) throw new Error("search snapshot: the header outgrew its room");
  const head = Buffer.alloc(headerRoom, 0x20);
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(json.length, 8);
  json.copy(head, 12);

  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await fs.promises.open(temporary, "w");
  try {
    const pieces: Uint8Array[] = [head];
    let at = headerRoom;
    for (const array of arrays) {
      pieces.push(array.data);
      const padded = align8(at + array.data.byteLength);
      if (padded > at + array.data.byteLength) pieces.push(new Uint8Array(padded - at - array.data.byteLength));
      at = padded;
    }
    // A few pieces at a time: writev takes at most IOV_MAX buffers.
    for (let i = 0; i < pieces.length; i += 64) await handle.writev(pieces.slice(i, i + 64));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await fs.promises.rename(temporary, file);
  return header.fileBytes;
}

/** A snapshot read back: the columns (views on the file's bytes) and what they reflect. */
export interface LoadedSnapshot {
  columns: IndexColumns;
  info: SnapshotInfo;
}

/** Reads a snapshot; undefined when there is no file, an error naming the problem when it is unusable. */
export async function readSnapshot(file: string): Promise<LoadedSnapshot | undefined> {
  let bytes: Buffer;
  try {
    bytes = await fs.promises.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  // Typed arrays need their element size's alignment; a large file's buffer starts at 0.
  if (bytes.byteOffset % 8 !== 0) bytes = Buffer.from(bytes);
  if (bytes.length < 12 || bytes.toString("latin1", 0, 8) !== MAGIC) throw new Error("not a search index snapshot");
  const headerLength = bytes.readUInt32LE(8);
  if (12 + headerLength > bytes.length) throw new Error("search snapshot: cut short inside its header");
  let header: Header;
  try {
    header = JSON.parse(bytes.toString("utf8", 12, 12 + headerLength)) as Header;
  } catch {
    throw new Error("search snapshot: unreadable header");
  }
  if (header.format !== SNAPSHOT_FORMAT) {
    throw new Error(`search snapshot: format ${String(header.format)}, this version reads ${SNAPSHOT_FORMAT}`);
  }
  if (header.fileBytes !== bytes.length) {
    throw new Error(`search snapshot: ${bytes.length} bytes, its header says ${String(header.fileBytes)}`);
  }
  const sections = new Map<string, TypedArray | ArrayBuffer>();
  for (const section of header.sections) {
    if (section.type !== "ArrayBuffer" && !Object.hasOwn(TYPES, section.type)) {
      throw new Error(`search snapshot: section ${section.name} has an unknown type`);
    }
    const end =
      section.offset + section.length * (section.type === "ArrayBuffer" ? 1 : TYPES[section.type].BYTES_PER_ELEMENT);
    if (section.offset % 8 !== 0 || end > bytes.length || section.length < 0) {
      throw new Error(`search snapshot: section ${section.name} lies outside the file`);
    }
    const start = bytes.byteOffset + section.offset;
    const buffer = bytes.buffer as ArrayBuffer;
    sections.set(
      section.name,
      section.type === "ArrayBuffer"
        ? buffer.slice(start, start + section.length)
        : new TYPES[section.type](buffer, start, section.length),
    );
  }
  const get = <T extends TypedArray>(name: string, type: new (...args: never[]) => T): T => {
    const value = sections.get(name);
    if (!(value instanceof type)) throw new Error(`search snapshot: section ${name} is missing`);
    return value;
  };
  const textParts = (name: (typeof TEXT_COLUMNS)[number]): TextColumnParts => ({
    count: header.text.counts[name],
    starts: get(`${name}.starts`, Uint32Array),
    bytes: get(`${name}.bytes`, Uint8Array),
    nulls: get(`${name}.nulls`, Uint8Array),
  });
  const codeParts = (name: (typeof CODE_COLUMNS)[number]): CodeColumnParts => ({
    count: header.text.counts[name],
    codes: get(`${name}.codes`, Uint32Array),
    values: header.text.tables[name],
  });
  const text = new RowText(0, {
    id: textParts("id"),
    slug: textParts("slug"),
    name: textParts("name"),
    address: textParts("address"),
    state: codeParts("state"),
    sizeLabels: codeParts("sizeLabels"),
    photo: codeParts("photo"),
    unusual: header.text.unusual,
  });
  const treeData = sections.get("tree");
  if (!(treeData instanceof ArrayBuffer)) throw new Error("search snapshot: section tree is missing");
  const numeric = Object.fromEntries(
    NUMERIC.map((name) => {
      const value = sections.get(name);
      if (!ArrayBuffer.isView(value)) throw new Error(`search snapshot: section ${name} is missing`);
      return [name, value];
    }),
  ) as Pick<IndexColumns, (typeof NUMERIC)[number]>;
  const entry = numeric.entry;
  const read: Omit<IndexColumns, "blocks"> = {
    ...numeric,
    size: header.size,
    baseSize: header.baseSize,
    live: header.live,
    tailIds: new Map(),
    text,
    tree: KDBush.from(treeData),
    byState: stateLists(text, entry, header.baseSize),
  };
  if (read.baseSize > read.size || read.size > read.dead.length) {
    throw new Error("search snapshot: its row counts do not match its columns");
  }
  const columns: IndexColumns = { ...read, blocks: summariseBlocks(read) };
  if (columns.tree.numItems !== header.baseSize || columns.idOrder.length !== header.baseSize) {
    throw new Error("search snapshot: its tree does not match its rows");
  }
  for (let p = header.baseSize; p < header.size; p++) {
    if (!columns.dead[p]) columns.tailIds.set(text.id.get(entry[p]!)!, p);
  }
  const { horizon, database, takenAt, skipped } = header;
  return { columns, info: { horizon, database, takenAt, skipped } };
}
