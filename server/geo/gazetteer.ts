/**
 * The embedded US gazetteer: forward lookup, prefix suggestions, reverse lookup and
 * point-in-state over the derived files in `server/geo/data/` (see `scripts/build-gazetteer.ts`).
 * Pure (no Node imports): `load-gazetteer.ts` reads the files and calls `createGazetteer`.
 */
import type { LatLng } from "./coordinates";
import { isValidLatLng, parseCoordinates } from "./coordinates";
import type { PlacesFile, StatesFile, ZipsFile } from "./data-format";
import { GAZETTEER_FORMAT_VERSION, deltaDecode, fromFixedUnits } from "./data-format";
import type { Nearest } from "./nearest-index";
import { NearestIndex } from "./nearest-index";
import { foldName, foldPrefix } from "./normalize";
import { StateLocator, decodeStateShapes } from "./point-in-state";
import { MAX_STATE_NAME_WORDS, resolveState, statesMatchingPrefix } from "./states";

export type PlaceKind = "city" | "zip" | "state" | "coordinates";

export interface Place {
  /** Town name; the state name for kind 'state'; the nearest town for kind 'coordinates'. */
  name: string;
  /** Two-letter state code. */
  state: string;
  stateName: string;
  lat: number;
  lng: number;
  /** GeoNames population of the town (0 for postal towns missing from cities500); the sum of the towns' populations for kind 'state'. */
  population: number;
  kind: PlaceKind;
  /** Five-digit ZIP code, for kind 'zip'. */
  zip?: string;
}

export interface Gazetteer {
  /**
   * Forward lookup: "Austin", "austin tx", "Austin, TX", "Austin, Texas", "78701",
   * "78701-1234", "Texas", "TX", "30.27, -97.74" / "30.27 -97.74". A bare name gives the most
   * populous town of that name. Falls back to the best prefix suggestion.
   */
  lookup(query: string): Place | undefined;
  /**
   * Prefix suggestions ranked by population: towns, "City, ST" prefixes ("austin, t"), ZIP
   * prefixes (3+ digits, in ZIP order) and state names. Empty for 2 characters or fewer.
   */
  suggest(prefix: string, limit?: number): Place[];
  /**
   * The nearest sizeable town (population >= 1000, else any) in the state containing the point;
   * outside every state, the nearest town within 50 miles, else undefined.
   */
  reverse(lat: number, lng: number): Place | undefined;
  /** Two-letter code of the state containing the point (outlines get a 3-mile coastal margin). */
  stateAt(lat: number, lng: number): string | undefined;
  /** All towns (kind 'city'), including postal towns with population 0. */
  places(): readonly Place[];
  /** The most populous town with exactly this (folded) name in the state (code or name). */
  findCity(name: string, state: string): Place | undefined;
  /** The ZIP code whose centre is nearest the point, within `maxMiles` (default 25), in `state` if given. */
  nearestZip(lat: number, lng: number, state?: string, maxMiles?: number): Place | undefined;
}

export interface GazetteerData {
  places: PlacesFile;
  zips: ZipsFile;
  states: StatesFile;
}

export const DEFAULT_SUGGEST_LIMIT = 8;
export const MAX_SUGGEST_LIMIT = 100;
/** Reverse lookup prefers towns at least this populous... */
export const SIZEABLE_POPULATION = 1000;
/** ...within this distance, then any town of the state within `IN_STATE_RADIUS_MILES`. */
export const SIZEABLE_RADIUS_MILES = 60;
export const IN_STATE_RADIUS_MILES = 1000;
/** Outside every state, reverse lookup gives the nearest town within this distance. */
export const OFFSHORE_RADIUS_MILES = 50;

/** Greater than every character of a folded key ([a-z0-9 ]). */
const AFTER_ALL = "\u007f";
const COUNTRY_SUFFIXES = new Set(["us", "usa", "united states", "united states of america"]);
const ZIP_QUERY = /^(\d{5})(?:[-\s]?\d{4})?$/;
/** Found from the end; what precedes it is cut in code, so no lazy `.*?` races a `[\s,]*`. */
const TRAILING_ZIP = /\b(\d{5})(?:-\d{4})?$/;
/** What `.` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const ZIP_PREFIX_QUERY = /^(\d{3,5})(?:-(\d{0,4}))?$/;

/** "Austin TX 78701" -> head "Austin TX", zip "78701": the text before the ZIP loses its trailing spaces and commas. */
function splitTrailingZip(text: string): { head: string; zip: string } | undefined {
  const match = TRAILING_ZIP.exec(text);
  if (!match) return undefined;
  let end = match.index;
  while (end > 0 && (text[end - 1] === "," || (text[end - 1] ?? "").trim() === "")) end--;
  const head = text.slice(0, end);
  // The ZIP must follow the head on its first line, as when this was one pattern with `^(.*?)`.
  if (LINE_BREAK.test(head)) return undefined;
  return { head, zip: match[1] ?? "" };
}

/** Keeps the best `limit` indexes seen, best first. */
class TopN {
  readonly items: number[] = [];
  constructor(
    private readonly limit: number,
    /** Negative when a ranks before b. */
    private readonly compare: (a: number, b: number) => number,
  ) {}

  offer(i: number): void {
    const items = this.items;
    if (items.includes(i)) return;
    const lastItem = items[items.length - 1];
    if (items.length >= this.limit && lastItem !== undefined && this.compare(i, lastItem) >= 0) return;
    let at = items.length;
    while (at > 0 && this.compare(i, items[at - 1] ?? 0) < 0) at--;
    items.splice(at, 0, i);
    if (items.length > this.limit) items.pop();
  }
}

class EmbeddedGazetteer implements Gazetteer {
  private readonly towns: readonly Place[];
  private readonly townState: Uint8Array;
  private readonly townPop: Float64Array;
  private readonly stateCodes: readonly string[];
  /** Towns that are the most populous of their folded name in their state, by key then population. */
  private readonly primary: Int32Array;
  private readonly primaryKeys: readonly string[];
  private readonly zipCodes: Int32Array;
  private readonly zipLat: Float64Array;
  private readonly zipLng: Float64Array;
  private readonly zipTown: Int32Array;
  private readonly locator: StateLocator;
  private readonly statePlaces: ReadonlyMap<string, Place>;
  private readonly foldedStatePlaces: readonly { key: string; place: Place }[];
  private readonly nearestIndex: NearestIndex;
  /** Built on first use: a grid over ZIP centres. */
  private zipIndex: NearestIndex | undefined;
  /** Built on first use: space-free key (and key|state) -> most populous primary town. */
  private compactIndex: { any: Map<string, number>; inState: Map<string, number> } | undefined;

  constructor(data: GazetteerData) {
    for (const [name, file] of Object.entries(data) as [string, { version: number }][]) {
      if (file.version !== GAZETTEER_FORMAT_VERSION) {
        throw new Error(
          `gazetteer: ${name} data has format ${file.version}, expected ${GAZETTEER_FORMAT_VERSION}; run npm run gazetteer:build`,
        );
      }
    }
    // States.
    const shapes = decodeStateShapes(data.states);
    this.locator = new StateLocator(shapes);
    const statePlaces = new Map<string, Place>();
    for (const s of shapes) {
      statePlaces.set(
        s.code,
        Object.freeze({
          name: s.name,
          state: s.code,
          stateName: s.name,
          lat: s.lat,
          lng: s.lng,
          population: s.population,
          kind: "state" as const,
        }),
      );
    }
    this.statePlaces = statePlaces;
    this.foldedStatePlaces = [...statePlaces.values()].map((place) => ({ key: foldName(place.name), place }));

    // Towns.
    const p = data.places;
    const n = p.name.length;
    this.stateCodes = p.states;
    const stateNames = p.states.map((code) => statePlaces.get(code)?.name ?? code);
    const lat = new Float64Array(n);
    const lng = new Float64Array(n);
    this.townState = new Uint8Array(n);
    this.townPop = new Float64Array(n);
    const towns = new Array<Place>(n);
    const keys = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const s = p.state[i] ?? 0;
      const name = p.name[i] ?? "";
      lat[i] = fromFixedUnits(p.lat[i] ?? 0);
      lng[i] = fromFixedUnits(p.lng[i] ?? 0);
      this.townState[i] = s;
      this.townPop[i] = p.population[i] ?? 0;
      keys[i] = foldName(name);
      towns[i] = Object.freeze({
        name,
        state: p.states[s] ?? "",
        stateName: stateNames[s] ?? "",
        lat: lat[i] ?? 0,
        lng: lng[i] ?? 0,
        population: this.townPop[i] ?? 0,
        kind: "city" as const,
      });
    }
    this.towns = Object.freeze(towns);
    this.nearestIndex = new NearestIndex(lat, lng);

    // The files come sorted by (key, population desc); re-sort only if this fold differs.
    let order = Array.from({ length: n }, (_, i) => i);
    const byKeyThenPop = (a: number, b: number): number => {
      const ka = keys[a] ?? "";
      const kb = keys[b] ?? "";
      return ka < kb ? -1 : ka > kb ? 1 : (this.townPop[b] ?? 0) - (this.townPop[a] ?? 0) || a - b;
    };
    for (let i = 1; i < n; i++) {
      if (byKeyThenPop(i - 1, i) > 0) {
        order = order.sort(byKeyThenPop);
        break;
      }
    }
    const primary: number[] = [];
    // seenInRun[state] === run: the state already has a town of this key.
    const seenInRun = new Int32Array(256).fill(-1);
    let run = -1;
    let runKey: string | undefined;
    for (const i of order) {
      const key = keys[i] ?? "";
      if (key !== runKey) {
        runKey = key;
        run++;
      }
      const s = this.townState[i] ?? 0;
      if (seenInRun[s] === run) continue;
      seenInRun[s] = run;
      primary.push(i);
    }
    this.primary = Int32Array.from(primary);
    this.primaryKeys = primary.map((i) => keys[i] ?? "");

    // ZIP codes.
    const z = data.zips;
    const zipCodes = deltaDecode(z.zip);
    const zipLat = deltaDecode(z.lat);
    const zipLng = deltaDecode(z.lng);
    this.zipCodes = Int32Array.from(zipCodes);
    this.zipLat = Float64Array.from(zipLat, fromFixedUnits);
    this.zipLng = Float64Array.from(zipLng, fromFixedUnits);
    this.zipTown = Int32Array.from(z.place);
  }

  // ------------------------------------------------------------ index helpers

  /** First position in `primaryKeys` whose key is >= target. */
  private lowerBound(target: string): number {
    const keys = this.primaryKeys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] ?? "") < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private prefixRange(prefix: string): [number, number] {
    return [this.lowerBound(prefix), this.lowerBound(prefix + AFTER_ALL)];
  }

  private exactRange(key: string): [number, number] {
    return [this.lowerBound(key), this.lowerBound(`${key}\u0000`)];
  }

  private readonly byPopulation = (a: number, b: number): number =>
    (this.townPop[b] ?? 0) - (this.townPop[a] ?? 0) || a - b;

  /** Offers the towns of a primary range (optionally restricted to states) to `top`. */
  private offerRange(top: TopN, [lo, hi]: [number, number], states?: ReadonlySet<number>): void {
    for (let k = lo; k < hi; k++) {
      const i = this.primary[k] ?? 0;
      if (states && !states.has(this.townState[i] ?? 0)) continue;
      top.offer(i);
    }
  }

  private stateIndex(code: string): number {
    return this.stateCodes.indexOf(code);
  }

  private stateIndexes(codes: readonly string[]): Set<number> {
    return new Set(codes.map((c) => this.stateIndex(c)).filter((i) => i >= 0));
  }

  /** The most populous town with exactly this key, in the state if given. */
  private exactTown(key: string, state?: string): Place | undefined {
    if (key === "") return undefined;
    const [lo, hi] = this.exactRange(key);
    const s = state === undefined ? undefined : this.stateIndex(state);
    for (let k = lo; k < hi; k++) {
      const i = this.primary[k] ?? 0;
      if (s === undefined || this.townState[i] === s) return this.towns[i];
    }
    return undefined;
  }

  /**
   * Like `exactTown`, ignoring spaces: "coeur d alene" finds "Coeur d'Alene" ("coeur dalene"),
   * "la fayette" finds "LaFayette".
   */
  private compactTown(key: string, state?: string): Place | undefined {
    if (key === "") return undefined;
    if (!this.compactIndex) {
      const any = new Map<string, number>();
      const inState = new Map<string, number>();
      for (let k = 0; k < this.primary.length; k++) {
        const i = this.primary[k] ?? 0;
        const compact = (this.primaryKeys[k] ?? "").replace(/ /g, "");
        const pop = this.townPop[i] ?? 0;
        const a = any.get(compact);
        if (a === undefined || pop > (this.townPop[a] ?? 0)) any.set(compact, i);
        const stateKey = `${compact}|${this.townState[i] ?? 0}`;
        const b = inState.get(stateKey);
        if (b === undefined || pop > (this.townPop[b] ?? 0)) inState.set(stateKey, i);
      }
      this.compactIndex = { any, inState };
    }
    const compact = key.replace(/ /g, "");
    const i =
      state === undefined
        ? this.compactIndex.any.get(compact)
        : this.compactIndex.inState.get(`${compact}|${this.stateIndex(state)}`);
    return i === undefined ? undefined : this.towns[i];
  }

  /** `exactTown`, else `compactTown`. */
  private namedTown(key: string, state?: string): Place | undefined {
    return this.exactTown(key, state) ?? this.compactTown(key, state);
  }

  /** The most populous town whose key starts with this prefix, in the state. */
  private prefixTown(prefix: string, state: string): Place | undefined {
    if (prefix === "") return undefined;
    const top = new TopN(1, this.byPopulation);
    this.offerRange(top, this.prefixRange(prefix), this.stateIndexes([state]));
    const i = top.items[0];
    return i === undefined ? undefined : this.towns[i];
  }

  private zipPlace(code: string): Place | undefined {
    const target = Number(code);
    const codes = this.zipCodes;
    let lo = 0;
    let hi = codes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((codes[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return codes[lo] === target ? this.zipPlaceAt(lo) : undefined;
  }

  private zipPlaceAt(k: number): Place | undefined {
    const town = this.towns[this.zipTown[k] ?? -1];
    if (!town) return undefined;
    return {
      name: town.name,
      state: town.state,
      stateName: town.stateName,
      lat: this.zipLat[k] ?? 0,
      lng: this.zipLng[k] ?? 0,
      population: town.population,
      kind: "zip",
      zip: String(this.zipCodes[k] ?? 0).padStart(5, "0"),
    };
  }

  private coordinatesPlace(point: LatLng): Place | undefined {
    const town = this.reverse(point.lat, point.lng);
    if (!town) return undefined;
    return {
      name: town.name,
      state: town.state,
      stateName: town.stateName,
      lat: point.lat,
      lng: point.lng,
      population: town.population,
      kind: "coordinates",
    };
  }

  // ------------------------------------------------------------ public API

  lookup(query: string): Place | undefined {
    const q = query.trim();
    if (q === "") return undefined;
    const zip = ZIP_QUERY.exec(q);
    if (zip) return this.zipPlace(zip[1] ?? "");
    const point = parseCoordinates(q);
    if (point) return this.coordinatesPlace(point);

    const segments = q
      .split(",")
      .map((s) => s.trim())
      .filter((s) => foldName(s) !== "");
    while (segments.length > 1 && COUNTRY_SUFFIXES.has(foldName(segments[segments.length - 1] ?? ""))) segments.pop();
    // "Austin, TX 78701": the ZIP says it all; an unknown ZIP is dropped.
    const lastSegment = segments[segments.length - 1] ?? "";
    const trailingZip = splitTrailingZip(lastSegment);
    if (trailingZip && (segments.length > 1 || trailingZip.head !== "")) {
      const place = this.zipPlace(trailingZip.zip);
      if (place) return place;
      segments[segments.length - 1] = trailingZip.head;
      if (foldName(segments[segments.length - 1] ?? "") === "") segments.pop();
    }
    if (segments.length === 0) return undefined;

    if (segments.length === 1) {
      let words = foldName(segments[0] ?? "").split(" ");
      while (words.length > 1 && COUNTRY_SUFFIXES.has(words[words.length - 1] ?? "")) words.pop();
      if (words.length > 2 && words.slice(-2).join(" ") === "united states") words = words.slice(0, -2);
      const whole = words.join(" ");
      const state = resolveState(whole);
      if (state) return this.statePlaces.get(state);
      const town = this.namedTown(whole);
      if (town) return town;
      // "austin tx", "portland maine", "kansas city kansas": a trailing state, 1 to 3 words.
      for (let t = 1; t <= Math.min(3, words.length - 1); t++) {
        const tailState = resolveState(words.slice(-t).join(" "));
        if (!tailState) continue;
        const found = this.namedTown(words.slice(0, -t).join(" "), tailState);
        if (found) return found;
      }
    } else {
      const state = resolveState(segments[segments.length - 1] ?? "");
      if (state) {
        // "Austin, TX"; "Austin, Travis County, TX" tries "Austin" too.
        const heads = [segments.slice(0, -1).join(" "), segments[0] ?? ""].map(foldName);
        for (const head of heads) {
          const found = this.namedTown(head, state);
          if (found) return found;
        }
        return this.prefixTown(heads[0] ?? "", state);
      }
      const first = foldName(segments[0] ?? "");
      const firstState = resolveState(first);
      if (firstState) return this.statePlaces.get(firstState);
      const town = this.namedTown(first);
      if (town) return town;
    }
    return this.suggest(q, 1)[0];
  }

  suggest(prefix: string, limit: number = DEFAULT_SUGGEST_LIMIT): Place[] {
    const max = Math.min(MAX_SUGGEST_LIMIT, Math.floor(limit));
    const raw = prefix.replace(/^\s+/, "");
    if (!(max > 0) || raw.trim().length <= 2) return [];

    const zip = ZIP_PREFIX_QUERY.exec(raw.trim());
    if (zip) return this.suggestZips(zip[1] ?? "", max);

    const top = new TopN(max, this.byPopulation);
    const comma = raw.lastIndexOf(",");
    if (comma >= 0) {
      // "austin, t": a finished town name, then a state prefix.
      const head = foldName(raw.slice(0, comma));
      const tail = foldName(raw.slice(comma + 1));
      if (head === "") return [];
      const matching = tail === "" ? [] : statesMatchingPrefix(tail);
      const states = matching.length > 0 ? this.stateIndexes(matching) : undefined;
      this.offerRange(top, this.exactRange(head), states);
      this.offerRange(top, this.prefixRange(`${head} `), states);
      return top.items.map((i) => this.towns[i]).filter((p): p is Place => p !== undefined);
    }

    const folded = foldPrefix(raw);
    if (folded.key === "") return [];
    if (folded.complete) {
      this.offerRange(top, this.exactRange(folded.key));
      this.offerRange(top, this.prefixRange(`${folded.key} `));
    } else {
      this.offerRange(top, this.prefixRange(folded.key));
    }
    for (const expansion of folded.expansions) this.offerRange(top, this.prefixRange(expansion));
    // "austin tx", "portland new y": a whole town name, then a state (prefix). Only the last few
    // words can name a state, so the cuts stay few however long the text (each cut copies it).
    const words = folded.key.split(" ");
    for (let cut = Math.max(1, words.length - MAX_STATE_NAME_WORDS); cut < words.length; cut++) {
      const tail = words.slice(cut).join(" ");
      const matching = folded.complete
        ? [resolveState(tail)].filter((s): s is string => s !== undefined)
        : statesMatchingPrefix(tail);
      if (matching.length === 0) continue;
      this.offerRange(top, this.exactRange(words.slice(0, cut).join(" ")), this.stateIndexes(matching));
    }

    const results: Place[] = top.items.map((i) => this.towns[i]).filter((p): p is Place => p !== undefined);
    // State names join the ranking by their population.
    const stateKey = folded.key;
    const states = this.foldedStatePlaces.filter(({ key }) =>
      folded.complete ? key === stateKey || key.startsWith(`${stateKey} `) : key.startsWith(stateKey),
    );
    if (states.length === 0) return results;
    return [...states.map((s) => s.place), ...results].sort((a, b) => b.population - a.population).slice(0, max);
  }

  private suggestZips(digits: string, max: number): Place[] {
    const scale = 10 ** (5 - digits.length);
    const lo = Number(digits) * scale;
    const hi = lo + scale;
    const codes = this.zipCodes;
    let a = 0;
    let b = codes.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((codes[mid] ?? 0) < lo) a = mid + 1;
      else b = mid;
    }
    const out: Place[] = [];
    for (let k = a; k < codes.length && (codes[k] ?? 0) < hi && out.length < max; k++) {
      const place = this.zipPlaceAt(k);
      if (place) out.push(place);
    }
    return out;
  }

  nearestZip(lat: number, lng: number, state?: string, maxMiles = 25): Place | undefined {
    this.zipIndex ??= new NearestIndex(this.zipLat, this.zipLng);
    const wanted = state?.toUpperCase();
    const found = this.zipIndex.nearest(lat, lng, maxMiles, (k) => !wanted || this.zipPlaceAt(k)?.state === wanted);
    return found ? this.zipPlaceAt(found.index) : undefined;
  }

  reverse(lat: number, lng: number): Place | undefined {
    if (!isValidLatLng(lat, lng)) return undefined;
    const state = this.stateAt(lat, lng);
    const index = this.nearestIndex;
    let hit: Nearest | undefined;
    if (state !== undefined) {
      const s = this.stateIndex(state);
      hit =
        index.nearest(
          lat,
          lng,
          SIZEABLE_RADIUS_MILES,
          (i) => this.townState[i] === s && (this.townPop[i] ?? 0) >= SIZEABLE_POPULATION,
        ) ?? index.nearest(lat, lng, IN_STATE_RADIUS_MILES, (i) => this.townState[i] === s);
    }
    hit ??=
      index.nearest(lat, lng, OFFSHORE_RADIUS_MILES, (i) => (this.townPop[i] ?? 0) >= SIZEABLE_POPULATION) ??
      index.nearest(lat, lng, OFFSHORE_RADIUS_MILES, () => true);
    return hit ? this.towns[hit.index] : undefined;
  }

  stateAt(lat: number, lng: number): string | undefined {
    if (!isValidLatLng(lat, lng)) return undefined;
    return this.locator.stateAt(lat, lng);
  }

  places(): readonly Place[] {
    return this.towns;
  }

  findCity(name: string, state: string): Place | undefined {
    const code = resolveState(state);
    return code === undefined ? undefined : this.namedTown(foldName(name), code);
  }
}

export function createGazetteer(data: GazetteerData): Gazetteer {
  return new EmbeddedGazetteer(data);
}
