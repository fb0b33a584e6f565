/**
 * Request parsing shared by the search API routes, so that every endpoint answers a client
 * mistake the same way: 400 with `{ error: "invalid_parameters", errors: [{ parameter, message }] }`.
 */
import { parseSearchParams, type SearchParamError } from "../../domain/search-params";
import type { LatLng } from "../geo/coordinates";
import { stateByCode } from "../geo/states";
import type { SearchScope } from "./query";
import type { SearchOptions } from "./service";

export function invalidParameters(errors: readonly SearchParamError[]): Response {
  return Response.json({ error: "invalid_parameters", errors }, { status: 400 });
}

type Parsed<T> = ({ ok: true } & T) | { ok: false; errors: SearchParamError[] };

/** Adds "required" errors for lat and lng when absent (and not already reported). */
function requirePoint(params: URLSearchParams, errors: SearchParamError[]): void {
  for (const parameter of ["lat", "lng"]) {
    if (!params.has(parameter) && !errors.some((e) => e.parameter === parameter)) {
      errors.push({ parameter, message: `${parameter} is required` });
    }
  }
}

/** `lat` and `lng`, both required, with the contract's range checks and messages. */
export function parsePointParams(params: URLSearchParams): Parsed<{ point: LatLng }> {
  const only = new URLSearchParams();
  for (const key of ["lat", "lng"]) for (const value of params.getAll(key)) only.append(key, value);
  const parsed = parseSearchParams(only);
  const errors = parsed.ok ? [] : [...parsed.errors];
  requirePoint(params, errors);
  if (errors.length > 0 || !parsed.ok || !parsed.point) return { ok: false, errors };
  return { ok: true, point: parsed.point };
}

/**
 * GET /api/search: the contract's parameters with lat and lng required, plus an optional
 * `state` (two-letter code) that searches that whole state instead of the radius, as a state's
 * results page does.
 */
export function parseSearchRequest(
  params: URLSearchParams,
): Parsed<{ point: LatLng; options: SearchOptions; scope: SearchScope }> {
  const parsed = parseSearchParams(params);
  const errors = parsed.ok ? [] : [...parsed.errors];
  requirePoint(params, errors);
  const stateRaw = params.getAll("state").at(-1)?.trim();
  const state = stateRaw ? stateByCode(stateRaw.toUpperCase())?.code : undefined;
  if (stateRaw && !state) {
    errors.push({ parameter: "state", message: "state must be a two-letter US state code" });
  }
  if (errors.length > 0 || !parsed.ok || !parsed.point) return { ok: false, errors };
  const { filters, sort, page, pageSize, radius } = parsed;
  return {
    ok: true,
    point: parsed.point,
    options: { filters, sort, page, pageSize, radius },
    scope: state ? { state } : {},
  };
}
