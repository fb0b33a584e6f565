/**
 * The geometry of a radius search: the bounding box that certainly contains the circle (then the
 * exact great-circle distance decides), and a walk of the k-d tree that writes ids into a reusable
 * buffer instead of allocating an array per query.
 */
import type KDBush from "kdbush";
import { EARTH_RADIUS_MILES } from "../geo/coordinates";

const DEG = 180 / Math.PI;
/** Widens the box by a hair so that rounding can never drop a point the exact test would keep. */
const MARGIN_DEGREES = 1e-9;

export interface SearchBox {
  minLat: number;
  maxLat: number;
  /** One longitude range, or two when the circle crosses the antimeridian. */
  lngRanges: [number, number][];
}

/**
 * The smallest latitude/longitude box holding every point within `radiusMiles` of the centre.
 * Latitude spans radius/R either side. Longitude spans asin(sin(radius/R) / cos(lat)) either
 * side (the widest point of a spherical cap, which lies poleward of the centre), or everything
 * when the cap contains a pole. A span past +-180 wraps into a second range.
 */
export function searchBox(lat: number, lng: number, radiusMiles: number): SearchBox {
  const angular = radiusMiles / EARTH_RADIUS_MILES;
  const dLat = angular * DEG + MARGIN_DEGREES;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const everywhere: SearchBox = { minLat, maxLat, lngRanges: [[-180, 180]] };
  if (angular >= Math.PI / 2 || lat + dLat >= 90 || lat - dLat <= -90) return everywhere;
  const ratio = Math.sin(angular) / Math.cos(lat / DEG);
  if (!(ratio < 1)) return everywhere;
  const dLng = Math.asin(ratio) * DEG + MARGIN_DEGREES;
  const west = lng - dLng;
  const east = lng + dLng;
  if (dLng >= 180) return everywhere;
  if (west < -180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { minLat, maxLat, lngRanges: [[west, east]] };
}

/** DFS frames of (left, right, axis); kdbush trees are at most ~32 levels deep. */
const STACK = new Int32Array(3 * 64);
/** Each frame's region: (minX, minY, maxX, maxY) that every point of the frame lies in. */
const BOUNDS = new Float64Array(4 * 64);

/**
 * kdbush's `range`, writing the ids of points with minX <= x <= maxX and minY <= y <= maxY into
 * `out` from position `start`; returns the new end. Uses the tree's public arrays (`ids`,
 * `coords`, `nodeSize`), laid out as in kdbush 4.
 *
 * A node's points lie in the region its ancestors' split values bound (its left part at or below a
 * split, its right part at or above); when that region lies inside the box, every point of the
 * node is in range and its ids are copied without reading a coordinate. In a large radius search
 * most candidates come from such nodes.
 */
export function rangeInto(
  tree: KDBush,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: Uint32Array,
  start: number,
): number {
  const { ids, coords, nodeSize } = tree;
  let count = start;
  if (ids.length === 0) return count;
  STACK[0] = 0;
  STACK[1] = ids.length - 1;
  STACK[2] = 0;
  BOUNDS[0] = -Infinity;
  BOUNDS[1] = -Infinity;
  BOUNDS[2] = Infinity;
  BOUNDS[3] = Infinity;
  let sp = 3;
  while (sp > 0) {
    const axis = STACK[--sp]!;
    const right = STACK[--sp]!;
    const left = STACK[--sp]!;
    const frame = (sp / 3) * 4;
    const nMinX = BOUNDS[frame]!;
    const nMinY = BOUNDS[frame + 1]!;
    const nMaxX = BOUNDS[frame + 2]!;
    const nMaxY = BOUNDS[frame + 3]!;
    if (nMinX >= minX && nMaxX <= maxX && nMinY >= minY && nMaxY <= maxY) {
      for (let i = left; i <= right; i++) out[count++] = ids[i]!;
      continue;
    }
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) {
        const x = coords[2 * i]!;
        const y = coords[2 * i + 1]!;
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) out[count++] = ids[i]!;
      }
      continue;
    }
    const m = (left + right) >> 1;
    const x = coords[2 * m]!;
    const y = coords[2 * m + 1]!;
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) out[count++] = ids[m]!;
    if (axis === 0 ? minX <= x : minY <= y) {
      const at = (sp / 3) * 4;
      STACK[sp++] = left;
      STACK[sp++] = m - 1;
      STACK[sp++] = 1 - axis;
      BOUNDS[at] = nMinX;
      BOUNDS[at + 1] = nMinY;
      BOUNDS[at + 2] = axis === 0 ? x : nMaxX;
      BOUNDS[at + 3] = axis === 0 ? nMaxY : y;
    }
    if (axis === 0 ? maxX >= x : maxY >= y) {
      const at = (sp / 3) * 4;
      STACK[sp++] = m + 1;
      STACK[sp++] = right;
      STACK[sp++] = 1 - axis;
      BOUNDS[at] = axis === 0 ? x : nMinX;
      BOUNDS[at + 1] = axis === 0 ? nMinY : y;
      BOUNDS[at + 2] = nMaxX;
      BOUNDS[at + 3] = nMaxY;
    }
  }
  return count;
}
