import { and, count, eq, getTableColumns, inArray, isNotNull, sql } from "drizzle-orm";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { listedLocation, listingOwners, locations, type LocationRow } from "../db/schema";
import { Lru } from "../lru";
import { logger } from "../logger";
import { SAMPLE_LOCATION } from "./sample";

/**
 * Reads of the catalogue for pages. When the database cannot be read, the last good answer is
 * served from memory, else the built-in sample location (docs/product.md section 8, "Database failure").
 */
// Bounded: a crawler walking every listing must not keep the whole catalogue in memory.
const lastGood = new Lru<unknown>(5000);

/**
 * `read()`, remembered under `key`; when the database fails, the last good answer, else
 * `fallback(error)` (docs/operations.md, "When the database is unreachable").
 */
async function withFallback<T>(key: string, read: () => Promise<T>, fallback: (error: unknown) => T): Promise<T> {
  try {
    const value = await read();
    lastGood.set(key, value);
    return value;
  } catch (error) {
    const remembered = lastGood.get(key);
    logger.warn(
      { err: error, key, remembered: remembered !== undefined },
      "catalogue read failed; serving the last good answer or the sample",
    );
    return remembered !== undefined ? (remembered as T) : fallback(error);
  }
}

/** The database failed and nothing was cached: the caller answers 'Failed to load location'. */
export class CatalogueUnavailableError extends Error {
  override name = "CatalogueUnavailableError";
}

/** A listing's row and whether anyone manages it (the facility page's "Verified owner"). */
export type FacilityRow = LocationRow & { verifiedOwner?: boolean };

/**
 * The facility page's query, built once per database: building it (sixty columns, the owner
 * subquery) cost more than PGlite took to run it. On PostgreSQL it is a named prepared statement.
 */
function prepareLocationBySlug(db: Database) {
  return db
    .select({
      ...getTableColumns(locations),
      verifiedOwner: sql<boolean>`exists (select 1 from ${listingOwners} where ${listingOwners.locationId} = ${locations.placeId})`,
    })
    .from(locations)
    .where(eq(locations.slug, sql.placeholder("slug")))
    .limit(1)
    .prepare("location_by_slug");
}
const locationBySlug = new WeakMap<Database, ReturnType<typeof prepareLocationBySlug>>();

/** The listing of a facility page's slug, with its owner flag in the same indexed query. */
export async function getLocationBySlug(slug: string): Promise<FacilityRow | undefined> {
  if (slug === SAMPLE_LOCATION.slug) return SAMPLE_LOCATION;
  return withFallback(
    `slug:${slug}`,
    async () => {
      const db = getDatabase();
      let query = locationBySlug.get(db);
      if (!query) locationBySlug.set(db, (query = prepareLocationBySlug(db)));
      const [row] = await query.execute({ slug });
      return row;
    },
    (error) => {
      // "Not found" would be a lie when the database could not be asked.
      throw new CatalogueUnavailableError("The catalogue could not be read", { cause: error });
    },
  );
}

/** The place id piece of a slug matched against ids lower-cased and stripped like the slug's. */
export async function getLocationByIdPiece(piece: string): Promise<LocationRow | undefined> {
  const [row] = await getDatabase()
    .select()
    .from(locations)
    .where(sql`regexp_replace(lower(${locations.placeId}), '[^a-z0-9_]', '', 'g') = ${piece}`)
    .limit(1);
  return row;
}

export async function countLocations(): Promise<number> {
  const [row] = await getDatabase().select({ n: count() }).from(locations);
  return row?.n ?? 0;
}

/** All listings of one state with coordinates; the search index replaces this for radius queries. */
export function getLocationsInState(state: string): Promise<LocationRow[]> {
  return withFallback(
    `state:${state}`,
    () =>
      getDatabase()
        .select()
        .from(locations)
        .where(
          and(
            eq(locations.state, state),
            isNotNull(locations.latitude),
            isNotNull(locations.longitude),
            listedLocation,
          ),
        )
        .orderBy(locations.name),
    () => (SAMPLE_LOCATION.state === state ? [SAMPLE_LOCATION] : []),
  );
}

/** Listed listings by place id, in the order of `ids` (missing, hidden and deleted ones left out). */
export async function getLocationsByIds(ids: readonly string[]): Promise<LocationRow[]> {
  if (ids.length === 0) return [];
  const rows = await withFallback(
    `ids:${ids.join(",")}`,
    () =>
      getDatabase()
        .select()
        .from(locations)
        .where(and(inArray(locations.placeId, [...ids]), listedLocation)),
    (error) => {
      throw error;
    },
  );
  const byId = new Map(rows.map((r) => [r.placeId, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
