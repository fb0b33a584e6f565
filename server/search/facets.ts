/**
 * Facet counts: the numbers the size dropdown and the amenities modal show beside each option.
 *
 * What a count means, precisely: take the current result set, with EVERY filter applied (the
 * radius or state, the text, the selected sizes and the selected amenities). Then
 *   - `sizes[s]` is how many of those results offer size s (some dimension at least as wide and
 *     as long as s);
 *   - `amenities[a]` is how many of those results have flag or text amenity a (the mask's bits are
 *     AMENITY_FILTERS in order: the 18 flags, then the three text amenities).
 * So a selected option always shows the total. Because sizes combine all-of, an unselected size
 * shows exactly the total the search would have with that size added; the same holds for an
 * unselected amenity, with one exception: when exactly one of covered/uncovered parking is
 * selected, adding the other turns the pair into either-of, which can only widen the results,
 * while the count shown for it is the number of current results that also have it.
 * Counts never depend on the sort or the page.
 */
import { AMENITY_FILTERS } from "../../domain/amenities";
import type { SearchFacets } from "../../domain/search";
import { SIZE_OPTIONS_LIST } from "../../domain/sizes";

// Counting bit by bit costs ~20 steps per result. Instead each mask is cut into chunks of CHUNK
// bits and each chunk value is counted in its own small histogram (5 increments per result);
// the histograms are expanded into per-bit counts once per query (~3,000 steps).
const CHUNK = 7;
const CHUNK_VALUES = 1 << CHUNK;
const SIZE_CHUNKS = Math.ceil(SIZE_OPTIONS_LIST.length / CHUNK);
const FLAG_CHUNKS = Math.ceil(AMENITY_FILTERS.length / CHUNK);
const MASK = CHUNK_VALUES - 1;
// countResult is unrolled for these numbers of chunks.
if (SIZE_CHUNKS !== 2 || FLAG_CHUNKS !== 3) throw new Error("facets.ts: update the unrolled chunk counting");

/**
 * The chunk histograms a query fills with `countResult` as it accepts each result (in query.ts's
 * filter loop, so the results are not read a second time), then turns into counts with `facetsOf`.
 */
export interface FacetHistograms {
  sizes: Int32Array;
  flags: Int32Array;
  /** Per-bit counts added whole (a block's, blocks.ts), on top of the histograms'. */
  sizeBits: Int32Array;
  flagBits: Int32Array;
}

export function facetHistograms(): FacetHistograms {
  return {
    sizes: new Int32Array(SIZE_CHUNKS * CHUNK_VALUES),
    flags: new Int32Array(FLAG_CHUNKS * CHUNK_VALUES),
    sizeBits: new Int32Array(SIZE_OPTIONS_LIST.length),
    flagBits: new Int32Array(AMENITY_FILTERS.length),
  };
}

/** Empties histograms for the next query (a query's scratch keeps one set). */
export function clearHistograms(histograms: FacetHistograms): void {
  histograms.sizes.fill(0);
  histograms.flags.fill(0);
  histograms.sizeBits.fill(0);
  histograms.flagBits.fill(0);
}

/** Counts one result with size mask `s` and amenity mask `a` (5 increments). */
export function countResult(histograms: FacetHistograms, s: number, a: number): void {
  const { sizes, flags } = histograms;
  sizes[s & MASK]!++;
  sizes[CHUNK_VALUES + ((s >>> CHUNK) & MASK)]!++;
  flags[a & MASK]!++;
  flags[CHUNK_VALUES + ((a >>> CHUNK) & MASK)]!++;
  flags[2 * CHUNK_VALUES + ((a >>> (2 * CHUNK)) & MASK)]!++;
}

/** The counts of filled histograms (which it uses up: see bitCounts). */
export function facetsOf(histograms: FacetHistograms): Omit<SearchFacets, "priced" | "available"> {
  return {
    sizes: toRecord(SIZE_OPTIONS_LIST, bitCounts(histograms.sizes, histograms.sizeBits)),
    amenities: toRecord(AMENITY_FILTERS, bitCounts(histograms.flags, histograms.flagBits)),
  };
}

/**
 * Per-bit counts (bits 0..bits-1) from chunk histograms, added to `counts` (which it returns). Each
 * chunk's histogram is folded in half a bit at a time, from its top bit: the upper half (values
 * with that bit set) sums to the bit's count and is added onto the lower half, which is then the
 * histogram of the remaining bits. 127 steps a chunk instead of one per value and bit; the
 * histogram is left folded (facetsOf is its last reader).
 */
function bitCounts(histogram: Int32Array, counts: Int32Array): Int32Array {
  const bits = counts.length;
  for (let chunk = 0; chunk * CHUNK < bits; chunk++) {
    const base = chunk * CHUNK_VALUES;
    for (let bit = CHUNK - 1; bit >= 0; bit--) {
      const half = 1 << bit;
      let withBit = 0;
      for (let v = base; v < base + half; v++) {
        const upper = histogram[v + half]!;
        withBit += upper;
        histogram[v]! += upper;
      }
      if (chunk * CHUNK + bit < bits) counts[chunk * CHUNK + bit]! += withBit;
    }
  }
  return counts;
}

function toRecord<K extends string>(keys: readonly K[], counts: Int32Array): Record<K, number> {
  const record = {} as Record<K, number>;
  keys.forEach((key, i) => (record[key] = counts[i]!));
  return record;
}

/**
 * SearchFacets' JSON as `JSON.stringify` writes it, split around its numbers: pieces[i] comes
 * before facetNumbers(...)[i] and the last piece after the last number. Answers written as bytes
 * (query.ts selectionJson) put the counts' digits between them instead of stringifying the
 * object, which took as long as writing the page's twenty cards.
 */
export const FACETS_JSON_PIECES: readonly string[] = (() => {
  const pieces: string[] = [];
  const keyed = (open: string, keys: readonly string[]) =>
    keys.forEach((key, i) => pieces.push(`${i === 0 ? open : ","}${JSON.stringify(key)}:`));
  keyed('{"sizes":{', SIZE_OPTIONS_LIST);
  keyed('},"amenities":{', AMENITY_FILTERS);
  pieces.push('},"priced":', ',"available":', "}");
  return pieces;
})();

/** The numbers of `facets` in the order of FACETS_JSON_PIECES. */
export function facetNumbers(facets: SearchFacets): number[] {
  const numbers: number[] = [];
  for (const size of SIZE_OPTIONS_LIST) numbers.push(facets.sizes[size]);
  for (const amenity of AMENITY_FILTERS) numbers.push(facets.amenities[amenity]);
  numbers.push(facets.priced, facets.available);
  return numbers;
}
