import { stripZip } from "../../domain/slug";
import { resolveState } from "../geo/states";

const COUNTRY = /^(?:usa|us|u\.s\.a?\.?|united states(?: of america)?)$/i;
const ZIP_ONLY = /^\d{5}(?:-\d{4})?$/;

export interface AddressPlace {
  city?: string;
  state?: string;
}

/**
 * City and state from a formatted US address, "123 Main St, Austin, TX 78701, USA": the last
 * part (after dropping the country and a lone ZIP) names the state, the part before it the city.
 * A street line is never taken for a city, so "12 Oak Rd, TX 78701" gives only the state.
 */
export function placeFromAddress(address: string | null | undefined): AddressPlace {
  const parts = (address ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length > 0 && COUNTRY.test(parts.at(-1) ?? "")) parts.pop();
  if (parts.length > 0 && ZIP_ONLY.test(parts.at(-1) ?? "")) parts.pop();
  const state = resolveState(stripZip(parts.at(-1) ?? ""));
  if (!state) return {};
  const city = parts.at(-2);
  return city && isCityName(city) ? { city, state } : { state };
}

/**
 * The town from Google's short address, "123 Main St, Austin", used when the full address gives
 * none.
 */
export function cityFromShortAddress(shortAddress: string | null | undefined): string | undefined {
  const parts = (shortAddress ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const city = parts.length >= 2 ? parts.at(-1) : undefined;
  return city && isCityName(city) ? city : undefined;
}

/** Street lines and suites start with a number or hold a ZIP; town names do not. */
function isCityName(part: string): boolean {
  return !/^\d/.test(part) && !/\d{5}/.test(part) && !/^(?:suite|ste|unit|apt|#)\b/i.test(part);
}
