/**
 * 'Did you mean Austin, TX?' for a place the gazetteer does not know ('Austn', 'austn tx'): towns
 * whose name is one or two typing mistakes away (a letter missing, extra, wrong, or two swapped).
 * Prefix suggestions cannot help there, since the typo is inside the name. Only towns of some size
 * are offered, so a correction names a place people search for.
 */
import type { Gazetteer, Place } from "./gazetteer";
import { foldName } from "./normalize";
import { resolveState } from "./states";

/** Towns at least this populous are offered as corrections. */
export const CLOSE_TOWN_MIN_POPULATION = 5000;
/** Longer names than this are not compared (typed text is capped long before this anyway). */
const MAX_KEY_LENGTH = 40;

interface Candidate {
  key: string;
  place: Place;
}

const candidatesByGazetteer = new WeakMap<Gazetteer, Candidate[]>();

function candidatesOf(gazetteer: Gazetteer): Candidate[] {
  let list = candidatesByGazetteer.get(gazetteer);
  if (!list) {
    list = gazetteer
      .places()
      .filter((p) => p.population >= CLOSE_TOWN_MIN_POPULATION)
      .map((place) => ({ key: foldName(place.name), place }));
    candidatesByGazetteer.set(gazetteer, list);
  }
  return list;
}

/** Splits a trailing state off typed text: "austn, tx", "austn tx", "austn texas" -> ["austn", "TX"]. */
export function splitState(text: string): { name: string; state?: string } {
  const comma = text.lastIndexOf(",");
  if (comma >= 0) {
    const state = resolveState(text.slice(comma + 1));
    return state ? { name: text.slice(0, comma), state } : { name: text.slice(0, comma) };
  }
  const words = text.trim().split(/\s+/);
  for (const take of [2, 1]) {
    if (words.length <= take) continue;
    const state = resolveState(words.slice(-take).join(" "));
    if (state) return { name: words.slice(0, -take).join(" "), state };
  }
  return { name: text };
}

/**
 * The optimal string alignment distance between a and b (insertions, deletions, substitutions and
 * swaps of neighbours), or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let twoBack = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, twoBack[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length]!;
}

/**
 * Up to `limit` towns whose name is within one typing mistake of the text (two for names of 6 or
 * more letters), in the named state first when the text names one, then by fewer mistakes, then
 * by population.
 */
export function closeTowns(gazetteer: Gazetteer, text: string, limit = 3): Place[] {
  const { name, state } = splitState(text);
  const key = foldName(name);
  if (key.length < 3 || key.length > MAX_KEY_LENGTH) return [];
  const max = key.length >= 6 ? 2 : 1;
  const hits: { place: Place; distance: number }[] = [];
  for (const candidate of candidatesOf(gazetteer)) {
    const distance = editDistance(key, candidate.key, max);
    if (distance <= max) hits.push({ place: candidate.place, distance });
  }
  const rank = (h: { place: Place; distance: number }) => (state !== undefined && h.place.state !== state ? 1 : 0);
  hits.sort((a, b) => rank(a) - rank(b) || a.distance - b.distance || b.place.population - a.place.population);
  const seen = new Set<string>();
  const out: Place[] = [];
  for (const { place } of hits) {
    const id = `${place.name}|${place.state}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(place);
    if (out.length === limit) break;
  }
  return out;
}
