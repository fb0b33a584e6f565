/**
 * Name folding for place search. Pure (no Node imports), so a browser-side copy can be made.
 *
 * `foldName` maps a place name or a typed query to a search key:
 * - case-insensitive, diacritics removed (NFKD), a few letters without a decomposition mapped
 *   (ß -> ss, æ -> ae, ø -> o, ł -> l, ...);
 * - apostrophes and periods removed ("Coeur d'Alene" -> "coeur dalene", "St." -> "st"),
 *   every other non-alphanumeric run becomes one space, whitespace collapsed and trimmed;
 * - whole words Saint/St, Sainte/Ste, Fort/Ft, Mount/Mt fold to the short form, and "Mc"
 *   joins the next word ("Mc Lean" -> "mclean"), so "saint louis" and "st. louis" meet.
 *
 * The result only holds `[a-z0-9 ]`, with single spaces, and `foldName(foldName(x)) === foldName(x)`.
 */

const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
  ŀ: "l",
  ĸ: "k",
};
const SPECIAL_PATTERN = /[ßæœøłđðþıħŧŀĸ]/g;
const MARKS = /\p{M}+/gu;
/** Apostrophes (incl. the Hawaiian ʻokina as typed with quotes), backticks and periods vanish. */
const SILENT = /['‘’ʼʻ`´.]/g;
const SEPARATORS = /[^a-z0-9]+/g;

/** Whole-word abbreviations: the long and short forms fold to the short form. */
export const WORD_ALIASES: ReadonlyMap<string, string> = new Map([
  ["saint", "st"],
  ["sainte", "ste"],
  ["fort", "ft"],
  ["mount", "mt"],
]);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function baseFold(text: string): string {
  if (PRINTABLE_ASCII.test(text)) {
    // Fast path (most names): nothing to decompose.
    return text.toLowerCase().replace(SILENT, "").replace(SEPARATORS, " ").trim();
  }
  return text
    .toLowerCase()
    .normalize("NFKD")
    .toLowerCase()
    .replace(MARKS, "")
    .replace(SPECIAL_PATTERN, (c) => SPECIAL_LETTERS[c] ?? "")
    .replace(SILENT, "")
    .replace(SEPARATORS, " ")
    .trim();
}

function foldWords(words: readonly string[], aliasLast = true): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    if (word === "mc" && next !== undefined) {
      out.push(`mc${next}`);
      i++;
    } else if (i === words.length - 1 && !aliasLast) {
      out.push(word);
    } else {
      out.push(WORD_ALIASES.get(word) ?? word);
    }
  }
  return out;
}

const ALIAS_OR_MC = /\b(?:saint|sainte|fort|mount|mc)\b/;

/** Folds a name or query to its search key (see the module comment). */
export function foldName(text: string): string {
  const base = baseFold(text);
  if (base === "" || !ALIAS_OR_MC.test(base)) return base;
  return foldWords(base.split(" ")).join(" ");
}

/**
 * A typed prefix, folded for prefix search.
 * - `key`: the folded text; an unfinished last word keeps its unabbreviated form, so "mount"
 *   still reaches "Mountain View".
 * - `complete`: the text ends with a separator, so the last word is finished ("austin " does
 *   not want "Austintown").
 * - `expansions`: extra prefixes (ending in a space) for an unfinished last word that may be the
 *   start of an abbreviated word: "sain" -> "st ", "for" -> "ft ", "mount" -> "mt ".
 */
export interface FoldedPrefix {
  key: string;
  complete: boolean;
  expansions: string[];
}

export function foldPrefix(text: string): FoldedPrefix {
  const base = baseFold(text);
  if (base === "") return { key: "", complete: false, expansions: [] };
  const words = base.split(" ");
  // "mc " is unfinished too: "Mc Lean" folds to "mclean".
  const complete = !/[\p{L}\p{N}\p{M}]$/u.test(text) && words[words.length - 1] !== "mc";
  if (complete) return { key: foldWords(words).join(" "), complete, expansions: [] };
  const folded = foldWords(words, false);
  const last = words[words.length - 1] ?? "";
  const expansions: string[] = [];
  if (last.length >= 3 && folded[folded.length - 1] === last) {
    const head = folded.slice(0, -1);
    for (const [long, short] of WORD_ALIASES) {
      if (long.startsWith(last)) expansions.push(`${[...head, short].join(" ")} `);
    }
  }
  return { key: folded.join(" "), complete, expansions };
}
