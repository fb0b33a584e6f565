/**
 * The state outlines the map draws when its tiles cannot load (offline, blocked, or no tile
 * server: docs/product.md section 9): the wire format of GET /map/us-states.json and its decoder.
 * Browser-safe; the server builds the file in server/geo/state-outlines.ts.
 */

/** The URL the map fetches the outlines from, only once a tile has failed (or there are none). */
export const STATE_OUTLINES_URL = "/map/us-states.json";

export const STATE_OUTLINES_VERSION = 1;

/**
 * Coordinates are integers of `unit` degrees; each ring is a flat list lng0, lat0, dlng1, dlat1,
 * ... delta-coded from the previous point (small numbers, which compress well).
 */
export interface StateOutlinesFile {
  version: number;
  unit: number;
  states: { code: string; name: string; lat: number; lng: number; rings: number[][] }[];
  /** The biggest towns, most populous first: name, latitude, longitude, population. */
  towns: [name: string, lat: number, lng: number, population: number][];
}

export interface BackdropTown {
  name: string;
  lat: number;
  lng: number;
  population: number;
}

export interface StateOutlineShape {
  code: string;
  name: string;
  /** Where to write the state's code: the Census centroid. */
  label: { lat: number; lng: number };
  /** Rings as [lat, lng] pairs, as Leaflet takes them. */
  rings: [number, number][][];
}

/** Decodes the file; a malformed one is dropped rather than thrown (it is only a backdrop). */
export function decodeStateOutlines(file: unknown): { states: StateOutlineShape[]; towns: BackdropTown[] } {
  if (!isOutlinesFile(file)) return { states: [], towns: [] };
  const { unit } = file;
  const towns = file.towns.map(([name, lat, lng, population]) => ({ name, lat, lng, population }));
  const states = file.states.map((state) => ({
    code: state.code,
    name: state.name,
    label: { lat: state.lat, lng: state.lng },
    rings: state.rings.map((ring) => {
      const points: [number, number][] = [];
      let x = 0;
      let y = 0;
      for (let i = 0; i + 1 < ring.length; i += 2) {
        x += ring[i]!;
        y += ring[i + 1]!;
        points.push([y * unit, x * unit]);
      }
      return points;
    }),
  }));
  return { states, towns };
}

function isOutlinesFile(file: unknown): file is StateOutlinesFile {
  if (typeof file !== "object" || file === null) return false;
  const f = file as Partial<StateOutlinesFile>;
  return (
    f.version === STATE_OUTLINES_VERSION &&
    typeof f.unit === "number" &&
    f.unit > 0 &&
    Array.isArray(f.states) &&
    f.states.every(
      (s) =>
        typeof s?.code === "string" &&
        typeof s.name === "string" &&
        typeof s.lat === "number" &&
        typeof s.lng === "number" &&
        Array.isArray(s.rings) &&
        s.rings.every((r) => Array.isArray(r) && r.every((n) => typeof n === "number")),
    ) &&
    Array.isArray(f.towns) &&
    f.towns.every(
      (t) =>
        Array.isArray(t) &&
        typeof t[0] === "string" &&
        typeof t[1] === "number" &&
        typeof t[2] === "number" &&
        typeof t[3] === "number",
    )
  );
}
