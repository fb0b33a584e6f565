/** Rules for the typed address search (docs/product.md section 5). Browser-safe. */

/** Suggestions start only after more than 2 characters. */
export const MIN_SUGGEST_CHARS = 3;
/** A submitted search of 4 characters or fewer is ignored. */
export const MIN_SEARCH_CHARS = 5;

export function isSearchableText(text: string): boolean {
  return text.trim().length >= MIN_SEARCH_CHARS;
}
