/**
 * A fixed-cell grid over points (degrees) for nearest-neighbour queries with a filter.
 * Pure (no Node imports).
 */
import { haversineMiles } from "./coordinates";

const CELL_DEG = 0.5;
const COLS = Math.round(360 / CELL_DEG);
const ROWS = Math.round(180 / CELL_DEG);
const MILES_PER_DEGREE = 69.09;

function rowOf(lat: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEG)));
}

function colOf(lng: number): number {
  const c = Math.floor((lng + 180) / CELL_DEG);
  return ((c % COLS) + COLS) % COLS;
}

export interface Nearest {
  index: number;
  miles: number;
}

export class NearestIndex {
  private readonly lat: Float64Array;
  private readonly lng: Float64Array;
  /** Row range covered by points; cells outside hold nothing. */
  private readonly minRow: number;
  private readonly maxRow: number;
  /** Cell start offsets into `items` for rows minRow..maxRow (counting sort). */
  private readonly starts: Int32Array;
  private readonly items: Int32Array;

  constructor(lat: Float64Array, lng: Float64Array) {
    this.lat = lat;
    this.lng = lng;
    const n = lat.length;
    let minRow = ROWS;
    let maxRow = -1;
    for (let i = 0; i < n; i++) {
      const r = rowOf(lat[i] ?? 0);
      if (r < minRow) minRow = r;
      if (r > maxRow) maxRow = r;
    }
    if (maxRow < minRow) {
      minRow = 0;
      maxRow = 0;
    }
    this.minRow = minRow;
    this.maxRow = maxRow;
    const cells = (maxRow - minRow + 1) * COLS;
    const counts = new Int32Array(cells + 1);
    const cellOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = (rowOf(lat[i] ?? 0) - minRow) * COLS + colOf(lng[i] ?? 0);
      cellOf[i] = c;
      counts[c + 1] = (counts[c + 1] ?? 0) + 1;
    }
    for (let c = 0; c < cells; c++) counts[c + 1] = (counts[c + 1] ?? 0) + (counts[c] ?? 0);
    const fill = counts.slice(0, cells);
    const items = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = cellOf[i] ?? 0;
      const at = fill[c] ?? 0;
      items[at] = i;
      fill[c] = at + 1;
    }
    this.starts = counts;
    this.items = items;
  }

  /**
   * The nearest point accepted by `accept` within `maxMiles` (great-circle), or undefined.
   * Ties go to the lower index.
   */
  nearest(lat: number, lng: number, maxMiles: number, accept: (index: number) => boolean): Nearest | undefined {
    const here = { lat, lng };
    const row0 = rowOf(lat);
    const col0 = colOf(lng);
    let best: Nearest | undefined;
    let limit = maxMiles;
    for (let ring = 0; ; ring++) {
      // Anything in this ring is at least (ring - 1) whole cells away along one axis.
      if (ring > 0) {
        const gapDeg = (ring - 1) * CELL_DEG;
        const farLat = Math.min(89.9, Math.abs(lat) + ring * CELL_DEG);
        const lower = gapDeg * MILES_PER_DEGREE * Math.cos((farLat * Math.PI) / 180) * 0.95;
        if (lower > limit || ring >= COLS / 2) break;
      }
      for (let dr = -ring; dr <= ring; dr++) {
        const row = row0 + dr;
        if (row < this.minRow || row > this.maxRow) continue;
        const edgeRow = dr === -ring || dr === ring;
        // Inner rows of the ring only have their two end cells.
        const step = edgeRow ? 1 : 2 * ring;
        for (let dc = -ring; dc <= ring; dc += step) {
          const col = (((col0 + dc) % COLS) + COLS) % COLS;
          const cell = (row - this.minRow) * COLS + col;
          const end = this.starts[cell + 1] ?? 0;
          for (let k = this.starts[cell] ?? 0; k < end; k++) {
            const i = this.items[k] ?? 0;
            const d = haversineMiles(here, { lat: this.lat[i] ?? 0, lng: this.lng[i] ?? 0 });
            if (d > limit || (best && (d > best.miles || (d === best.miles && i > best.index)))) continue;
            if (!accept(i)) continue;
            best = { index: i, miles: d };
            limit = d;
          }
        }
      }
    }
    return best;
  }
}
