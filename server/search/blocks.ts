/**
 * Summaries of the base rows in blocks of 64, so that a large search need not read every row.
 *
 * Rows are stored in the k-d tree's order (columns.ts), so the 64 rows of a block lie close
 * together. Each block keeps the box (on the unit sphere, x, y and z) that holds its points and what
 * a search without filters needs of its rows: how many offer each size and amenity, how many are
 * priced, the best tier, rating order and price. A block whose box lies wholly inside a search's
 * circle counts from its summary; its rows are read only when they might be on the requested page
 * (top-k.ts's keys against the block's best possible key). New York's 100 miles hold 116,000 of a
 * million listings, nearly all in such blocks (docs/operations.md, "Search index").
 *
 * For filtered searches, each block also says which of its rows have each size, amenity, price and
 * RV length step (64 bits as two 32-bit words), and which are open until when: a search ANDs the
 * words of what it asks for and reads only the rows left (docs/decisions/036).
 *
 * Blocks are grouped by 64 (4,096 rows), each group with the box of its blocks, so that a search
 * looks at the blocks of the groups its circle reaches. A block holding a dead row (a listing
 * changed or deleted since the build) is read row by row, as are the appended rows; a rebuild
 * starts afresh.
 */
import { AMENITY_FILTERS } from "../../domain/amenities";
import { SIZE_OPTIONS_LIST } from "../../domain/sizes";
import { NO_PRICE } from "./price";

export const BLOCK_SHIFT = 6;
export const BLOCK_ROWS = 1 << BLOCK_SHIFT;
/** A block's quarters (RowBlocks.quarterBox). */
export const QUARTERS = 4;
export const QUARTER_ROWS = BLOCK_ROWS / QUARTERS;
/** Blocks per group. */
const GROUP_SHIFT = 6;
export const BLOCKS_PER_GROUP = 1 << GROUP_SHIFT;
export const SIZE_BITS = SIZE_OPTIONS_LIST.length;
export const FLAG_BITS = AMENITY_FILTERS.length;
/**
 * RV lengths (feet) at which blocks keep which rows have a space at least that long: My RV's
 * filter for length L reads only the rows of the longest step at most L (a superset of the rows
 * that fit, tested in full by the query).
 */
export const LENGTH_STEPS: readonly number[] = [20, 25, 30, 35, 40, 45];

/** What the blocks summarise: the base rows' columns (columns.ts IndexColumns). */
export interface BlockSource {
  baseSize: number;
  dead: Uint8Array;
  unit: Float64Array;
  tierWeight: Uint8Array;
  ratingKey: Float32Array;
  reviewCount: Uint32Array;
  amenityMask: Uint32Array;
  sizeMask: Uint16Array;
  minPrice: Uint32Array;
  longestFeet: Float64Array;
  openStart: Uint32Array;
  openLength: Float64Array;
  openLatest: Float64Array;
}

export interface RowBlocks {
  /** Blocks of the base rows: block b is rows b * 64 .. min((b + 1) * 64, baseSize) - 1. */
  count: number;
  /** Block b's box: minX, maxX, minY, maxY, minZ, maxZ at 6b .. 6b + 5. */
  box: Float64Array;
  /** Group g's box (blocks g * 64 ..), laid out like `box`. */
  groupBox: Float64Array;
  /**
   * The boxes of block b's quarters (its rows 16q .. 16q + 15) at 6 (4b + q), laid out like `box`:
   * of a block the circle cuts, a search reads only the quarters it reaches.
   */
  quarterBox: Float64Array;
  /** Dead rows in block b: a block with any is read row by row. */
  dead: Uint8Array;
  /** Rows of block b offering size s (SIZE_OPTIONS_LIST order), at b * SIZE_BITS + s. */
  sizes: Uint8Array;
  /** Rows of block b with amenity a (AMENITY_FILTERS order), at b * FLAG_BITS + a. */
  flags: Uint8Array;
  /**
   * Which rows of block b offer size s: bit i of word 2 (b * SIZE_BITS + s) is the block's row i,
   * bit i of the next word its row 32 + i. A filtered search ANDs the words of the sizes and
   * amenities it asks for and reads only the rows left (query.ts maskedBlocks).
   */
  sizeRows: Int32Array;
  /** Which rows of block b have amenity a, laid out like `sizeRows` (FLAG_BITS per block). */
  flagRows: Int32Array;
  /**
   * Which rows of block b have a longest space of at least LENGTH_STEPS[k] feet, at words
   * 2 (b * LENGTH_STEPS.length + k) and the next, like `sizeRows`.
   */
  longRows: Int32Array;
  /** Which rows of block b have a size marked open (at any time) at least that long, likewise. */
  openLongRows: Int32Array;
  /** Rows of block b with a price. */
  priced: Uint8Array;
  /** Which rows of block b have a price, as two words like `sizeRows`'. */
  pricedRows: Int32Array;
  maxTier: Uint8Array;
  /** The best ratingOrder of block b's rows: no row of it comes before that in the rating sort. */
  bestRating: Float64Array;
  /** The lowest price of block b, NO_PRICE when none has one. */
  minPrice: Uint32Array;
  /**
   * The open-until times (columns.ts openLatest) of block b's rows that have one, ascending, at
   * openTimes[openStart[b] .. openStart[b + 1] - 1]: how many of its rows are available now is
   * a binary search instead of a test of each row.
   */
  openStart: Uint32Array;
  openTimes: Float64Array;
  /** The block's row (0..63) of each open-until time in `openTimes`. */
  openRows: Uint8Array;
}

/** Summarises the base rows (after a build, or when a snapshot is read). */
export function summariseBlocks(cols: BlockSource): RowBlocks {
  const n = cols.baseSize;
  const count = (n + BLOCK_ROWS - 1) >> BLOCK_SHIFT;
  const groups = (count + BLOCKS_PER_GROUP - 1) >> GROUP_SHIFT;
  const blocks: RowBlocks = {
    count,
    box: new Float64Array(6 * count),
    groupBox: new Float64Array(6 * groups),
    quarterBox: new Float64Array(6 * QUARTERS * count),
    dead: new Uint8Array(count),
    sizes: new Uint8Array(count * SIZE_BITS),
    flags: new Uint8Array(count * FLAG_BITS),
    sizeRows: new Int32Array(2 * count * SIZE_BITS),
    flagRows: new Int32Array(2 * count * FLAG_BITS),
    longRows: new Int32Array(2 * count * LENGTH_STEPS.length),
    openLongRows: new Int32Array(2 * count * LENGTH_STEPS.length),
    priced: new Uint8Array(count),
    pricedRows: new Int32Array(2 * count),
    maxTier: new Uint8Array(count),
    bestRating: new Float64Array(count),
    minPrice: new Uint32Array(count),
    openStart: new Uint32Array(count + 1),
    openTimes: new Float64Array(0),
    openRows: new Uint8Array(0),
  };
  const { unit, dead, tierWeight, ratingKey, reviewCount, amenityMask, sizeMask, minPrice, openLatest } = cols;
  const { longestFeet, openStart, openLength } = cols;
  const steps = LENGTH_STEPS.length;
  let opens = 0;
  for (let p = 0; p < n; p++) if (openLatest[p]! > 0) opens++;
  blocks.openTimes = new Float64Array(opens);
  blocks.openRows = new Uint8Array(opens);
  const { sizes, flags, sizeRows, flagRows, longRows, openLongRows, openTimes, openRows } = blocks;
  opens = 0;
  for (let b = 0; b < count; b++) {
    const from = b << BLOCK_SHIFT;
    const to = Math.min(n, from + BLOCK_ROWS);
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity; // prettier-ignore
    let deadRows = 0;
    let priced = 0;
    let tier = 0;
    let rating = -Infinity;
    let price = NO_PRICE;
    for (let p = from; p < to; p++) {
      const x = unit[3 * p]!;
      const y = unit[3 * p + 1]!;
      const z = unit[3 * p + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
      if (dead[p]) deadRows++;
      // The row's bit in its block's words (JavaScript shifts by p - from modulo 32).
      const word = (p - from) >> 5;
      const rowBit = 1 << (p - from);
      if (minPrice[p] !== NO_PRICE) {
        priced++;
        blocks.pricedRows[2 * b + word]! |= rowBit;
      }
      if (minPrice[p]! < price) price = minPrice[p]!;
      if (tierWeight[p]! > tier) tier = tierWeight[p]!;
      const order = ratingOrder(ratingKey[p]!, reviewCount[p]!);
      if (order > rating) rating = order;
      // Only the bits that are set (a handful of the 35), lowest first.
      for (let s = sizeMask[p]!; s !== 0; s &= s - 1) {
        const at = b * SIZE_BITS + lowestBit(s);
        sizes[at]!++;
        sizeRows[2 * at + word]! |= rowBit;
      }
      for (let a = amenityMask[p]!; a !== 0; a &= a - 1) {
        const at = b * FLAG_BITS + lowestBit(a);
        flags[at]!++;
        flagRows[2 * at + word]! |= rowBit;
      }
      let openLongest = -Infinity;
      for (let k = openStart[p]!, end = openStart[p + 1]!; k < end; k++) {
        if (openLength[k]! > openLongest) openLongest = openLength[k]!;
      }
      for (let k = 0; k < steps; k++) {
        const at = 2 * (b * steps + k) + word;
        // As the query tests them: a longest length that is not below the RV, an open size that is
        // at least as long.
        if (!(longestFeet[p]! < LENGTH_STEPS[k]!)) longRows[at]! |= rowBit;
        if (openLongest >= LENGTH_STEPS[k]!) openLongRows[at]! |= rowBit;
      }
    }
    // The open rows by open-until time, ascending (an insertion sort: at most 64 of them).
    const first = opens;
    for (let p = from; p < to; p++) {
      const until = openLatest[p]!;
      if (!(until > 0)) continue;
      let k = opens++;
      for (; k > first && openTimes[k - 1]! > until; k--) {
        openTimes[k] = openTimes[k - 1]!;
        openRows[k] = openRows[k - 1]!;
      }
      openTimes[k] = until;
      openRows[k] = p - from;
    }
    blocks.openStart[b + 1] = opens;
    blocks.box.set([minX, maxX, minY, maxY, minZ, maxZ], 6 * b);
    boxesOf(unit, from, to, QUARTER_ROWS, blocks.quarterBox, 6 * QUARTERS * b);
    blocks.dead[b] = deadRows;
    blocks.priced[b] = priced;
    blocks.maxTier[b] = tier;
    blocks.bestRating[b] = rating;
    blocks.minPrice[b] = price;
  }
  for (let g = 0; g < groups; g++) {
    const box = blocks.groupBox;
    box.set([Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity], 6 * g);
    for (let b = g * BLOCKS_PER_GROUP, end = Math.min(count, b + BLOCKS_PER_GROUP); b < end; b++) {
      for (let axis = 0; axis < 3; axis++) {
        box[6 * g + 2 * axis] = Math.min(box[6 * g + 2 * axis]!, blocks.box[6 * b + 2 * axis]!);
        box[6 * g + 2 * axis + 1] = Math.max(box[6 * g + 2 * axis + 1]!, blocks.box[6 * b + 2 * axis + 1]!);
      }
    }
  }
  return blocks;
}

/**
 * The boxes of rows from..to-1 taken `rows` at a time (the last may be short), written at
 * boxes[at], boxes[at + 6], ...: minX, maxX, minY, maxY, minZ, maxZ of their unit vectors.
 */
function boxesOf(unit: Float64Array, from: number, to: number, rows: number, boxes: Float64Array, at: number): void {
  for (let start = from; start < to; start += rows, at += 6) {
    boxes.fill(Infinity, at, at + 6);
    for (let axis = 1; axis < 6; axis += 2) boxes[at + axis] = -Infinity;
    for (let p = start, end = Math.min(to, start + rows); p < end; p++) {
      for (let axis = 0; axis < 3; axis++) {
        const v = unit[3 * p + axis]!;
        if (v < boxes[at + 2 * axis]!) boxes[at + 2 * axis] = v;
        if (v > boxes[at + 2 * axis + 1]!) boxes[at + 2 * axis + 1] = v;
      }
    }
  }
}

/**
 * A row's place in the rating sort as one number, larger first: a float32 rating (-1 when it has
 * none) times 2^43 is a whole number with room for a review count below 2^22 (larger counts tie,
 * and the query's comparator decides).
 */
export function ratingOrder(rating: number, reviews: number): number {
  return rating * 2 ** 43 + Math.min(reviews, 2 ** 22 - 1);
}

/** How many rows of block b are available at `now` (no RV): open-until times after it. */
export function availableInBlock(blocks: RowBlocks, b: number, now: number): number {
  return blocks.openStart[b + 1]! - firstOpenAfter(blocks, b, now);
}

/** The position in `openTimes` of block b's first open-until time after `now` (the end if none). */
export function firstOpenAfter(blocks: RowBlocks, b: number, now: number): number {
  const { openStart, openTimes } = blocks;
  let lo = openStart[b]!;
  let hi = openStart[b + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (openTimes[mid]! > now) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The position (0..31) of the lowest bit set in `word`, which is not 0. */
export function lowestBit(word: number): number {
  return 31 - Math.clz32(word & -word);
}

/** How many bits of `word` (32 bits) are set. */
export function popCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Row p (a base row) has died: its block is read row by row from now on. */
export function blockRowDied(blocks: RowBlocks, p: number): void {
  const b = p >> BLOCK_SHIFT;
  if (b < blocks.count) blocks.dead[b]!++;
}

/**
 * The squared chord from (x0, y0, z0) to the nearest point of box i of `boxes`: no point in the box
 * is nearer. Computed with the same operations as a row's distance (query.ts), so that for every
 * row of the box, nearestChord <= its squared chord <= farthestChord holds in floating point too.
 */
export function nearestChord(boxes: Float64Array, i: number, x0: number, y0: number, z0: number): number {
  const o = 6 * i;
  const dx = x0 < boxes[o]! ? boxes[o]! - x0 : x0 > boxes[o + 1]! ? x0 - boxes[o + 1]! : 0;
  const dy = y0 < boxes[o + 2]! ? boxes[o + 2]! - y0 : y0 > boxes[o + 3]! ? y0 - boxes[o + 3]! : 0;
  const dz = z0 < boxes[o + 4]! ? boxes[o + 4]! - z0 : z0 > boxes[o + 5]! ? z0 - boxes[o + 5]! : 0;
  return dx * dx + dy * dy + dz * dz;
}

/** The squared chord from (x0, y0, z0) to the farthest corner of box i: no point in it is farther. */
export function farthestChord(boxes: Float64Array, i: number, x0: number, y0: number, z0: number): number {
  const o = 6 * i;
  const dx = Math.max(x0 - boxes[o]!, boxes[o + 1]! - x0);
  const dy = Math.max(y0 - boxes[o + 2]!, boxes[o + 3]! - y0);
  const dz = Math.max(z0 - boxes[o + 4]!, boxes[o + 5]! - z0);
  return dx * dx + dy * dy + dz * dz;
}
