/**
 * The admin catalogue's filters (docs/product.md section 12, "The catalogue"), read from the URL
 * and turned into one SQL condition, so the table, its count, the bulk "all matching" and the
 * exports all mean the same rows.
 */
import { and, eq, ilike, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { isTier, type Tier } from "../../domain/tiers";
import { listingOwners, locations } from "../db/schema";
import { stateByCode } from "../geo/states";

export const VISIBILITY_FILTERS = ["active", "listed", "hidden", "deleted", "all"] as const;
export type VisibilityFilter = (typeof VISIBILITY_FILTERS)[number];
export const YES_NO = ["yes", "no"] as const;
export type YesNo = (typeof YES_NO)[number];

export interface CatalogueFilters {
  q: string;
  state: string | null;
  tier: Tier | null;
  owned: YesNo | null;
  demo: YesNo | null;
  photos: YesNo | null;
  problems: YesNo | null;
  visibility: VisibilityFilter;
}

const yesNo = (value: string | null): YesNo | null => (value === "yes" || value === "no" ? value : null);

/**
 * Never throws: an unknown value in a hand-edited URL is the same as no filter, as the tables'
 * sort and page are (domain/table-params.ts).
 */
export function parseCatalogueFilters(params: URLSearchParams): CatalogueFilters {
  const state = (params.get("state") ?? "").toUpperCase();
  const tier = params.get("tier") ?? "";
  const visibility = params.get("visibility") ?? "";
  return {
    q: (params.get("q") ?? "").slice(0, MAX_TEXT_FILTER_LENGTH).trim(),
    state: stateByCode(state) ? state : null,
    tier: isTier(tier) ? tier : null,
    owned: yesNo(params.get("owned")),
    demo: yesNo(params.get("demo")),
    photos: yesNo(params.get("photos")),
    problems: yesNo(params.get("problems")),
    visibility: (VISIBILITY_FILTERS as readonly string[]).includes(visibility)
      ? (visibility as VisibilityFilter)
      : "active",
  };
}

/** The filters as URL parameters (defaults left out), for links and the export buttons. */
export function catalogueFilterParams(filters: CatalogueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  for (const key of ["state", "tier", "owned", "demo", "photos", "problems"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.visibility !== "active") params.set("visibility", filters.visibility);
  return params;
}

/** `%` and `_` typed by an admin are meant literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const owned = sql`exists (select 1 from ${listingOwners} where ${listingOwners.locationId} = ${locations.placeId})`;
const openProblems = sql`exists (select 1 from listing_problems p where p.location_id = ${locations.placeId} and p.status = 'open')`;

const VISIBILITY: Record<VisibilityFilter, SQL | undefined> = {
  active: sql`${locations.deletedAt} is null`,
  listed: and(isNull(locations.hiddenAt), isNull(locations.deletedAt)),
  hidden: and(isNotNull(locations.hiddenAt), isNull(locations.deletedAt)),
  deleted: sql`${locations.deletedAt} is not null`,
  all: undefined,
};

const when = (value: YesNo | null, yes: SQL) =>
  value === null ? undefined : value === "yes" ? yes : sql`not (${yes})`;

/** The rows the filters keep, as one condition on `locations`. */
export function catalogueWhere(filters: CatalogueFilters): SQL | undefined {
  const text = filters.q ? likePattern(filters.q) : null;
  return and(
    VISIBILITY[filters.visibility],
    text
      ? or(
          ilike(locations.name, text),
          ilike(locations.address, text),
          ilike(locations.city, text),
          ilike(locations.placeId, text),
        )
      : undefined,
    filters.state ? eq(locations.state, filters.state) : undefined,
    filters.tier ? eq(locations.tier, filters.tier) : undefined,
    when(filters.owned, owned),
    when(filters.demo, sql`${locations.isDemo}`),
    when(filters.photos, sql`${locations.imageCount} > 0`),
    when(filters.problems, openProblems),
  );
}
