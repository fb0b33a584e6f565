/**
 * Length caps on the free text that arrives in URLs (docs/operations.md, "Free text in URLs").
 * Each is checked before any parsing, so that no parser, pattern or gazetteer search ever sees
 * more; over a cap the answer is a 400 naming the parameter. Lengths are JavaScript string
 * lengths (UTF-16 code units) of the decoded value. Browser-safe: the search box uses them too.
 */

/** `where` of the results page: typed place text ("Austin, TX 78701", "30.27, -97.74"). */
export const MAX_PLACE_QUERY_LENGTH = 200;
/** `q` of /api/places/suggest: the prefix being typed into the search box. */
export const MAX_SUGGEST_QUERY_LENGTH = 100;
/** `/rv-storage/{slug}`: real results slugs ("austin-tx", "tx") are under 60 characters. */
export const MAX_PLACE_SLUG_LENGTH = 300;
/**
 * `/location/{slug}`: name, town, state and place id, usually under 100 characters. Generous,
 * since a long facility name makes a long slug; past it the URL cannot be one of ours.
 */
export const MAX_LOCATION_SLUG_LENGTH = 1000;
/** `q` of the results page and /api/search: text looked for in listings' names and addresses. */
export const MAX_TEXT_FILTER_LENGTH = 200;

/** The message of every over-cap answer, naming the parameter. */
export function tooLongMessage(parameter: string, max: number): string {
  return `${parameter} must be at most ${max} characters`;
}
