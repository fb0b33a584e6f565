/**
 * Saved facilities and the compare page (docs/product.md section 15): limits, messages and the
 * `ids` of a compare URL. Browser-safe and pure: the save button, /saved, /compare and the server
 * say the same thing.
 */
import { MY_RV_PARAMS } from "./rv-fit";

/** How many facilities one person may keep saved. */
export const SAVED_LIMIT = 100;
/** How many facilities the compare page puts side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;
/** A place id as the catalogue stores them; longer is not one of ours. */
export const MAX_PLACE_ID_LENGTH = 255;
/** `ids` of /compare: four ids and their commas, with room to spare. */
export const MAX_COMPARE_IDS_LENGTH = COMPARE_MAX * (MAX_PLACE_ID_LENGTH + 1);

export const SAVED_MESSAGES = {
  full: `You have saved ${SAVED_LIMIT} facilities, the most we keep. Remove one on the Saved page to save another.`,
  unknown: "That facility is not in our directory any more.",
  missingId: "placeId is required: the id of the facility to save.",
  badId: "placeId is not a facility id.",
  badSaved: 'saved must be "true" or "false".',
  noSession: "Saving needs a session: reload the page (with JavaScript on) or sign in.",
  tooMany: "Too many saves from your address. Please wait a few minutes.",
  failed: "Could not save right now. Please try again.",
} as const;

/** Letters, digits, underscore and dash, as place ids (Google's and ours) are spelt. */
const PLACE_ID = /^[A-Za-z0-9_-]+$/;

export function isPlaceIdText(text: string): boolean {
  return text.length > 0 && text.length <= MAX_PLACE_ID_LENGTH && PLACE_ID.test(text);
}

export type CompareIdsParse = { ok: true; ids: string[] } | { ok: false; message: string };

/**
 * The facilities of a compare URL: `ids=a,b,c` (or `ids` repeated, as a form without JavaScript
 * sends it), trimmed, duplicates dropped, 2 to 4 of them, each spelt like a place id.
 */
export function parseCompareIds(params: URLSearchParams): CompareIdsParse {
  const raw = params.getAll("ids").join(",");
  if (raw.length > MAX_COMPARE_IDS_LENGTH) {
    return { ok: false, message: `ids is too long: give ${COMPARE_MIN} to ${COMPARE_MAX} facility ids.` };
  }
  const ids = [
    ...new Set(
      raw
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const bad = ids.find((id) => !isPlaceIdText(id));
  if (bad !== undefined) return { ok: false, message: `"${bad.slice(0, 40)}" is not a facility id.` };
  if (ids.length < COMPARE_MIN) {
    return {
      ok: false,
      message: `Pick ${COMPARE_MIN} to ${COMPARE_MAX} facilities to compare (${ids.length === 0 ? "none" : "only one"} given).`,
    };
  }
  if (ids.length > COMPARE_MAX) {
    return { ok: false, message: `Compare at most ${COMPARE_MAX} facilities at a time (${ids.length} given).` };
  }
  return { ok: true, ids };
}

/** The compare page of these facilities, keeping the searched place and the RV when known. */
export function compareHref(ids: readonly string[], keep?: URLSearchParams): string {
  const params = new URLSearchParams();
  params.set("ids", ids.join(","));
  for (const key of ["lat", "lng", MY_RV_PARAMS.length, MY_RV_PARAMS.height]) {
    const value = keep?.get(key);
    if (value) params.set(key, value);
  }
  // Commas stay readable in a URL people share.
  return `/compare?${params.toString().replace(/%2C/g, ",")}`;
}
