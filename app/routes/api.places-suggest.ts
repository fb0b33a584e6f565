import type { Route } from "./+types/api.places-suggest";
import { MAX_SUGGEST_QUERY_LENGTH, tooLongMessage } from "../../domain/input-limits";
import { getGazetteer } from "../../server/geo";
import { invalidParameters, toPlaceSuggestion } from "../../server/search";

const LIMIT = 8;

/**
 * GET /api/places/suggest?q= -> { suggestions: PlaceSuggestion[] }: towns, ZIP codes and states
 * from the embedded gazetteer, most populous first. 2 characters or fewer give an empty list
 * (docs/product.md section 5: suggestions start after more than 2 characters).
 */
export function loader({ url }: Route.LoaderArgs) {
  const q = url.searchParams.get("q") ?? "";
  if (q.length > MAX_SUGGEST_QUERY_LENGTH) {
    return invalidParameters([{ parameter: "q", message: tooLongMessage("q", MAX_SUGGEST_QUERY_LENGTH) }]);
  }
  const text = q.trim();
  const suggestions = text.length <= 2 ? [] : getGazetteer().suggest(text, LIMIT).map(toPlaceSuggestion);
  return Response.json({ suggestions }, { headers: { "Cache-Control": "public, max-age=3600" } });
}
