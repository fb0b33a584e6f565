/**
 * One search over the columns: candidates from the k-d tree (or a state's rows), the filters
 * and the exact distance test in one pass over typed arrays, then facet counts, then only the
 * requested page is put in order (see top-k.ts) and turned into objects.
 */
import { summaryChangesAt, summaryOfStatuses, type AvailabilitySummary } from "../../domain/availability";
import { AVAILABILITIES, type Availability } from "../../domain/listings";
import type { MapMarker, SearchFacets, SearchItem, SearchQuery, SearchResult } from "../../domain/search";
import { EARTH_RADIUS_MILES, isValidLatLng } from "../geo/coordinates";
import { compareRowIds, NO_PRICE, TIER_BY_WEIGHT, type IndexColumns } from "./columns";
import {
  clearHistograms,
  countResult,
  FACETS_JSON_PIECES,
  facetHistograms,
  facetNumbers,
  facetsOf,
  type FacetHistograms,
} from "./facets";
import { AMENITY_BIT, amenityFlagsOfMask, amenityRequirement, clearanceRule, sizeRequirement } from "./masks";
import {
  availableInBlock,
  popCount,
  ratingOrder,
  BLOCK_ROWS,
  BLOCK_SHIFT,
  BLOCKS_PER_GROUP,
  FLAG_BITS,
  farthestChord,
  firstOpenAfter,
  lowestBit,
  LENGTH_STEPS,
  nearestChord,
  QUARTER_ROWS,
  QUARTERS,
  SIZE_BITS,
} from "./blocks";
import { slabBuffer } from "./slab";
import { rangeInto, searchBox } from "./spatial";
import { selectTop, SmallestKeys, type RowComparator } from "./top-k";

const RAD = Math.PI / 180;

/** Where to look besides the radius. */
export interface SearchScope {
  /**
   * A two-letter state code: search every location of that state, whatever its distance (a
   * state's results page), instead of the radius. Distances are still measured from the point.
   */
  state?: string;
  /**
   * The moment (ms) "Available now" and the cards' availability lines are judged at: a status
   * counts until its `openUntil`. The caller passes the server's clock (server/clock.ts).
   */
  now?: number;
}

/** A map pin for a result; search results always carry the distance. */
export type SearchMarker = MapMarker & { distanceMiles: number };

export interface QueryOutput {
  result: SearchResult;
  /** The nearest `maxMarkers` results (pure distance, whatever the sort), nearest first. */
  markers: SearchMarker[];
}

/** Buffers reused by every query of one index; queries are synchronous, so one set suffices. */
export interface QueryScratch {
  candidates: Uint32Array;
  results: Uint32Array;
  /** Squared chord length by row (see below), valid for the rows of the current results. */
  distance: Float64Array;
  /** The price for this query by row (NO_PRICE when unknown), valid like `distance`. */
  price: Uint32Array;
  /** The sort key (sortKey) of results[j], by j. */
  keys: Float64Array;
  /** The blocks a circle reaches (reachBlocks). */
  reached: Uint32Array;
  /** The blocks wholly inside the circle (blocks.ts), in the order found. */
  inside: Uint32Array;
  /**
   * The rows of inside[i] that are results: bit r of word 2i is the block's row r, bit r of word
   * 2i + 1 its row 32 + r (all of them for a search with nothing but its radius).
   */
  insideRows: Int32Array;
  /** 1 for a block of `inside` whose rows were added to the results. */
  taken: Uint8Array;
  /** takeBlocks': the best key of each block of `inside`, their order, the k best keys held. */
  bounds: Float64Array;
  order: Uint32Array;
  heap: Float64Array;
  /** The facet histograms, emptied at the start of each query. */
  histograms: FacetHistograms;
  /** selectTop's heap (top-k.ts). */
  top: Uint32Array;
  topKeys: Float64Array;
  /** filterCandidates' counts of priced and available rows. */
  counts: Int32Array;
}

export function createScratch(size: number): QueryScratch {
  const blocks = (size >> BLOCK_SHIFT) + 1;
  return {
    candidates: new Uint32Array(size),
    results: new Uint32Array(size),
    distance: new Float64Array(size),
    price: new Uint32Array(size),
    keys: new Float64Array(size),
    reached: new Uint32Array(blocks),
    inside: new Uint32Array(blocks),
    insideRows: new Int32Array(2 * blocks),
    taken: new Uint8Array(blocks),
    bounds: new Float64Array(blocks),
    order: new Uint32Array(blocks),
    heap: new Float64Array(64),
    histograms: facetHistograms(),
    top: new Uint32Array(64),
    topKeys: new Float64Array(64),
    counts: new Int32Array(2),
  };
}

/** Which order a query's page is in, as `filterCandidates` computes its keys. */
const SORT_DISTANCE = 0;
const SORT_RATING = 1;
const SORT_PRICE = 2;

const NO_ROWS = new Uint32Array(0);
const NO_BYTES = new Uint8Array(0);

/**
 * What a query found, before it is turned into objects or JSON: the total and facets, and the
 * requested page's rows with their distance (miles, unrounded) and price for this query.
 */
export interface Selection {
  total: number;
  page: number;
  pageSize: number;
  facets: SearchFacets;
  rows: number[];
  miles: number[];
  prices: number[];
  markers: SearchMarker[];
  /** The moment the query was judged at (ms). */
  now: number;
}

/** One page of results as objects, with the map markers. */
export function runQuery(
  cols: IndexColumns,
  scratch: QueryScratch,
  q: SearchQuery,
  scope: SearchScope = {},
  maxMarkers = 0,
): QueryOutput {
  const s = selectRows(cols, scratch, q, scope, maxMarkers);
  const items = s.rows.map((p, i) => itemAt(cols, p, s.miles[i]!, s.prices[i]!, s.now));
  return {
    result: { total: s.total, page: s.page, pageSize: s.pageSize, items, facets: s.facets },
    markers: s.markers,
  };
}

/** Steps 1 to 4 of a query: candidates, filters and facets, then the page's rows in order. */
export function selectRows(
  cols: IndexColumns,
  scratch: QueryScratch,
  q: SearchQuery,
  scope: SearchScope = {},
  maxMarkers = 0,
): Selection {
  const page = Math.max(1, Math.floor(q.page) || 1);
  const pageSize = Math.max(0, Math.floor(q.pageSize) || 0);
  const { lat: lat0, lng: lng0, radius } = q;
  const { distance, results, price: priceOf } = scratch;

  // 1. Candidates: a state's rows, or the rows in the bounding box of the circle; then every row
  // appended since the build (columns.ts), which the tree does not hold.
  let candidates: Uint32Array = NO_ROWS;
  let candidateCount = 0;
  const byRadius = scope.state === undefined;
  const stateCode = byRadius ? undefined : scope.state!.toUpperCase();
  const { baseSize, size } = cols;
  // 2. Filters, cheapest first. Distances are great-circle distances on a sphere of radius
  // 3959 miles, measured by the chord c between the two points on the unit sphere: the haversine
  // term is exactly c^2 / 4, and miles = 2R asin(c / 2). Sorting and the radius test use c^2
  // (monotonic in the distance), so no trigonometry runs per candidate; miles are computed only
  // for the rows that are shown.
  const { all: amenitiesAll, anyOf: amenitiesAny } = amenityRequirement(q.amenities);
  // NUL separates the fields of a haystack; a needle containing one could match across them.
  const needle = (q.q ?? "").replaceAll("\u0000", "").toLowerCase();
  const phi0 = lat0 * RAD;
  const lambda0 = lng0 * RAD;
  // My RV (docs/product.md): a space at least rvLength long; with covered or enclosed asked for,
  // no stated clearance below the RV's height (float32, as clearances are stored). An unknown
  // clearance keeps the location (its card says the clearance is not stated).
  const rule = q.rv?.heightFeet === undefined ? "never" : clearanceRule(q.amenities);
  const filter: Filter = {
    amenitiesAll,
    amenitiesAny,
    sizesAll: sizeRequirement(q.sizes),
    stateCode,
    needle,
    needleBytes: needle === "" ? NO_BYTES : Buffer.from(needle, "utf8"),
    x0: Math.cos(phi0) * Math.cos(lambda0),
    y0: Math.cos(phi0) * Math.sin(lambda0),
    z0: Math.sin(phi0),
    chordLimit: byRadius ? chordSquared(radius) : Infinity,
    rvLength: q.rv?.lengthFeet ?? 0,
    checkClearance: rule !== "never",
    rvHeight: Math.fround(q.rv?.heightFeet ?? 0),
    uncoveredBit: rule === "unlessUncovered" ? AMENITY_BIT.has_uncovered_parking : 0,
    // Prices (docs/product.md): the lowest known one, among the spaces that fit when an RV is set.
    priceLimit: q.maxPrice ?? NO_PRICE,
    // Available now (docs/product.md section 17): a size marked open and still fresh, long enough
    // for the RV when one is set. Counted for the facet whether or not the filter is on.
    now: scope.now ?? Date.now(),
    availableOnly: q.available === true,
    sort: q.sort === "rating" ? SORT_RATING : q.sort === "price" ? SORT_PRICE : SORT_DISTANCE,
  };
  // A search with nothing but its radius takes the blocks wholly inside its circle from their
  // summaries (blocks.ts); any other reads every candidate row.
  const plain =
    byRadius &&
    radius > 0 &&
    filter.amenitiesAll === 0 &&
    filter.amenitiesAny === 0 &&
    filter.sizesAll === 0 &&
    filter.rvLength === 0 &&
    !filter.checkClearance &&
    needle === "" &&
    filter.priceLimit === NO_PRICE &&
    !filter.availableOnly;
  const { histograms } = scratch;
  clearHistograms(histograms);
  const whole: BlockTotals = { blocks: 0, rows: 0, priced: 0, available: 0 };
  if (!isValidLatLng(lat0, lng0)) {
    candidateCount = 0;
  } else {
    if (!byRadius) {
      candidates = cols.byState.get(stateCode!) ?? NO_ROWS;
      candidateCount = candidates.length;
    } else if (plain) {
      candidates = scratch.candidates;
      candidateCount = walkBlocks(cols, scratch, filter, histograms, whole);
    } else if (radius > 0 && (masked(filter) || filter.availableOnly)) {
      candidates = scratch.candidates;
      candidateCount = maskedBlocks(cols, scratch, filter, histograms, whole);
    } else if (radius > 0) {
      candidates = scratch.candidates;
      const box = searchBox(lat0, lng0, radius);
      for (const [west, east] of box.lngRanges) {
        candidateCount = rangeInto(cols.tree, west, box.minLat, east, box.maxLat, candidates, candidateCount);
      }
    }
    if (size > baseSize && (!byRadius || radius > 0)) {
      if (candidates !== scratch.candidates) {
        scratch.candidates.set(candidates.subarray(0, candidateCount));
        candidates = scratch.candidates;
      }
      for (let p = baseSize; p < size; p++) candidates[candidateCount++] = p;
    }
  }

  const now = filter.now;
  // 3. Facets, counted as each result is accepted (facets.ts), before anything reorders `results`;
  // the whole blocks' were added by walkBlocks.
  const { counts } = scratch;
  const read = filterCandidates(cols, scratch, candidates, candidateCount, filter, histograms, counts);
  const total = read + whole.rows;
  const facets: SearchFacets = {
    ...facetsOf(histograms),
    priced: counts[0]! + whole.priced,
    available: counts[1]! + whole.available,
  };

  // 4. The page, in order.
  const byId: RowComparator = (a, b) => compareRowIds(cols, a, b);
  const { tierWeight, ratingKey, reviewCount } = cols;
  const compare: RowComparator =
    q.sort === "rating"
      ? (a, b) =>
          ratingKey[b]! - ratingKey[a]! ||
          reviewCount[b]! - reviewCount[a]! ||
          distance[a]! - distance[b]! ||
          byId(a, b)
      : q.sort === "price"
        ? (a, b) => priceOf[a]! - priceOf[b]! || distance[a]! - distance[b]! || byId(a, b)
        : (a, b) => tierWeight[b]! - tierWeight[a]! || distance[a]! - distance[b]! || byId(a, b);
  const offset = (page - 1) * pageSize;
  const rows: number[] = [];
  const miles: number[] = [];
  const prices: number[] = [];
  const wantPage = pageSize > 0 && offset < total;
  // The rows of whole blocks that may be on the page or among the markers join the rows read.
  let considered = read;
  if (whole.blocks > 0) {
    if (wantPage)
      considered = takeBlocks(cols, scratch, filter, whole.blocks, considered, offset + pageSize, filter.sort);
    if (maxMarkers > 0) considered = takeBlocks(cols, scratch, filter, whole.blocks, considered, maxMarkers, NEAREST);
    for (let i = 0; i < whole.blocks; i++) scratch.taken[i] = 0;
  }
  if (wantPage) {
    // Most rows of a large result set are passed over by their key (filterCandidates) alone.
    const top = selectTop(results, considered, offset + pageSize, compare, scratch.keys, scratch);
    for (let i = offset; i < top.length; i++) {
      const p = top[i]!;
      rows.push(p);
      miles.push(milesOf(distance[p]!));
      prices.push(priceOf[p]!);
    }
  }

  const markers: SearchMarker[] = [];
  if (maxMarkers > 0 && total > 0) {
    const nearest = selectTop(
      results,
      considered,
      maxMarkers,
      (a, b) => distance[a]! - distance[b]! || byId(a, b),
      undefined,
      scratch,
    );
    for (const p of nearest) markers.push(markerAt(cols, p, milesOf(distance[p]!)));
  }

  return { total, page, pageSize, facets, rows, miles, prices, markers, now };
}

/** What a query asks of each candidate, read once before the loop. */
interface Filter {
  amenitiesAll: number;
  amenitiesAny: number;
  sizesAll: number;
  stateCode: string | undefined;
  needle: string;
  needleBytes: Uint8Array;
  x0: number;
  y0: number;
  z0: number;
  chordLimit: number;
  rvLength: number;
  checkClearance: boolean;
  rvHeight: number;
  uncoveredBit: number;
  priceLimit: number;
  now: number;
  availableOnly: boolean;
  /** SORT_DISTANCE, SORT_RATING or SORT_PRICE. */
  sort: number;
}

/**
 * Step 2 of a query: the candidates that pass every filter go to `scratch.results` (with their
 * distance and price by row) and into the facet histograms; counts[0] gets the priced ones and
 * counts[1] the ones available now. Returns how many passed.
 *
 * A function of its own, ending in a plain return: a long loop is compiled while it runs (on-stack
 * replacement), before the code after it has run even once, and code there that still needs type
 * information (an object literal, say) threw the compiled loop away at every call.
 */
function filterCandidates(
  cols: IndexColumns,
  scratch: QueryScratch,
  candidates: Uint32Array,
  candidateCount: number,
  f: Filter,
  histograms: FacetHistograms,
  counts: Int32Array,
): number {
  const { dead, baseSize, entry, text, amenityMask, sizeMask, unit, longestFeet, clearance } = cols;
  const { minPrice, offerStart, offerLength, offerPrice, openStart, openLength, openUntil, openLatest } = cols;
  const { distance, results, price: priceOf, keys } = scratch;
  const { tierWeight, ratingKey, reviewCount } = cols;
  const { amenitiesAll, amenitiesAny, sizesAll, stateCode, needle, needleBytes, x0, y0, z0, chordLimit } = f;
  const { rvLength, checkClearance, rvHeight, uncoveredBit, priceLimit, now, availableOnly, sort } = f;
  let total = 0;
  // Counted in locals, not in `counts`: an increment of a typed array's element in every pass
  // waits for the previous pass's store.
  let priced = 0;
  let available = 0;
  for (let j = 0; j < candidateCount; j++) {
    const p = candidates[j]!;
    if (dead[p]) continue;
    // An appended row of a state's page: the tree's state lists do not hold it.
    if (p >= baseSize && stateCode !== undefined && text.state.get(entry[p]!)?.toUpperCase() !== stateCode) continue;
    const am = amenityMask[p]!;
    if ((am & amenitiesAll) !== amenitiesAll) continue;
    if (amenitiesAny !== 0 && (am & amenitiesAny) === 0) continue;
    const sm = sizeMask[p]!;
    if ((sm & sizesAll) !== sizesAll) continue;
    if (rvLength > 0 && longestFeet[p]! < rvLength) continue;
    if (checkClearance && clearance[p]! < rvHeight && (am & uncoveredBit) === 0) continue;
    const dx = unit[3 * p]! - x0;
    const dy = unit[3 * p + 1]! - y0;
    const dz = unit[3 * p + 2]! - z0;
    const c2 = dx * dx + dy * dy + dz * dz;
    if (c2 > chordLimit) continue;
    if (needle !== "" && !text.contains(entry[p]!, needle, needleBytes)) continue;
    // Open for any RV (one read); with an RV, only if one of those sizes is long enough.
    let open = now < openLatest[p]!;
    if (open && rvLength > 0) {
      open = false;
      for (let k = openStart[p]!, end = openStart[p + 1]!; k < end; k++) {
        if (now < openUntil[k]! && openLength[k]! >= rvLength) {
          open = true;
          break;
        }
      }
    }
    if (availableOnly && !open) continue;
    let price = minPrice[p]!;
    if (rvLength > 0 && price !== NO_PRICE) {
      price = NO_PRICE;
      for (let k = offerStart[p]!, end = offerStart[p + 1]!; k < end; k++) {
        if (offerLength[k]! >= rvLength) {
          price = offerPrice[k]!;
          break;
        }
      }
    }
    if (price !== NO_PRICE) priced++;
    if (price > priceLimit) continue;
    if (open) available++;
    priceOf[p] = price;
    distance[p] = c2;
    keys[total] = sortKey(sort, tierWeight[p]!, c2, price, ratingKey[p]!, reviewCount[p]!);
    results[total++] = p;
    countResult(histograms, sm, am);
  }
  counts[0] = priced;
  counts[1] = available;
  return total;
}

/**
 * A number that orders the results as the page's comparator does, up to ties (top-k.ts): tier
 * weights are 1..4 and chords at most 2, so c^2 <= 4 < 8 keeps tiers apart; ratings are ordered by
 * blocks.ts ratingOrder. Larger inputs never give a smaller key for a better row, so a block's best
 * values (blocks.ts) give a key no row of it goes below.
 */
function sortKey(sort: number, tier: number, c2: number, price: number, rating: number, reviews: number): number {
  return sort === SORT_DISTANCE ? (8 - tier) * 8 + c2 : sort === SORT_PRICE ? price : -ratingOrder(rating, reviews);
}

/** What the blocks wholly inside a circle hold (walkBlocks). */
interface BlockTotals {
  /** How many: scratch.inside[0 .. blocks - 1] are their numbers. */
  blocks: number;
  rows: number;
  priced: number;
  available: number;
}

/**
 * The candidates of a radius search with no other filter, from the blocks (blocks.ts): a block
 * wholly outside the circle is passed over; one wholly inside it, with no dead row, is counted from
 * its summary into `histograms` and `whole` and listed in scratch.inside; the rows of any other go
 * to scratch.candidates to be read one by one. Returns how many candidates; the appended rows are
 * the caller's.
 */
function walkBlocks(
  cols: IndexColumns,
  scratch: QueryScratch,
  f: Filter,
  histograms: FacetHistograms,
  whole: BlockTotals,
): number {
  const { blocks, baseSize } = cols;
  const { dead, sizes, flags, priced, quarterBox } = blocks;
  const { candidates, inside, insideRows, reached } = scratch;
  const { sizeBits, flagBits } = histograms;
  const { x0, y0, z0, chordLimit } = f;
  const reachedCount = reachBlocks(cols, scratch, f);
  let count = 0;
  for (let i = 0; i < reachedCount; i++) {
    const b = reached[i]! >>> 1;
    const from = b << BLOCK_SHIFT;
    const to = Math.min(baseSize, from + BLOCK_ROWS);
    if ((reached[i]! & 1) === 0) {
      // Cut by the circle: the rows of the quarters it reaches.
      for (let q = 0, start = from; start < to; q++, start += QUARTER_ROWS) {
        if (nearestChord(quarterBox, QUARTERS * b + q, x0, y0, z0) > chordLimit) continue;
        for (let p = start, end = Math.min(to, start + QUARTER_ROWS); p < end; p++) candidates[count++] = p;
      }
      continue;
    }
    if (dead[b]) {
      for (let p = from; p < to; p++) candidates[count++] = p;
      continue;
    }
    insideRows[2 * whole.blocks] = lowRows(to - from);
    insideRows[2 * whole.blocks + 1] = highRows(to - from);
    inside[whole.blocks++] = b;
    whole.rows += to - from;
    whole.priced += priced[b]!;
    for (let bit = 0; bit < SIZE_BITS; bit++) sizeBits[bit]! += sizes[b * SIZE_BITS + bit]!;
    for (let bit = 0; bit < FLAG_BITS; bit++) flagBits[bit]! += flags[b * FLAG_BITS + bit]!;
    whole.available += availableInBlock(blocks, b, f.now);
  }
  return count;
}

/**
 * The blocks a search's circle reaches (by their group's box, then their own), into
 * scratch.reached: 2b + 1 for block b wholly inside the circle, 2b for one partly inside.
 * Returns how many.
 */
function reachBlocks(cols: IndexColumns, scratch: QueryScratch, f: Filter): number {
  const { box, groupBox, count: blockCount } = cols.blocks;
  const { reached } = scratch;
  const { x0, y0, z0, chordLimit } = f;
  const groups = groupBox.length / 6;
  let n = 0;
  for (let g = 0; g < groups; g++) {
    if (nearestChord(groupBox, g, x0, y0, z0) > chordLimit) continue;
    const groupInside = farthestChord(groupBox, g, x0, y0, z0) <= chordLimit;
    for (let b = g * BLOCKS_PER_GROUP, end = Math.min(blockCount, b + BLOCKS_PER_GROUP); b < end; b++) {
      if (groupInside) reached[n++] = 2 * b + 1;
      else if (nearestChord(box, b, x0, y0, z0) <= chordLimit)
        reached[n++] = 2 * b + (farthestChord(box, b, x0, y0, z0) <= chordLimit ? 1 : 0);
    }
  }
  return n;
}

/**
 * The candidates of a radius search that asks for sizes, amenities, an RV or "available now", from
 * the blocks (blocks.ts): of each block its circle reaches, only the rows that have every size and
 * amenity asked for (and one of the "any of" amenities, a space about as long as the RV, and an
 * open-until time after now) are looked at, found by ANDing the block's row bitsets instead of
 * reading each row's masks.
 *
 * When those bitsets decide the filters alone (no RV, text or price limit), a block wholly inside
 * the circle with no dead row is a block of results like walkBlocks' whole ones: its rows are
 * counted (total, priced, available now, facets) without their distance or sort key, listed in
 * scratch.inside with the rows that pass in scratch.insideRows, and read again only if they may be
 * on the page (takeBlocks). The rows of any other block that pass the bitsets go to
 * scratch.candidates for filterCandidates, which tests them in full (a superset: every row that can
 * pass is there, dead ones too). Returns how many candidates; the appended rows are the caller's.
 */
function maskedBlocks(
  cols: IndexColumns,
  scratch: QueryScratch,
  f: Filter,
  histograms: FacetHistograms,
  whole: BlockTotals,
): number {
  const { blocks, baseSize, sizeMask, amenityMask } = cols;
  const { dead, sizeRows, flagRows, longRows, openLongRows, pricedRows, openStart, openRows, quarterBox } = blocks;
  const { x0, y0, z0, chordLimit } = f;
  const { candidates, inside, insideRows, reached } = scratch;
  const { now, availableOnly } = f;
  const sizesAll = bitPositions(f.sizesAll);
  const flagsAll = bitPositions(f.amenitiesAll);
  const flagsAny = bitPositions(f.amenitiesAny);
  const step = lengthStep(f.rvLength);
  const steps = LENGTH_STEPS.length;
  const decided = f.rvLength === 0 && !f.checkClearance && f.needle === "" && f.priceLimit === NO_PRICE;
  const reachedCount = reachBlocks(cols, scratch, f);
  let count = 0;
  for (let j = 0; j < reachedCount; j++) {
    const b = reached[j]! >>> 1;
    const from = b << BLOCK_SHIFT;
    const rows = Math.min(baseSize - from, BLOCK_ROWS);
    // Bit r of `low` is the block's row r, of `high` its row 32 + r.
    let low = lowRows(rows);
    let high = highRows(rows);
    for (let i = 0; i < sizesAll.length; i++) {
      const at = 2 * (b * SIZE_BITS + sizesAll[i]!);
      low &= sizeRows[at]!;
      high &= sizeRows[at + 1]!;
    }
    for (let i = 0; i < flagsAll.length; i++) {
      const at = 2 * (b * FLAG_BITS + flagsAll[i]!);
      low &= flagRows[at]!;
      high &= flagRows[at + 1]!;
    }
    if (flagsAny.length > 0) {
      let anyLow = 0;
      let anyHigh = 0;
      for (let i = 0; i < flagsAny.length; i++) {
        const at = 2 * (b * FLAG_BITS + flagsAny[i]!);
        anyLow |= flagRows[at]!;
        anyHigh |= flagRows[at + 1]!;
      }
      low &= anyLow;
      high &= anyHigh;
    }
    if (step >= 0) {
      const at = 2 * (b * steps + step);
      low &= longRows[at]!;
      high &= longRows[at + 1]!;
      if (availableOnly) {
        low &= openLongRows[at]!;
        high &= openLongRows[at + 1]!;
      }
    }
    if ((reached[j]! & 1) === 0) {
      // Cut by the circle: not the rows of quarters it does not reach.
      for (let q = 0; q < QUARTERS; q++) {
        if (nearestChord(quarterBox, QUARTERS * b + q, x0, y0, z0) <= chordLimit) continue;
        if (q < 2) low &= ~(0xffff << (16 * q));
        else high &= ~(0xffff << (16 * (q - 2)));
      }
    }
    if ((low | high) === 0) continue;
    const counted = decided && !dead[b] && (reached[j]! & 1) === 1;
    if (availableOnly || counted) {
      let openLow = 0;
      let openHigh = 0;
      for (let k = firstOpenAfter(blocks, b, now), last = openStart[b + 1]!; k < last; k++) {
        const row = openRows[k]!;
        if (row < 32) openLow |= 1 << row;
        else openHigh |= 1 << row;
      }
      if (availableOnly) {
        low &= openLow;
        high &= openHigh;
      }
      if (counted) {
        insideRows[2 * whole.blocks] = low;
        insideRows[2 * whole.blocks + 1] = high;
        inside[whole.blocks++] = b;
        whole.rows += popCount(low) + popCount(high);
        whole.priced += popCount(low & pricedRows[2 * b]!) + popCount(high & pricedRows[2 * b + 1]!);
        whole.available += popCount(low & openLow) + popCount(high & openHigh);
        for (let m = low; m !== 0; m &= m - 1) {
          const p = from + lowestBit(m);
          countResult(histograms, sizeMask[p]!, amenityMask[p]!);
        }
        for (let m = high; m !== 0; m &= m - 1) {
          const p = from + 32 + lowestBit(m);
          countResult(histograms, sizeMask[p]!, amenityMask[p]!);
        }
        continue;
      }
    }
    for (let m = low; m !== 0; m &= m - 1) candidates[count++] = from + lowestBit(m);
    for (let m = high; m !== 0; m &= m - 1) candidates[count++] = from + 32 + lowestBit(m);
  }
  return count;
}

/** Whether the blocks' row bitsets narrow a search's rows: sizes, amenities or a long enough RV. */
function masked(f: Filter): boolean {
  return (f.sizesAll | f.amenitiesAll | f.amenitiesAny) !== 0 || lengthStep(f.rvLength) >= 0;
}

/** The longest of LENGTH_STEPS (blocks.ts) at most `rvLength` feet, as its index; -1 if none. */
function lengthStep(rvLength: number): number {
  let step = -1;
  while (step + 1 < LENGTH_STEPS.length && LENGTH_STEPS[step + 1]! <= rvLength) step++;
  return step;
}

/** The low word of a block's row bits (blocks.ts) when its first `rows` rows are set. */
function lowRows(rows: number): number {
  return rows >= 32 ? -1 : (1 << rows) - 1;
}

/** The high word, likewise. */
function highRows(rows: number): number {
  return rows >= 64 ? -1 : rows > 32 ? (1 << (rows - 32)) - 1 : 0;
}

/** The positions of the bits set in `mask`, lowest first. */
function bitPositions(mask: number): number[] {
  const positions: number[] = [];
  for (let m = mask; m !== 0; m &= m - 1) positions.push(lowestBit(m));
  return positions;
}

/** The markers' order in takeBlocks: nearest first, whatever the sort. */
const NEAREST = -1;

/**
 * Adds to scratch.results (from position `n`, with their keys, distances and prices, as
 * filterCandidates does) the rows of every whole block that may hold one of the first `k` results
 * in `order` (a sort, or NEAREST); returns the new count. Blocks are taken best bound first
 * (the best key any row of the block could have) until the bound is above the k-th best key held:
 * each row of a block left out then has at least k rows before it.
 */
function takeBlocks(
  cols: IndexColumns,
  scratch: QueryScratch,
  f: Filter,
  insideCount: number,
  n: number,
  k: number,
  order: number,
): number {
  const { blocks, unit, tierWeight, ratingKey, reviewCount, minPrice } = cols;
  const { results, keys, distance, price: priceOf, inside, insideRows, taken } = scratch;
  const { x0, y0, z0, sort } = f;
  const best = new SmallestKeys(k, scratch);
  for (let i = 0; i < n; i++) best.push(order === NEAREST ? distance[results[i]!]! : keys[i]!);
  const bounds = scratch.bounds;
  for (let i = 0; i < insideCount; i++) {
    const b = inside[i]!;
    const near = order === NEAREST || order === SORT_DISTANCE ? nearestChord(blocks.box, b, x0, y0, z0) : 0;
    bounds[i] =
      order === NEAREST
        ? near
        : order === SORT_RATING
          ? -blocks.bestRating[b]!
          : sortKey(order, blocks.maxTier[b]!, near, blocks.minPrice[b]!, 0, 0);
  }
  // Views on the scratch's buffers: a typed array of its own per query would be memory outside the
  // heap, which brings full garbage collections on a busy instance.
  const byBound = scratch.order.subarray(0, insideCount);
  for (let i = 0; i < insideCount; i++) byBound[i] = i;
  byBound.sort((a, b) => bounds[a]! - bounds[b]!);
  for (let j = 0; j < insideCount; j++) {
    const i = byBound[j]!;
    if (bounds[i]! > best.worst) break;
    if (taken[i]) continue;
    taken[i] = 1;
    const from = inside[i]! << BLOCK_SHIFT;
    // Its rows that are results, as a 64-bit set: `low` then `high`.
    let low = insideRows[2 * i]!;
    let high = insideRows[2 * i + 1]!;
    while ((low | high) !== 0) {
      let p: number;
      if (low !== 0) {
        p = from + lowestBit(low);
        low &= low - 1;
      } else {
        p = from + 32 + lowestBit(high);
        high &= high - 1;
      }
      const dx = unit[3 * p]! - x0;
      const dy = unit[3 * p + 1]! - y0;
      const dz = unit[3 * p + 2]! - z0;
      const c2 = dx * dx + dy * dy + dz * dz;
      const price = minPrice[p]!;
      distance[p] = c2;
      priceOf[p] = price;
      keys[n] = sortKey(sort, tierWeight[p]!, c2, price, ratingKey[p]!, reviewCount[p]!);
      results[n++] = p;
      best.push(order === NEAREST ? c2 : keys[n - 1]!);
    }
  }
  return n;
}

/** The squared unit-sphere chord of a great-circle distance. */
export function chordSquared(miles: number): number {
  const half = Math.sin(Math.min(Math.PI, miles / EARTH_RADIUS_MILES) / 2);
  return 4 * half * half;
}

/** Great-circle miles from a squared unit-sphere chord. */
export function milesOf(c2: number): number {
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(c2) / 2));
}

/** A distance in whole tenths of a mile, as cards show it: roundMiles and selectionJson's digits. */
const tenthsOfMile = (miles: number) => Math.round(miles * 10);
const roundMiles = (miles: number) => tenthsOfMile(miles) / 10;

/**
 * The shortest decimal that is the same float32: ratings are stored as float32 (as Postgres
 * `real` does), and 4.6 must come back as 4.6, not 4.599999904632568.
 */
export function float32Value(value: number): number | null {
  if (Number.isNaN(value)) return null;
  // Ratings and clearances take few values: each is worked out once (a card shows two).
  const known = SHORTEST.get(value);
  if (known !== undefined) return known;
  let found = value;
  for (let digits = 1; digits <= 9; digits++) {
    const shortest = Number(value.toPrecision(digits));
    if (Math.fround(shortest) === value) {
      found = shortest;
      break;
    }
  }
  if (SHORTEST.size >= 4096) SHORTEST.clear();
  SHORTEST.set(value, found);
  return found;
}

/** float32Value's answers so far, by float32 value. */
const SHORTEST = new Map<number, number>();

function itemAt(cols: IndexColumns, p: number, miles: number, price: number, now: number): SearchItem {
  const { text } = cols;
  const e = cols.entry[p]!;
  const sizes = text.sizeLabels.get(e) ?? "";
  // Spelled out rather than spread: the key order is the API's (and itemFragments').
  const { id, slug, name, address, state, photo } = text.listing(e);

  return {
    id,
    slug,
    name,
    address,
    state,
    lat: cols.lat[p]!,
    lng: cols.lng[p]!,
    distanceMiles: roundMiles(miles),
    rating: float32Value(cols.rating[p]!),
    reviewCount: cols.reviewCount[p]!,
    tier: TIER_BY_WEIGHT[cols.tierWeight[p]!] ?? "Free",
    isDemo: cols.isDemo[p] === 1,
    photo,
    amenities: amenityFlagsOfMask(cols.amenityMask[p]!),
    sizes: sizes === "" ? [] : sizes.split(","),
    minMonthlyPrice: price === NO_PRICE ? null : price,
    clearanceFeet: float32Value(cols.clearance[p]!),
    availability: availabilityAt(cols, p, now),
  };
}

/**
 * Row p's item JSON without the three parts that depend on the query (distance, price,
 * availability line), as UTF-8 bytes: `JSON.stringify(itemAt(...))` is head + miles + middle +
 * price + tail + availability + "}".
 */
export interface ItemFragments {
  head: Uint8Array;
  middle: Uint8Array;
  tail: Uint8Array;
  /**
   * The availability line's JSON as last worked out, with the span of time it holds for (ms, from
   * inclusive; `summaryChangesAt`): a row does not change once written (a new version is a new
   * row), so only the clock can move its line.
   */
  availability?: { bytes: Uint8Array; from: number; until: number };
}

export function itemFragments(cols: IndexColumns, p: number): ItemFragments {
  const { text } = cols;
  const e = cols.entry[p]!;
  const sizes = text.sizeLabels.get(e) ?? "";
  const { id, slug, name, address, state, photo } = text.listing(e);
  const json = JSON.stringify;
  const head =
    `{"id":${json(id)},"slug":${json(slug)},"name":${json(name)},` +
    `"address":${json(address)},"state":${json(state)},` +
    `"lat":${json(cols.lat[p])},"lng":${json(cols.lng[p])},"distanceMiles":`;
  const middle =
    `,"rating":${json(float32Value(cols.rating[p]!))},"reviewCount":${cols.reviewCount[p]!},` +
    `"tier":${json(TIER_BY_WEIGHT[cols.tierWeight[p]!] ?? "Free")},"isDemo":${cols.isDemo[p] === 1},` +
    `"photo":${json(photo)},"amenities":${json(amenityFlagsOfMask(cols.amenityMask[p]!))},` +
    `"sizes":${json(sizes === "" ? [] : sizes.split(","))},"minMonthlyPrice":`;
  const tail = `,"clearanceFeet":${json(float32Value(cols.clearance[p]!))},"availability":`;
  // One allocation, three views of it.
  const bytes = Buffer.from(head + middle + tail);
  const atMiddle = Buffer.byteLength(head);
  const atTail = atMiddle + Buffer.byteLength(middle);
  return {
    head: bytes.subarray(0, atMiddle),
    middle: bytes.subarray(atMiddle, atTail),
    tail: bytes.subarray(atTail),
  };
}

/**
 * The selection as `JSON.stringify` of its SearchResult would write it, as UTF-8 bytes, with each
 * row's fixed part from `fragmentsOf` (which the index keeps between queries): the same bytes,
 * without building the objects. Written into one buffer of the exact size rather than joined as a
 * string: a joined string is flattened, measured and encoded again when it is sent, which cost a
 * query nobody asked before (most of them) more than the joining did (scripts/bench-search.ts,
 * "distinct centres").
 */
export function selectionJson(cols: IndexColumns, s: Selection, fragmentsOf: (p: number) => ItemFragments): Buffer {
  const count = s.rows.length;
  const fragments: ItemFragments[] = [];
  const tenths: number[] = [];
  const availabilities: Uint8Array[] = [];
  const opening = [s.total, s.page, s.pageSize];
  const facets = facetNumbers(s.facets);
  // Commas between the items, and each item's closing brace.
  let size =
    templateLength(OPEN_PIECES, opening) + templateLength(FACETS_PIECES, facets) + Math.max(0, count - 1) + count;
  for (let i = 0; i < count; i++) {
    const p = s.rows[i]!;
    const fragment = fragmentsOf(p);
    const miles = tenthsOfMile(s.miles[i]!);
    const availability = availabilityBytesAt(cols, p, s.now, fragment);
    fragments.push(fragment);
    tenths.push(miles);
    availabilities.push(availability);
    size +=
      fragment.head.length +
      fragment.middle.length +
      fragment.tail.length +
      tenthsLength(miles) +
      priceLength(s.prices[i]!) +
      availability.length;
  }
  const out = slabBuffer(size);
  let at = writeTemplate(out, 0, OPEN_PIECES, opening);
  for (let i = 0; i < count; i++) {
    const { head, middle, tail } = fragments[i]!;
    if (i > 0) out[at++] = COMMA;
    out.set(head, at);
    at = writeTenths(out, at + head.length, tenths[i]!);
    out.set(middle, at);
    at = writePrice(out, at + middle.length, s.prices[i]!);
    out.set(tail, at);
    at += tail.length;
    const availability = availabilities[i]!;
    out.set(availability, at);
    at += availability.length;
    out[at++] = CLOSE_BRACE;
  }
  at = writeTemplate(out, at, FACETS_PIECES, facets);
  if (at !== size) throw new Error(`selectionJson: wrote ${at} bytes of ${size}`);
  return out;
}

/** An answer's JSON before its items, around total, page and pageSize. */
const OPEN_PIECES = ['{"total":', ',"page":', ',"pageSize":', ',"items":['].map((piece) => Buffer.from(piece));
/** After the items: the facets, then the answer's closing brace. */
const FACETS_PIECES = FACETS_JSON_PIECES.map((piece, i, all) =>
  Buffer.from(`${i === 0 ? '],"facets":' : ""}${piece}${i === all.length - 1 ? "}" : ""}`),
);

/** Bytes of pieces[0], numbers[0], pieces[1], ..., pieces[n] (non-negative integers). */
function templateLength(pieces: readonly Uint8Array[], numbers: readonly number[]): number {
  let length = pieces[numbers.length]!.length;
  for (let i = 0; i < numbers.length; i++) length += pieces[i]!.length + digitCount(numbers[i]!);
  return length;
}

/** Writes what templateLength measures at `at`; returns the end. */
function writeTemplate(out: Buffer, at: number, pieces: readonly Uint8Array[], numbers: readonly number[]): number {
  for (let i = 0; i < numbers.length; i++) {
    out.set(pieces[i]!, at);
    at = writeDigits(out, at + pieces[i]!.length, numbers[i]!);
  }
  const last = pieces[numbers.length]!;
  out.set(last, at);
  return at + last.length;
}

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
const ZERO = 0x30;
const NULL_BYTES = Buffer.from("null");

/** Availability lines' JSON as bytes, by their text: a few hundred different lines at most. */
const AVAILABILITY_BYTES = new Map<string, Uint8Array>();
const MAX_AVAILABILITY_LINES = 4096;

/** An availability line's JSON as bytes, kept by its text. */
function availabilityBytes(summary: AvailabilitySummary | null): Uint8Array {
  if (summary === null) return NULL_BYTES;
  const json = JSON.stringify(summary);
  let bytes = AVAILABILITY_BYTES.get(json);
  if (!bytes) {
    if (AVAILABILITY_BYTES.size >= MAX_AVAILABILITY_LINES) AVAILABILITY_BYTES.clear();
    bytes = Buffer.from(json);
    AVAILABILITY_BYTES.set(json, bytes);
  }
  return bytes;
}

/** Row p's availability line as JSON bytes at `now`, kept in its fragments until it may change. */
function availabilityBytesAt(cols: IndexColumns, p: number, now: number, fragment: ItemFragments): Uint8Array {
  const kept = fragment.availability;
  if (kept !== undefined && kept.from <= now && now < kept.until) return kept.bytes;
  const { kinds, times } = statusesOf(cols, p);
  const bytes = availabilityBytes(summaryOfStatuses(kinds, times, now));
  fragment.availability = { bytes, from: now, until: summaryChangesAt(times, now) };
  return bytes;
}

/** Digits of a non-negative integer. */
function digitCount(n: number): number {
  let digits = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    digits++;
  }
  return digits;
}

/** Writes a non-negative integer's digits at `at`; returns the end. */
function writeDigits(out: Buffer, at: number, n: number): number {
  const end = at + digitCount(n);
  let i = end;
  do {
    out[--i] = ZERO + (n % 10);
    n = Math.floor(n / 10);
  } while (n > 0);
  return end;
}

/**
 * Bytes of `JSON.stringify(t / 10)` for a non-negative integer t (tenthsOfMile's distance).
 */
function tenthsLength(t: number): number {
  return digitCount(Math.floor(t / 10)) + (t % 10 === 0 ? 0 : 2);
}

/**
 * Writes `JSON.stringify(t / 10)` at `at`; returns the end. The quotient of two integers is the
 * double nearest the decimal they spell, whose shortest form JSON.stringify writes: "12.3", "7".
 */
function writeTenths(out: Buffer, at: number, t: number): number {
  at = writeDigits(out, at, Math.floor(t / 10));
  if (t % 10 !== 0) {
    out[at++] = DOT;
    out[at++] = ZERO + (t % 10);
  }
  return at;
}

/** Bytes of a price's JSON: its digits, or `null` for NO_PRICE. */
function priceLength(price: number): number {
  return price === NO_PRICE ? NULL_BYTES.length : digitCount(price);
}

/** Writes a price's JSON at `at`; returns the end. */
function writePrice(out: Buffer, at: number, price: number): number {
  if (price !== NO_PRICE) return writeDigits(out, at, price);
  out.set(NULL_BYTES, at);
  return at + NULL_BYTES.length;
}

/** Row p's stated statuses: each size's kind and the time it was set (ms, NaN when unknown). */
function statusesOf(cols: IndexColumns, p: number): { kinds: Availability[]; times: number[] } {
  const kinds: Availability[] = [];
  const times: number[] = [];
  for (let k = cols.statusStart[p]!, to = cols.statusStart[p + 1]!; k < to; k++) {
    kinds.push(AVAILABILITIES[cols.statusKind[k]!]!);
    times.push(cols.statusAt[k]!);
  }
  return { kinds, times };
}

/** The card's availability line of row p (docs/product.md section 17), or null without a status. */
function availabilityAt(cols: IndexColumns, p: number, now: number): AvailabilitySummary | null {
  const { kinds, times } = statusesOf(cols, p);
  return summaryOfStatuses(kinds, times, now);
}

function markerAt(cols: IndexColumns, p: number, miles: number): SearchMarker {
  return {
    id: cols.text.id.get(cols.entry[p]!)!,
    lat: cols.lat[p]!,
    lng: cols.lng[p]!,
    name: cols.text.name.get(cols.entry[p]!)!,
    rating: float32Value(cols.rating[p]!),
    reviewCount: cols.reviewCount[p]!,
    href: `/location/${cols.text.slug.get(cols.entry[p]!)!}`,
    distanceMiles: roundMiles(miles),
  };
}
