/**
 * Point-in-state lookup on the Census Bureau state shapes (us-atlas states-10m, decoded into
 * `states.json.gz`). Pure (no Node imports).
 */
import type { StatesFile } from "./data-format";
import { deltaDecodePairs } from "./data-format";

export interface StateShape {
  code: string;
  name: string;
  fips: string;
  lat: number;
  lng: number;
  population: number;
  /** Bounding box: minLng, minLat, maxLng, maxLat. */
  bbox: readonly [number, number, number, number];
  /** Rings as flat lng, lat pairs (degrees). */
  rings: readonly Float64Array[];
  ringBoxes: readonly (readonly [number, number, number, number])[];
}

/**
 * Points this close (miles) to a state's outline but outside every shape still belong to it:
 * the 1:10M outlines cut off piers, beaches and small islands.
 */
export const DEFAULT_COAST_TOLERANCE_MILES = 3;

const MILES_PER_DEGREE = 69.09;

function boxOf(flat: Float64Array): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const x = flat[i] ?? 0;
    const y = flat[i + 1] ?? 0;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export function decodeStateShapes(file: StatesFile): StateShape[] {
  const [sx, sy] = file.scale;
  const [tx, ty] = file.translate;
  return file.states.map((record) => {
    const rings = record.rings.map((encoded) => {
      const ints = deltaDecodePairs(encoded);
      const flat = new Float64Array(ints.length);
      for (let i = 0; i + 1 < ints.length; i += 2) {
        flat[i] = (ints[i] ?? 0) * sx + tx;
        flat[i + 1] = (ints[i + 1] ?? 0) * sy + ty;
      }
      return flat;
    });
    const ringBoxes = rings.map(boxOf);
    const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const b of ringBoxes) {
      bbox[0] = Math.min(bbox[0], b[0]);
      bbox[1] = Math.min(bbox[1], b[1]);
      bbox[2] = Math.max(bbox[2], b[2]);
      bbox[3] = Math.max(bbox[3], b[3]);
    }
    return {
      code: record.code,
      name: record.name,
      fips: record.fips,
      lat: record.lat,
      lng: record.lng,
      population: record.population,
      bbox,
      rings,
      ringBoxes,
    };
  });
}

/** Even-odd crossing test of one ring (flat lng, lat pairs, implicitly closed). */
function crossings(flat: Float64Array, x: number, y: number): number {
  let count = 0;
  const n = flat.length;
  let jx = flat[n - 2] ?? 0;
  let jy = flat[n - 1] ?? 0;
  for (let i = 0; i + 1 < n; i += 2) {
    const ix = flat[i] ?? 0;
    const iy = flat[i + 1] ?? 0;
    if (iy > y !== jy > y && x < ((jx - ix) * (y - iy)) / (jy - iy) + ix) count++;
    jx = ix;
    jy = iy;
  }
  return count;
}

function inBox(b: readonly [number, number, number, number], x: number, y: number, margin = 0): boolean {
  return x >= b[0] - margin && x <= b[2] + margin && y >= b[1] - margin && y <= b[3] + margin;
}

/** Whether the point (degrees) lies inside the state's shapes. */
export function shapeContains(shape: StateShape, lat: number, lng: number): boolean {
  if (!inBox(shape.bbox, lng, lat)) return false;
  let count = 0;
  for (let r = 0; r < shape.rings.length; r++) {
    const box = shape.ringBoxes[r];
    const ring = shape.rings[r];
    if (box && ring && inBox(box, lng, lat)) count += crossings(ring, lng, lat);
  }
  return count % 2 === 1;
}

/** Approximate distance (miles) from a point to the outline of a state (local equirectangular). */
function distanceToOutlineMiles(shape: StateShape, lat: number, lng: number, marginDeg: number): number {
  const kx = Math.cos((lat * Math.PI) / 180) * MILES_PER_DEGREE;
  const ky = MILES_PER_DEGREE;
  let best = Infinity;
  for (let r = 0; r < shape.rings.length; r++) {
    const box = shape.ringBoxes[r];
    const ring = shape.rings[r];
    if (!box || !ring || !inBox(box, lng, lat, marginDeg)) continue;
    const n = ring.length;
    let ax = ((ring[n - 2] ?? 0) - lng) * kx;
    let ay = ((ring[n - 1] ?? 0) - lat) * ky;
    for (let i = 0; i + 1 < n; i += 2) {
      const bx = ((ring[i] ?? 0) - lng) * kx;
      const by = ((ring[i + 1] ?? 0) - lat) * ky;
      // Distance from the origin (the point) to segment a-b.
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
      const px = ax + t * dx;
      const py = ay + t * dy;
      const d = px * px + py * py;
      if (d < best) best = d;
      ax = bx;
      ay = by;
    }
  }
  return Math.sqrt(best);
}

export class StateLocator {
  readonly shapes: readonly StateShape[];

  constructor(shapes: readonly StateShape[]) {
    this.shapes = shapes;
  }

  /**
   * The two-letter code of the state containing the point, else of the state whose outline is
   * within `toleranceMiles` (closest first), else undefined (ocean, lakes, abroad).
   */
  stateAt(lat: number, lng: number, toleranceMiles = DEFAULT_COAST_TOLERANCE_MILES): string | undefined {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
    for (const shape of this.shapes) {
      if (shapeContains(shape, lat, lng)) return shape.code;
    }
    if (toleranceMiles <= 0) return undefined;
    const cosLat = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    const marginDeg = toleranceMiles / (MILES_PER_DEGREE * cosLat);
    let bestCode: string | undefined;
    let bestMiles = toleranceMiles;
    for (const shape of this.shapes) {
      if (!inBox(shape.bbox, lng, lat, marginDeg)) continue;
      const d = distanceToOutlineMiles(shape, lat, lng, marginDeg);
      if (d <= bestMiles) {
        bestMiles = d;
        bestCode = shape.code;
      }
    }
    return bestCode;
  }

  byCode(code: string): StateShape | undefined {
    return this.shapes.find((s) => s.code === code);
  }
}
