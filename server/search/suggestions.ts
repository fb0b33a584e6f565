import { buildPlaceSlug } from "../../app/lib/slug";
import type { Place } from "../geo";

/** A place as the search box offers it (GET /api/places/suggest and /api/places/reverse). */
export interface PlaceSuggestion {
  /** "Austin, TX"; "78701 (Austin, TX)" for a ZIP; "Texas" for a state. */
  label: string;
  /** The town; null for a whole state. */
  city: string | null;
  state: string;
  stateName: string;
  lat: number;
  lng: number;
  /** The results page slug: 'austin-tx', 'tx'; a ZIP leads to its town's page. */
  slug: string;
}

export function toPlaceSuggestion(place: Place): PlaceSuggestion {
  if (place.kind === "state") {
    return {
      label: place.stateName,
      city: null,
      state: place.state,
      stateName: place.stateName,
      lat: place.lat,
      lng: place.lng,
      slug: buildPlaceSlug(null, place.state),
    };
  }
  const town = `${place.name}, ${place.state}`;
  return {
    label: place.kind === "zip" && place.zip ? `${place.zip} (${town})` : town,
    city: place.name,
    state: place.state,
    stateName: place.stateName,
    lat: place.lat,
    lng: place.lng,
    slug: buildPlaceSlug(place.name, place.state),
  };
}
