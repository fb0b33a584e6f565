import { geoAlbersUsa } from "d3-geo";
import { readStatesFile } from "./load-gazetteer";
import { decodeStateShapes } from "./point-in-state";
import { ringArea, simplify, type Point } from "./simplify";

/**
 * SVG outlines of the 50 states and DC for the admin analytics map (docs/product.md section 10,
 * "Platform analytics"), drawn from the Census outlines the gazetteer ships
 * (`server/geo/data/states.json.gz`) with d3-geo's Albers USA projection (Alaska and Hawaii as
 * insets). Computed once per process on the server; the browser gets path strings only.
 *
 * Each ring is projected into a 975 × 610 box, simplified (Douglas-Peucker, half a pixel), rounded
 * to half pixels and written with relative moves, and rings under 1.5 square pixels (small
 * islands) are dropped: about 33 kB for the whole map instead of about 130 kB.
 */

export interface StateOutline {
  code: string;
  name: string;
  /** SVG path data in the map's box; rings are separate subpaths (fill-rule evenodd). */
  d: string;
}

export interface StateMap {
  width: number;
  height: number;
  states: StateOutline[];
}

const WIDTH = 975;
const HEIGHT = 610;
const TOLERANCE = 0.5;
const MIN_AREA = 1.5;

const half = (n: number) => Math.round(n * 2) / 2;

function ringPath(points: readonly Point[]): string {
  let path = "";
  let px = 0;
  let py = 0;
  let count = 0;
  for (const [fx, fy] of points) {
    const x = half(fx);
    const y = half(fy);
    if (count > 0 && x === px && y === py) continue;
    path += count === 0 ? `M${x} ${y}` : `l${x - px} ${y - py}`;
    px = x;
    py = y;
    count++;
  }
  return count >= 3 ? `${path}z` : "";
}

function build(): StateMap {
  const projection = geoAlbersUsa()
    .scale(1300)
    .translate([WIDTH / 2, HEIGHT / 2]);
  const states = decodeStateShapes(readStatesFile()).map((shape) => {
    let d = "";
    let largest: { points: Point[]; area: number } | null = null;
    for (const ring of shape.rings) {
      const points: Point[] = [];
      for (let i = 0; i + 1 < ring.length; i += 2) {
        const p = projection([ring[i]!, ring[i + 1]!]);
        if (p) points.push([p[0], p[1]]);
      }
      if (points.length < 3) continue;
      const size = ringArea(points);
      if (!largest || size > largest.area) largest = { points, area: size };
      if (size < MIN_AREA) continue;
      // Closed: simplify the ring with its first point repeated, then drop the repeat.
      d += ringPath(simplify([...points, points[0]!], TOLERANCE).slice(0, -1));
    }
    // The District of Columbia is smaller than that: keep its outline, unsimplified.
    if (d === "" && largest) d = ringPath(largest.points);
    return { code: shape.code, name: shape.name, d: d.replace(/ -/g, "-") };
  });
  return { width: WIDTH, height: HEIGHT, states };
}

let cached: StateMap | undefined;

/** The map's outlines, built on first use. */
export function stateMapShapes(): StateMap {
  cached ??= build();
  return cached;
}
