import { buildPlaceSlug, parsePlaceSlug } from "../../domain/slug";
import { closeTowns } from "./close-towns";
import type { Place } from "./gazetteer";
import { getGazetteer } from "./load-gazetteer";
import { stateNameFromCode } from "./states";

/** Where a results page searches: a town, a whole state, or a point with its nearest town. */
export interface SearchPlace {
  kind: "city" | "state" | "point";
  /** Town name (the nearest town for a point); null for a whole state. */
  city: string | null;
  state: string;
  stateName: string;
  lat: number;
  lng: number;
  /** The canonical results slug for the place ('austin-tx', 'tx'). */
  slug: string;
}

function toSearchPlace(place: Place, kind: SearchPlace["kind"]): SearchPlace {
  const city = kind === "state" ? null : place.name;
  return {
    kind,
    city,
    state: place.state,
    stateName: place.stateName,
    lat: place.lat,
    lng: place.lng,
    slug: buildPlaceSlug(city, place.state),
  };
}

/** A results slug ('austin-tx', 'tx') to its place; undefined when the gazetteer has no such place. */
export function placeFromSlug(slug: string): SearchPlace | undefined {
  const parsed = parsePlaceSlug(slug);
  if (!parsed) return undefined;
  const stateName = stateNameFromCode(parsed.state);
  if (!stateName) return undefined;
  const gazetteer = getGazetteer();
  if (!parsed.city) {
    const state = gazetteer.lookup(stateName);
    return state ? toSearchPlace(state, "state") : undefined;
  }
  const town = gazetteer.findCity(parsed.city, parsed.state);
  return town ? toSearchPlace(town, "city") : undefined;
}

/** Typed text ('Austin, TX', '78701', 'Texas', '30.27, -97.74') to a place. */
export function placeFromText(text: string): SearchPlace | undefined {
  const place = getGazetteer().lookup(text);
  if (!place) return undefined;
  if (place.kind === "coordinates") return placeFromPoint(place.lat, place.lng);
  return toSearchPlace(place, place.kind === "state" ? "state" : "city");
}

/** A point, labelled with its nearest sizeable town; undefined outside the USA. */
export function placeFromPoint(lat: number, lng: number): SearchPlace | undefined {
  const town = getGazetteer().reverse(lat, lng);
  if (!town) return undefined;
  return { ...toSearchPlace(town, "point"), lat, lng };
}

/**
 * Places to offer when a slug or text names nothing we know ('Did you mean ...'): places starting
 * with the text, else towns a typo or two away ('Austn' -> Austin, TX; server/geo/close-towns.ts),
 * those of `state` first when the slug named one.
 */
export function suggestPlaces(text: string, limit = 5, state?: string): SearchPlace[] {
  const gazetteer = getGazetteer();
  const words = text.replace(/-/g, " ");
  let places = gazetteer.suggest(words, limit);
  if (places.length === 0) places = closeTowns(gazetteer, state ? `${words}, ${state}` : words, Math.min(3, limit));
  return places.map((p) => toSearchPlace(p, p.kind === "state" ? "state" : "city"));
}
