/**
 * The fixed table of the 50 US states plus the District of Columbia (docs/product.md section 3), with
 * two-letter postal codes and FIPS codes. Pure (no Node imports).
 */
import { foldName } from "./normalize";

export interface UsState {
  /** Two-letter USPS code, upper case. */
  code: string;
  name: string;
  /** Two-digit FIPS state code, as used by the Census Bureau (and us-atlas feature ids). */
  fips: string;
}

export const STATES: readonly UsState[] = [
  { code: "AL", name: "Alabama", fips: "01" },
  { code: "AK", name: "Alaska", fips: "02" },
  { code: "AZ", name: "Arizona", fips: "04" },
  { code: "AR", name: "Arkansas", fips: "05" },
  { code: "CA", name: "California", fips: "06" },
  { code: "CO", name: "Colorado", fips: "08" },
  { code: "CT", name: "Connecticut", fips: "09" },
  { code: "DE", name: "Delaware", fips: "10" },
  { code: "DC", name: "District of Columbia", fips: "11" },
  { code: "FL", name: "Florida", fips: "12" },
  { code: "GA", name: "Georgia", fips: "13" },
  { code: "HI", name: "Hawaii", fips: "15" },
  { code: "ID", name: "Idaho", fips: "16" },
  { code: "IL", name: "Illinois", fips: "17" },
  { code: "IN", name: "Indiana", fips: "18" },
  { code: "IA", name: "Iowa", fips: "19" },
  { code: "KS", name: "Kansas", fips: "20" },
  { code: "KY", name: "Kentucky", fips: "21" },
  { code: "LA", name: "Louisiana", fips: "22" },
  { code: "ME", name: "Maine", fips: "23" },
  { code: "MD", name: "Maryland", fips: "24" },
  { code: "MA", name: "Massachusetts", fips: "25" },
  { code: "MI", name: "Michigan", fips: "26" },
  { code: "MN", name: "Minnesota", fips: "27" },
  { code: "MS", name: "Mississippi", fips: "28" },
  { code: "MO", name: "Missouri", fips: "29" },
  { code: "MT", name: "Montana", fips: "30" },
  { code: "NE", name: "Nebraska", fips: "31" },
  { code: "NV", name: "Nevada", fips: "32" },
  { code: "NH", name: "New Hampshire", fips: "33" },
  { code: "NJ", name: "New Jersey", fips: "34" },
  { code: "NM", name: "New Mexico", fips: "35" },
  { code: "NY", name: "New York", fips: "36" },
  { code: "NC", name: "North Carolina", fips: "37" },
  { code: "ND", name: "North Dakota", fips: "38" },
  { code: "OH", name: "Ohio", fips: "39" },
  { code: "OK", name: "Oklahoma", fips: "40" },
  { code: "OR", name: "Oregon", fips: "41" },
  { code: "PA", name: "Pennsylvania", fips: "42" },
  { code: "RI", name: "Rhode Island", fips: "44" },
  { code: "SC", name: "South Carolina", fips: "45" },
  { code: "SD", name: "South Dakota", fips: "46" },
  { code: "TN", name: "Tennessee", fips: "47" },
  { code: "TX", name: "Texas", fips: "48" },
  { code: "UT", name: "Utah", fips: "49" },
  { code: "VT", name: "Vermont", fips: "50" },
  { code: "VA", name: "Virginia", fips: "51" },
  { code: "WA", name: "Washington", fips: "53" },
  { code: "WV", name: "West Virginia", fips: "54" },
  { code: "WI", name: "Wisconsin", fips: "55" },
  { code: "WY", name: "Wyoming", fips: "56" },
];

const BY_LOWER_NAME = new Map(STATES.map((s) => [s.name.toLowerCase(), s.code]));
const BY_CODE = new Map(STATES.map((s) => [s.code, s]));
const FOLDED_NAMES = STATES.map((s) => ({ code: s.code, folded: foldName(s.name), lowerCode: s.code.toLowerCase() }));
const BY_FOLDED = new Map<string, string>([
  ...FOLDED_NAMES.map((s): [string, string] => [s.folded, s.code]),
  ...FOLDED_NAMES.map((s): [string, string] => [s.lowerCode, s.code]),
]);

/**
 * The most words in a folded state name ("district of columbia"): a query's trailing words can
 * name a state, or start one, only within this many.
 */
export const MAX_STATE_NAME_WORDS = Math.max(...FOLDED_NAMES.map((s) => s.folded.split(" ").length));

/**
 * State name lookup (docs/product.md section 5: case-insensitive and trimmed, yielding a two-letter code or
 * nothing). Inner whitespace runs count as one space. Codes are not names: use `resolveState`.
 */
export function stateCodeFromName(name: string): string | undefined {
  return BY_LOWER_NAME.get(name.trim().replace(/\s+/g, " ").toLowerCase());
}

/** The state's name for a two-letter code (any case), or undefined. */
export function stateNameFromCode(code: string): string | undefined {
  return BY_CODE.get(code.trim().toUpperCase())?.name;
}

/** The state for a two-letter code (any case), or undefined. */
export function stateByCode(code: string): UsState | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

/**
 * Lenient state recognition for typed text: a two-letter code or a state name in any case,
 * with punctuation ("D.C.", "N.Y.") and extra spaces ignored. Returns the two-letter code.
 */
export function resolveState(text: string): string | undefined {
  return BY_FOLDED.get(foldName(text));
}

/** Codes of the states whose folded name or lower-case code starts with the folded prefix. */
export function statesMatchingPrefix(foldedPrefix: string): string[] {
  if (foldedPrefix === "") return [];
  return FOLDED_NAMES.filter((s) => s.folded.startsWith(foldedPrefix) || s.lowerCode.startsWith(foldedPrefix)).map(
    (s) => s.code,
  );
}
