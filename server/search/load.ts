import { and, asc, gt, inArray, sql, type AnyColumn } from "drizzle-orm";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import type { Tier } from "../../domain/tiers";
import type { Database } from "../db/client";
import { listedLocation, locations } from "../db/schema";
import { FLAG_COLUMN } from "../locations/amenities";
import type { Dimension } from "../locations/types";
import { AMENITY_BIT, TEXT_AMENITY_BIT } from "./masks";
import { SearchIndexBuilder, type SearchIndex } from "./search-index";
import type { SearchSourceRow } from "./source-row";
import { shownRating } from "./source-row";

/** Rows per round trip: keeps a large catalogue from arriving as one huge result. */
const CHUNK_ROWS = 5000;

/** The boolean column of a flag; FLAG_COLUMN names the table's property for it. */
function flagColumn(flag: AmenityFlag): AnyColumn {
  const column = (locations as unknown as Record<string, AnyColumn | undefined>)[FLAG_COLUMN[flag]];
  if (!column) throw new Error(`search: no column for amenity ${flag}`);
  return column;
}

/**
 * The amenity mask computed by the database (see masks.ts for the bit layout), so that a row
 * arrives as one integer instead of 21 fields. Each term is parenthesised because Postgres gives
 * `<<` and `|` the same precedence.
 */
const amenityMaskSql = sql<number>`(${sql.join(
  [
    ...AMENITY_FLAGS.map(
      (flag) => sql`((${flagColumn(flag)})::int << ${sql.raw(String(Math.log2(AMENITY_BIT[flag])))})`,
    ),
    ...(
      [
        [locations.parkingOptions, TEXT_AMENITY_BIT.parking_options],
        [locations.paymentOptions, TEXT_AMENITY_BIT.payment_options],
        [locations.accessibilityOptions, TEXT_AMENITY_BIT.accessibility_options],
      ] as const
    ).map(([column, bit]) => sql`((coalesce(${column}, '') ~ '\\S')::int << ${sql.raw(String(Math.log2(bit)))})`),
  ],
  sql` | `,
)})`;

/** Only what the index keeps; image URLs are cut to the first in SQL. */
const searchColumns = {
  id: locations.placeId,
  slug: locations.slug,
  name: locations.name,
  address: sql<string | null>`coalesce(${locations.address}, ${locations.shortFormattedAddress})`,
  state: locations.state,
  lat: locations.latitude,
  lng: locations.longitude,
  rating: locations.rating,
  userRatingsTotal: locations.userRatingsTotal,
  reviewCount: locations.reviewCount,
  reviewStarSum: locations.reviewStarSum,
  tier: locations.tier,
  isDemo: locations.isDemo,
  photo: sql<string | null>`${locations.imageUrls} ->> 0`,
  dimensions: locations.dimensions,
  amenityMask: amenityMaskSql,
  offers: locations.sizeOffers,
  clearanceFeet: locations.coveredClearanceFeet,
};

/**
 * Reads every listed location's search fields (hidden and deleted ones are left out, docs/product.md
 * section 12) in chunks (keyset on the place id, so each row is read
 * once even while others are written) and builds a new index. Throws when the database fails.
 */
export async function buildSearchIndex(db: Database): Promise<SearchIndex> {
  const builder = new SearchIndexBuilder();
  let after: string | undefined;
  for (;;) {
    const rows = await db
      .select(searchColumns)
      .from(locations)
      .where(and(listedLocation, after === undefined ? undefined : gt(locations.placeId, after)))
      .orderBy(asc(locations.placeId))
      .limit(CHUNK_ROWS);
    for (const row of rows) builder.add(sourceRowOf(row));
    if (rows.length < CHUNK_ROWS) break;
    after = rows[rows.length - 1]!.id;
  }
  return builder.finish("database");
}

type SelectedRow = { [K in keyof typeof searchColumns]: unknown } & { id: string };

function sourceRowOf(selected: SelectedRow): SearchSourceRow {
  const { userRatingsTotal, reviewStarSum, ...row } = selected as unknown as Omit<SearchSourceRow, "rating"> & {
    rating: number | string | null;
    userRatingsTotal: number | null;
    reviewStarSum: number | null;
    amenityMask: number | string;
  };
  return {
    ...row,
    tier: row.tier as Tier,
    ...shownRating({
      rating: row.rating === null ? null : Number(row.rating),
      userRatingsTotal,
      reviewCount: row.reviewCount,
      reviewStarSum,
    }),
    amenityMask: Number(row.amenityMask),
    dimensions: row.dimensions as Dimension[] | null,
    offers: row.offers as unknown[] | null,
  };
}

/**
 * The search rows of the given listings as they are now: a listing missing from the answer was
 * deleted, hidden or never existed, and leaves the index.
 */
export async function loadSearchRows(db: Database, ids: readonly string[]): Promise<SearchSourceRow[]> {
  const rows: SearchSourceRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    const chunk = ids.slice(i, i + CHUNK_ROWS);
    const found = await db
      .select(searchColumns)
      .from(locations)
      .where(and(listedLocation, inArray(locations.placeId, chunk)));
    for (const row of found) rows.push(sourceRowOf(row));
  }
  return rows;
}

/**
 * The oldest transaction still running (`pg_snapshot_xmin`): every change of an older one is
 * visible to a read that starts after this, so a build that reads the table next reflects them,
 * and the changes to apply after it are those of this transaction on (docs/operations.md, "Search
 * index").
 */
export async function changeHorizon(db: Database): Promise<string> {
  const result = await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`);
  return String((result as unknown as { rows: { horizon: string }[] }).rows[0]!.horizon);
}

/**
 * The listings changed by transactions from `horizon` on (some may have been applied already:
 * applying again is harmless), and the horizon for the next read, taken by the same statement.
 * `more` when there were over `limit` changes: the caller rebuilds instead.
 *
 * Read in xid order, the order of the index its condition uses: ordered by `seq`, PostgreSQL may
 * walk the primary key from the oldest change while it waits for the first recent one (after a
 * large import, before the table is analysed: 200-1,300 ms a read with 1,000,000 old changes,
 * against well under 1 ms).
 */
export async function changesSince(
  db: Database,
  horizon: string,
  limit: number,
): Promise<{ ids: string[]; horizon: string; more: boolean }> {
  const result = await db.execute(sql`
    with h as (select pg_snapshot_xmin(pg_current_snapshot())::text as horizon)
    select h.horizon, c.place_id from h left join lateral (
      select place_id from location_changes where xid >= ${horizon}::xid8 order by xid limit ${limit + 1}
    ) c on true`);
  const rows = (result as unknown as { rows: { horizon: string; place_id: string | null }[] }).rows;
  const ids = new Set<string>();
  for (const row of rows) if (row.place_id !== null) ids.add(row.place_id);
  const count = rows.filter((row) => row.place_id !== null).length;
  return { ids: [...ids], horizon: String(rows[0]!.horizon), more: count > limit };
}

/**
 * The database's identity: its cluster's `system_identifier` and its name (one server may hold
 * several). A snapshot is used only with the database it was read from.
 */
export async function databaseIdentity(db: Database): Promise<string> {
  const result = await db.execute(
    sql`select system_identifier::text || '/' || current_database() as id from pg_control_system()`,
  );
  return String((result as unknown as { rows: { id: string }[] }).rows[0]!.id);
}

/**
 * Whether this database's transactions have reached `horizon`: a snapshot's horizon beyond them
 * means the database is not the one the snapshot was read from (a restore into a new cluster).
 */
export async function horizonReached(db: Database, horizon: string): Promise<boolean> {
  const result = await db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot()) >= ${horizon}::xid8 as reached`);
  return (result as unknown as { rows: { reached: boolean }[] }).rows[0]!.reached === true;
}

/** Listed locations with a point the index can use (columns.ts `usablePoint`; the table checks the ranges). */
export async function countIndexable(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(locations)
    .where(
      and(
        listedLocation,
        sql`${locations.latitude} is not null and ${locations.longitude} is not null`,
        sql`not (${locations.latitude} = 0 and ${locations.longitude} = 0)`,
      ),
    );
  return Number(row?.count ?? 0);
}
