import { and, asc, gt, sql, type AnyColumn } from "drizzle-orm";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import type { Tier } from "../../domain/tiers";
import type { Database } from "../db/client";
import { listedLocation, locations } from "../db/schema";
import { FLAG_COLUMN } from "../locations/amenities";
import type { Dimension } from "../locations/types";
import { AMENITY_BIT, TEXT_AMENITY_BIT } from "./masks";
import { SearchIndexBuilder, type SearchIndex } from "./search-index";
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
    for (const { userRatingsTotal, reviewStarSum, ...row } of rows) {
      builder.add({
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
      });
    }
    if (rows.length < CHUNK_ROWS) break;
    after = rows[rows.length - 1]!.id;
  }
  return builder.finish("database");
}
