import { sql } from "drizzle-orm";
import { DEFAULT_RADIUS_MILES, placeLabel } from "../../domain/search";
import type { Database } from "../db/client";
import { logger } from "../logger";
import { MAX_PLACE_QUERY_LENGTH, MAX_PLACE_SLUG_LENGTH } from "../../domain/input-limits";
import { parseSearchParams } from "../../domain/search-params";
import { placeFromPoint, placeFromSlug, placeFromText, type SearchPlace } from "../geo/resolve-place";
import { searchResultsPage, type SearchPlaceLike } from "./service";

/**
 * Search demand (docs/product.md section 10, "Platform analytics"): which places visitors search
 * on the results page, what they find, and where nothing is within 100 miles. The results loader
 * calls `recordResultsSearch`; counts wait in memory and are added to `search_demand_daily` in
 * one upsert every few seconds and at shutdown, so a search costs a map update, not a write.
 * Only aggregated counts per place and day are kept: never the typed text, an address,
 * coordinates or who searched.
 */

/** The place a search is counted under: its results slug and label (a point: its nearest town). */
export interface DemandPlace {
  slug: string;
  label: string;
  state: string | null;
}

/** Searches that named no place we know, counted together under this key. */
export const UNKNOWN_PLACE: DemandPlace = { slug: "?", label: "Place not found", state: null };

export interface DemandCount {
  place: DemandPlace;
  /** The search's result count (with the visitor's filters). */
  results: number;
  /** No listing at all within 100 miles (a state: none in it). */
  noneWithin100: boolean;
}

interface Entry {
  date: string;
  place_key: string;
  place_label: string;
  state: string | null;
  searches: number;
  results: number;
  empty_searches: number;
  none_within_100: number;
}

/** How often the counts are written; a shutdown writes what is left. */
export const DEMAND_FLUSH_MS = 5_000;
/** Places per day held in memory at most (the gazetteer's towns and states bound it anyway). */
const MAX_ENTRIES = 50_000;

export class SearchDemandRecorder {
  private buffer = new Map<string, Entry>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Counts lost because the buffer was full or a write failed twice (logged). */
  dropped = 0;

  constructor(private readonly db: Database) {}

  record(count: DemandCount, now = new Date()): void {
    const date = now.toISOString().slice(0, 10);
    const id = `${date}\u0000${count.place.slug}`;
    let entry = this.buffer.get(id);
    if (!entry) {
      if (this.buffer.size >= MAX_ENTRIES) {
        this.dropped++;
        return;
      }
      entry = {
        date,
        place_key: count.place.slug,
        place_label: count.place.label,
        state: count.place.state,
        searches: 0,
        results: 0,
        empty_searches: 0,
        none_within_100: 0,
      };
      this.buffer.set(id, entry);
    }
    entry.searches++;
    entry.results += count.results;
    if (count.results === 0) entry.empty_searches++;
    if (count.noneWithin100) entry.none_within_100++;
  }

  /** Counts waiting to be written (tests, shutdown logs). */
  get pending(): number {
    return this.buffer.size;
  }

  /** Writes the counts gathered so far in one upsert; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.buffer.size === 0) return;
    const batch = this.buffer;
    this.buffer = new Map();
    // Sorted by key, so that two instances writing at once lock rows in the same order.
    const rows = [...batch.values()].sort((a, b) =>
      a.date === b.date
        ? a.place_key < b.place_key
          ? -1
          : a.place_key > b.place_key
            ? 1
            : 0
        : a.date < b.date
          ? -1
          : 1,
    );
    try {
      await this.db.execute(sql`
        insert into search_demand_daily as d (date, place_key, place_label, state, searches, results, empty_searches,
          none_within_100)
        select x.date, x.place_key, x.place_label, x.state, x.searches, x.results, x.empty_searches, x.none_within_100
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(date date, place_key text, place_label text,
          state text, searches bigint, results bigint, empty_searches bigint, none_within_100 bigint)
        order by x.date, x.place_key
        on conflict (date, place_key) do update set
          place_label = excluded.place_label,
          state = coalesce(excluded.state, d.state),
          searches = d.searches + excluded.searches,
          results = d.results + excluded.results,
          empty_searches = d.empty_searches + excluded.empty_searches,
          none_within_100 = d.none_within_100 + excluded.none_within_100`);
    } catch (error) {
      // Put the counts back for the next flush (unless they would overflow the buffer).
      let kept = 0;
      for (const [id, entry] of batch) {
        const current = this.buffer.get(id);
        if (current) {
          current.searches += entry.searches;
          current.results += entry.results;
          current.empty_searches += entry.empty_searches;
          current.none_within_100 += entry.none_within_100;
        } else if (this.buffer.size < MAX_ENTRIES) this.buffer.set(id, entry);
        else {
          this.dropped += entry.searches;
          continue;
        }
        kept++;
      }
      logger.warn({ err: error, places: batch.size, kept }, "search demand not written; retried with the next flush");
    }
  }

  start(everyMs = DEMAND_FLUSH_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

let recorder: SearchDemandRecorder | undefined;

/** At boot: counts from now on are written to `db` every `everyMs`. */
export function startSearchDemand(db: Database, everyMs = DEMAND_FLUSH_MS): SearchDemandRecorder {
  recorder ??= new SearchDemandRecorder(db);
  recorder.start(everyMs);
  return recorder;
}

/** At shutdown: writes what is left. */
export async function stopSearchDemand(): Promise<void> {
  const current = recorder;
  recorder = undefined;
  await current?.stop();
}

/** The path of a results page, with a point search's point: what "the same search" means. */
function searchedAt(url: URL): string {
  const path = url.pathname.endsWith(".data") ? url.pathname.slice(0, -".data".length) : url.pathname;
  if (path !== "/rv-storage" && path !== "/rv-storage/") return path;
  return `/rv-storage?lat=${url.searchParams.get("lat") ?? ""}&lng=${url.searchParams.get("lng") ?? ""}`;
}

/**
 * Whether nothing at all is within 100 miles of `place` (a state: in it), whatever the filters.
 * Asks the index only when the search's own answer cannot tell.
 */
export function noneWithin100(
  place: SearchPlaceLike,
  search: { total: number; radius: number; filtered: boolean },
): boolean {
  const state = place.kind === "state";
  if (search.total > 0 && (state || search.radius <= DEFAULT_RADIUS_MILES)) return false;
  if (search.total === 0 && !search.filtered && (state || search.radius === DEFAULT_RADIUS_MILES)) return true;
  const { result } = searchResultsPage(place, {
    sizes: [],
    amenities: [],
    sort: "distance",
    page: 1,
    pageSize: 0,
    radius: DEFAULT_RADIUS_MILES,
  });
  return result.total === 0;
}

/** A page view as the analytics endpoint received it (docs/api.md, "Analytics events"). */
export interface ViewedPage {
  /** The page's address as the browser had it, query included (a path alone under Do-Not-Track). */
  url: string;
  /** The page before it in the visit; absent under Do-Not-Track. */
  referrer?: string | null;
  /** Under Do-Not-Track, in place of the referrer: the page before had the same path. */
  samePath?: boolean | null;
}

const RESULTS_PATH = "/rv-storage";

/**
 * The search a page view of a results page is, or null when it is none to count: another page, a
 * later page of results, re-sorting, filtering or paging the place already shown (the page before
 * was the same search), or an address the page answers with an error for (too long, bad filters).
 * A results page that names no place we know (a slug, a point outside the USA, typed text) counts
 * as "Place not found", never with the text. The result count is the index's, not the browser's
 * word: a page view can only say which page was seen.
 */
export function searchOfPageView(view: ViewedPage, siteOrigin: string): DemandCount | null {
  let url: URL;
  try {
    // Only the path and query matter: the browser may know the site by another name than PUBLIC_URL.
    url = new URL(view.url, siteOrigin);
  } catch {
    return null;
  }
  const path = url.pathname;
  let slug: string | undefined;
  if (path.startsWith(`${RESULTS_PATH}/`) && path.length > RESULTS_PATH.length + 1) {
    const rest = path.slice(RESULTS_PATH.length + 1);
    if (rest.includes("/")) return null;
    try {
      slug = decodeURIComponent(rest);
    } catch {
      return null;
    }
    if (slug.length > MAX_PLACE_SLUG_LENGTH) return null;
  } else if (path !== RESULTS_PATH && path !== `${RESULTS_PATH}/`) return null;

  if (view.samePath) return null;
  if (view.referrer) {
    try {
      const from = new URL(view.referrer);
      if (from.origin === url.origin && searchedAt(from) === searchedAt(url)) return null;
    } catch {
      // Not an address: an arrival from somewhere we cannot tell.
    }
  }

  const where = url.searchParams.get("where");
  if (where !== null) {
    // A place it names redirects to that place's page, where the view is counted.
    if (where.length > MAX_PLACE_QUERY_LENGTH) return null;
    const text = where.trim();
    return text && placeFromText(text) ? null : unknownPlace();
  }
  const parsed = parseSearchParams(url.searchParams);
  if (!parsed.ok || parsed.page !== 1) return null;
  let place: SearchPlace | undefined;
  if (slug !== undefined) place = placeFromSlug(slug);
  else if (parsed.point) place = placeFromPoint(parsed.point.lat, parsed.point.lng);
  else return null; // the search box and the list by state: no place searched
  if (!place) return unknownPlace();

  const { sizes, amenities, q, rv, maxPrice, available } = parsed.filters;
  const { result } = searchResultsPage(place, {
    ...parsed.filters,
    sort: parsed.sort,
    page: 1,
    pageSize: 0,
    radius: parsed.radius,
  });
  const filtered =
    sizes.length > 0 ||
    amenities.length > 0 ||
    Boolean(q) ||
    Boolean(rv) ||
    maxPrice !== undefined ||
    Boolean(available);
  return {
    place: {
      slug: place.slug,
      label: placeLabel(place),
      state: place.state ?? null,
    },
    results: result.total,
    noneWithin100: noneWithin100(place, { total: result.total, radius: parsed.radius, filtered }),
  };
}

function unknownPlace(): DemandCount {
  return { place: UNKNOWN_PLACE, results: 0, noneWithin100: false };
}

/**
 * The analytics endpoint's hook: counts the searches among new page views (each event once: a
 * batch sent again is not counted again), when the recorder runs (in the app after boot). Counting
 * from the browser's page view, not from the page's rendering, counts every visitor's search
 * whether an instance rendered the page or a shared cache answered it (docs/operations.md).
 */
export function recordPageViews(views: Iterable<ViewedPage>, siteOrigin: string, now = new Date()): void {
  if (!recorder) return;
  for (const view of views) {
    const count = searchOfPageView(view, siteOrigin);
    if (count) recorder.record(count, now);
  }
}
