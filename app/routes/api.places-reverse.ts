import type { Route } from "./+types/api.places-reverse";
import { getGazetteer } from "../../server/geo";
import { invalidParameters, parsePointParams, toPlaceSuggestion } from "../../server/search";

/**
 * GET /api/places/reverse?lat=&lng= -> { place: PlaceSuggestion | null }: the nearest sizeable
 * town in the state containing the point ('Use my location'); null outside the USA.
 */
export function loader({ url }: Route.LoaderArgs) {
  const parsed = parsePointParams(url.searchParams);
  if (!parsed.ok) return invalidParameters(parsed.errors);
  const town = getGazetteer().reverse(parsed.point.lat, parsed.point.lng);
  return Response.json(
    { place: town ? toPlaceSuggestion(town) : null },
    { headers: { "Cache-Control": "public, max-age=3600" } },
  );
}
