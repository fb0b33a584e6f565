import { buildPlaceSlug } from "../../domain/slug";
import type { PlaceSuggestion } from "../../domain/search";
import type { Place } from "../geo";

export type { PlaceSuggestion };

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
