/**
 * The shapes of the derived gazetteer files in `server/geo/data/` (written by
 * `scripts/build-gazetteer.ts`, read by `load-gazetteer.ts`), and the integer codecs they use.
 * Pure (no Node imports).
 *
 * Columnar arrays keep the gzipped JSON small: coordinates are integers in 1e-4 degrees
 * (about 11 m) and delta-coded where the order makes neighbours close.
 */

export const GAZETTEER_FORMAT_VERSION = 1;

export const GAZETTEER_FILES = {
  places: "places.json.gz",
  zips: "zips.json.gz",
  states: "states.json.gz",
} as const;

/** Coordinates are stored as integers of 1e-4 degrees. */
export const COORD_SCALE = 1e4;

/**
 * Towns (GeoNames cities500 populated places, plus postal towns named by ZIP codes that are
 * missing from cities500, with population 0), sorted by folded name, then population
 * descending, then state, then coordinates.
 */
export interface PlacesFile {
  version: number;
  /** State codes; `state` holds indexes into this list. */
  states: string[];
  name: string[];
  state: number[];
  /** Latitude in 1e-4 degrees, not delta-coded (the name order scatters places). */
  lat: number[];
  lng: number[];
  population: number[];
}

/** ZIP codes, sorted ascending. */
export interface ZipsFile {
  version: number;
  /** Numeric ZIP codes, delta-coded (pad to 5 digits to get the code back). */
  zip: number[];
  /** 1e-4 degrees, delta-coded in ZIP order. */
  lat: number[];
  lng: number[];
  /** Index of the ZIP's postal town in `PlacesFile`. */
  place: number[];
}

export interface StateShapeRecord {
  code: string;
  name: string;
  fips: string;
  /** Area-weighted centroid, degrees (4 decimals). */
  lat: number;
  lng: number;
  /** Sum of the populations of the state's towns (GeoNames), for ranking. */
  population: number;
  /**
   * Polygon rings (outer rings and holes alike: point-in-polygon uses the even-odd rule), each a
   * flat delta-coded list x0, y0, dx1, dy1, ... of quantized coordinates: lng = x * scale[0] +
   * translate[0], lat = y * scale[1] + translate[1]. Rings are not closed (no repeated point).
   */
  rings: number[][];
}

export interface StatesFile {
  version: number;
  scale: [number, number];
  translate: [number, number];
  states: StateShapeRecord[];
}

export function deltaEncode(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  let prev = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    out[i] = v - prev;
    prev = v;
  }
  return out;
}

export function deltaDecode(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  let acc = 0;
  for (let i = 0; i < values.length; i++) {
    acc += values[i] ?? 0;
    out[i] = acc;
  }
  return out;
}

/** Delta-codes a flat list of (x, y) pairs, each axis separately. */
export function deltaEncodePairs(flat: readonly number[]): number[] {
  const out = new Array<number>(flat.length);
  let px = 0;
  let py = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const x = flat[i] ?? 0;
    const y = flat[i + 1] ?? 0;
    out[i] = x - px;
    out[i + 1] = y - py;
    px = x;
    py = y;
  }
  return out;
}

export function deltaDecodePairs(flat: readonly number[]): number[] {
  const out = new Array<number>(flat.length);
  let x = 0;
  let y = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    x += flat[i] ?? 0;
    y += flat[i + 1] ?? 0;
    out[i] = x;
    out[i + 1] = y;
  }
  return out;
}

export function toFixedUnits(degrees: number): number {
  return Math.round(degrees * COORD_SCALE);
}

export function fromFixedUnits(units: number): number {
  return units / COORD_SCALE;
}
