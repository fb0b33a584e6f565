/**
 * Bulk import of locations: validates every record, then upserts the accepted ones by place_id in
 * one transaction, so an import is either written whole (minus its rejected rows) or not at all.
 */
import { DrizzleQueryError, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { locations, type NewLocationRow } from "../db/schema";
import { openLocationFile, type FileFormat, type LocationSource, type SourceRow } from "./read-file";
import { parseLocationRecord, unknownFields, type FieldError, type RawRecord } from "./record";

export interface Rejection {
  /** Where the record is in the file (see SourceRow). */
  row: number;
  placeId?: string;
  field: string;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  /** Records read, blank lines not counted. */
  read: number;
  accepted: number;
  /** Of the accepted: new place ids, and place ids already in the database. */
  inserted: number;
  updated: number;
  /** One entry per problem; a row with two bad fields appears twice. */
  rejected: Rejection[];
  rejectedRows: number;
  warnings: string[];
}

export interface ImportOptions {
  /** Validate everything, including the database checks, but write nothing. */
  dryRun?: boolean;
  /** created_at / updated_at for records without them; one instant for the whole import. */
  now?: Date;
  /** Rows per INSERT statement (58 parameters each; PostgreSQL allows 65535 per statement). */
  chunkSize?: number;
  /** The file's own warnings (filled while it is read), listed first in the report. */
  fileWarnings?: readonly string[];
  /**
   * Runs inside the import's transaction once every row is written: what it writes (the record of
   * the import) commits with the rows or not at all (docs/operations.md, "Crashes"). Not on a dry run.
   */
  beforeCommit?: (tx: Database, report: ImportReport) => Promise<void>;
}

/**
 * The database failed during the import: a refused write rolls the transaction back, so nothing
 * was written.
 */
export class ImportDatabaseError extends Error {
  override name = "ImportDatabaseError";
}

/** Executes the reads and writes of one import: the database itself, or the open transaction. */
type Executor = Pick<Database, "select" | "insert">;

type Candidate = { row: number; data: NewLocationRow & { slug: string } };

const DEFAULT_CHUNK = 500;

const OWNER_COLUMNS = ["sizeOffers", "pricesConfirmedAt", "coveredClearanceFeet", "gateHours"] as const;
type OwnerColumn = (typeof OWNER_COLUMNS)[number];

/**
 * Every column but the key and created_at takes the imported value on conflict, except:
 * `version` counts up, so an owner's form opened before the import is refused instead of
 * overwriting it (docs/product.md section 10); an administrator's hiding or deleting of a listing
 * stays (docs/product.md section 12); and an owner field the record does not carry keeps
 * its stored value, sizes with prices only for the sizes the record still lists.
 */
const KEPT_ON_UPDATE = new Set(["placeId", "createdAt", "version", "hiddenAt", "deletedAt"]);
const IMPORTED = Object.fromEntries(
  Object.entries(getTableColumns(locations))
    .filter(([key]) => !KEPT_ON_UPDATE.has(key))
    .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
);
const KEPT_OFFERS = sql.raw(
  `(select coalesce(jsonb_agg(o.offer order by o.n), '[]'::jsonb)
      from jsonb_array_elements(locations.size_offers) with ordinality as o(offer, n)
     where excluded.dimensions @> jsonb_build_array(
       jsonb_build_object('width', o.offer -> 'width', 'length', o.offer -> 'length')))`,
);

function updateOnConflict(carried: ReadonlySet<OwnerColumn>) {
  const set: Record<string, SQL> = { ...IMPORTED, version: sql.raw(`locations.version + 1`) };
  for (const column of OWNER_COLUMNS) if (!carried.has(column)) delete set[column];
  if (!carried.has("sizeOffers")) set.sizeOffers = KEPT_OFFERS;
  return set;
}

/** Which owner fields a row carries, as a key for grouping rows that share one upsert statement. */
const carriedKey = (row: NewLocationRow) => OWNER_COLUMNS.filter((c) => row[c] !== undefined).join(",");

/**
 * A copy of the text that does not share memory with the string it was cut from. V8 keeps the
 * whole parent of a sliced string alive, so place ids kept for the length of an import would
 * otherwise pin every megabyte-sized chunk of the file they were read from.
 */
function flatCopy<T extends string | undefined>(text: T): T {
  return (text === undefined ? text : Buffer.from(text, "utf8").toString("utf8")) as T;
}

class ImportRun {
  readonly report: ImportReport;
  private readonly now: Date;
  private readonly chunkSize: number;
  /** place_id -> the row it was first seen on, accepted or not. */
  private readonly firstRow = new Map<string, number>();
  /** slug -> the accepted row holding it in this file. */
  private readonly slugOwner = new Map<string, { placeId: string; row: number }>();
  /** place_id -> its new slug, for the accepted rows. */
  private readonly newSlug = new Map<string, string>();
  private readonly unknown = new Set<string>();
  private pending: Candidate[] = [];
  private readonly fileWarnings: readonly string[];

  constructor(
    private readonly executor: Executor,
    options: ImportOptions,
  ) {
    this.fileWarnings = options.fileWarnings ?? [];
    this.now = options.now ?? new Date();
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
    this.report = {
      dryRun: options.dryRun ?? false,
      read: 0,
      accepted: 0,
      inserted: 0,
      updated: 0,
      rejected: [],
      rejectedRows: 0,
      warnings: [],
    };
  }

  async add(source: SourceRow): Promise<void> {
    this.report.read++;
    const { row } = source;
    if ("error" in source) return this.reject(row, undefined, [{ field: "record", reason: source.error }]);
    for (const key of unknownFields(source.record)) this.unknown.add(key);

    const result = parseLocationRecord(source.record, { now: this.now });
    const placeId = flatCopy(result.ok ? result.row.placeId : result.placeId);
    const errors = result.ok ? [] : [...result.errors];
    if (placeId !== undefined && !errors.some((e) => e.field === "place_id")) {
      const first = this.firstRow.get(placeId);
      if (first === undefined) this.firstRow.set(placeId, row);
      else errors.unshift({ field: "place_id", reason: `duplicate place_id, first seen on row ${first}` });
    }
    if (!result.ok || errors.length > 0 || placeId === undefined) return this.reject(row, placeId, errors);

    const data = { ...result.row, placeId };
    const owner = this.slugOwner.get(data.slug);
    if (owner) {
      return this.reject(row, placeId, [
        { field: "slug", reason: `"${data.slug}" is already taken by place_id ${owner.placeId} on row ${owner.row}` },
      ]);
    }
    this.slugOwner.set(data.slug, { placeId, row });
    this.newSlug.set(placeId, data.slug);
    this.pending.push({ row, data });
    if (this.pending.length >= this.chunkSize) await this.flush();
  }

  /** Checks the pending rows against the database, then writes them (unless this is a dry run). */
  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;

    const ids = batch.map((c) => c.data.placeId);
    const slugs = batch.map((c) => c.data.slug);
    const columns = { placeId: locations.placeId, slug: locations.slug };
    const existing = await this.executor.select(columns).from(locations).where(inArray(locations.placeId, ids));
    const holders = await this.executor.select(columns).from(locations).where(inArray(locations.slug, slugs));
    const existingIds = new Set(existing.map((r) => r.placeId));
    const holderOf = new Map(holders.map((r) => [r.slug, r.placeId]));

    // A stored place holding the slug frees it when this import gives that place another slug
    // (updates are written first, below). Rejecting a row can undo such a move, hence the loop.
    let remaining = batch;
    for (;;) {
      const blocked = remaining.filter(({ data: { placeId, slug } }) => {
        const holder = holderOf.get(slug);
        if (holder === undefined || holder === placeId) return false;
        const moved = this.newSlug.get(holder);
        return moved === undefined || moved === slug;
      });
      if (blocked.length === 0) break;
      for (const { row, data } of blocked) {
        this.slugOwner.delete(data.slug);
        this.newSlug.delete(data.placeId);
        const reason = `"${data.slug}" is already used by place_id ${holderOf.get(data.slug)} in the database`;
        this.reject(row, data.placeId, [{ field: "slug", reason }]);
      }
      remaining = remaining.filter((c) => !blocked.includes(c));
    }
    const updates = remaining.filter((c) => existingIds.has(c.data.placeId));
    const inserts = remaining.filter((c) => !existingIds.has(c.data.placeId));
    this.report.accepted += updates.length + inserts.length;
    this.report.updated += updates.length;
    this.report.inserted += inserts.length;

    const rows = [...updates, ...inserts].map((c) => c.data);
    if (this.report.dryRun || rows.length === 0) return;
    const groups = new Map<string, NewLocationRow[]>();
    for (const row of rows) {
      const key = carriedKey(row);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    for (const [key, group] of groups) {
      const carried = new Set(key.split(",").filter(Boolean) as OwnerColumn[]);
      await this.executor
        .insert(locations)
        .values(group)
        .onConflictDoUpdate({ target: locations.placeId, set: updateOnConflict(carried) });
    }
  }

  finish(): ImportReport {
    this.report.warnings.unshift(...this.fileWarnings);
    if (this.unknown.size > 0) this.report.warnings.push(`ignored unknown columns: ${[...this.unknown].join(", ")}`);
    return this.report;
  }

  private reject(row: number, placeId: string | undefined, errors: FieldError[]): void {
    this.report.rejectedRows++;
    for (const { field, reason } of errors) {
      this.report.rejected.push(placeId === undefined ? { row, field, reason } : { row, placeId, field, reason });
    }
  }
}

async function run(executor: Executor, rows: Iterable<SourceRow> | AsyncIterable<SourceRow>, options: ImportOptions) {
  const importRun = new ImportRun(executor, options);
  for await (const source of rows) await importRun.add(source);
  await importRun.flush();
  return importRun.finish();
}

/**
 * Imports numbered raw records. Rejected rows are listed in the report and not written; the
 * accepted ones are upserted by place_id in one transaction (created_at keeps its first value).
 * Throws ImportFileError when the source breaks off (nothing is written), ImportDatabaseError when
 * the database refuses (nothing is written).
 */
export async function importLocations(
  db: Database,
  rows: Iterable<SourceRow> | AsyncIterable<SourceRow>,
  options: ImportOptions = {},
): Promise<ImportReport> {
  try {
    if (options.dryRun) return await run(db, rows, options);
    return await db.transaction(async (tx) => {
      const report = await run(tx, rows, options);
      await options.beforeCommit?.(tx as unknown as Database, report);
      return report;
    });
  } catch (error) {
    // Query failures come wrapped by Drizzle; anything else (a file that breaks off) passes as is.
    if (!(error instanceof DrizzleQueryError)) throw error;
    const what = options.dryRun
      ? "the database could not be read"
      : "the database write failed, so nothing was written";
    // Drizzle's own message repeats the statement with every parameter; the driver's is the useful one.
    throw new ImportDatabaseError(`${what}: ${error.cause?.message ?? error.message}`, { cause: error });
  }
}

/** Numbers plain records 1, 2, 3... for callers that hold them in memory. */
export function numberRecords(records: Iterable<RawRecord>): SourceRow[] {
  return Array.from(records, (record, index) => ({ row: index + 1, record }));
}

/** Imports an opened file; the file's own warnings come first in the report. */
export async function importSource(
  db: Database,
  source: LocationSource,
  options: ImportOptions = {},
): Promise<ImportReport> {
  return importLocations(db, source.rows, { ...options, fileWarnings: source.warnings });
}

/** Reads and imports one file (CSV, JSON or NDJSON; see read-file.ts). */
export async function importFile(
  db: Database,
  filePath: string,
  options: ImportOptions & { format?: FileFormat } = {},
): Promise<ImportReport> {
  return importSource(db, await openLocationFile(filePath, options.format), options);
}
