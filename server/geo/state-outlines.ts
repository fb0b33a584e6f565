import { STATE_OUTLINES_VERSION, type StateOutlinesFile } from "../../domain/state-outlines";
import { getGazetteer, readStatesFile } from "./load-gazetteer";
import { decodeStateShapes } from "./point-in-state";
import { ringArea, simplify, type Point } from "./simplify";

/**
 * The map's offline backdrop (docs/product.md section 9): the Census state outlines the gazetteer
 * ships (`server/geo/data/states.json.gz`), simplified for a web map at country to region zoom
 * and written in domain/state-outlines.ts's format. Built once per process; the browser fetches
 * it only when tiles fail, so no page carries it in its JavaScript.
 *
 * Douglas-Peucker at 0.01 degree (about 1 km, a pixel or two at zoom 8), integers of 0.001
 * degree, rings under 0.005 square degrees (small islands) dropped unless a state has nothing
 * bigger (the District of Columbia).
 */

const UNIT = 0.01;
const TOLERANCE = 0.02;
const MIN_AREA = 0.01;
/** Towns this big are named on the backdrop (about 330 of them, 8 kB of the file). */
const MIN_TOWN_POPULATION = 100_000;

function encodeRing(points: readonly Point[]): number[] {
  const out: number[] = [];
  let px = 0;
  let py = 0;
  for (const [lng, lat] of points) {
    const x = Math.round(lng / UNIT);
    const y = Math.round(lat / UNIT);
    if (out.length > 0 && x === px && y === py) continue;
    out.push(x - px, y - py);
    px = x;
    py = y;
  }
  return out.length >= 6 ? out : [];
}

function build(): StateOutlinesFile {
  const states = decodeStateShapes(readStatesFile()).map((shape) => {
    const rings: number[][] = [];
    let largest: { points: Point[]; area: number } | null = null;
    for (const ring of shape.rings) {
      const points: Point[] = [];
      for (let i = 0; i + 1 < ring.length; i += 2) points.push([ring[i]!, ring[i + 1]!]);
      if (points.length < 3) continue;
      const size = ringArea(points);
      if (!largest || size > largest.area) largest = { points, area: size };
      if (size < MIN_AREA) continue;
      // Closed: simplify the ring with its first point repeated, then drop the repeat.
      const encoded = encodeRing(simplify([...points, points[0]!], TOLERANCE).slice(0, -1));
      if (encoded.length > 0) rings.push(encoded);
    }
    if (rings.length === 0 && largest) rings.push(encodeRing(largest.points));
    return { code: shape.code, name: shape.name, lat: shape.lat, lng: shape.lng, rings };
  });
  const towns = getGazetteer()
    .places()
    .filter((p) => p.population >= MIN_TOWN_POPULATION)
    .sort((a, b) => b.population - a.population)
    .map((p): [string, number, number, number] => [
      p.name,
      Math.round(p.lat * 100) / 100,
      Math.round(p.lng * 100) / 100,
      p.population,
    ]);
  return { version: STATE_OUTLINES_VERSION, unit: UNIT, states, towns };
}

let cached: { file: StateOutlinesFile; json: string } | undefined;

/** The outlines file and its JSON text, built on first use. */
export function stateOutlines(): { file: StateOutlinesFile; json: string } {
  if (!cached) {
    const file = build();
    cached = { file, json: JSON.stringify(file) };
  }
  return cached;
}
