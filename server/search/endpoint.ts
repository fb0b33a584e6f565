import type { IncomingMessage, ServerResponse } from "node:http";
import type { SearchParamError } from "../../app/lib/search-params";
import { parseSearchRequest } from "./http";
import { getSearchIndex } from "./refresh";
import type { LatLng } from "../geo/coordinates";
import type { SearchScope } from "./query";
import type { SearchIndex } from "./search-index";
import { searchNear, type SearchOptions } from "./service";
import { Lru } from "../lru";

/** A complete HTTP answer, ready for node:http or a fetch Response. */
export interface EndpointAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = "application/json; charset=utf-8";
// Fast-path answers skip the Express middleware that sets this on every other response.
const NOSNIFF = { "X-Content-Type-Options": "nosniff" };
const MAX_CACHED = 2000;

export function invalidParametersAnswer(errors: readonly SearchParamError[]): EndpointAnswer {
  return {
    status: 400,
    headers: { ...NOSNIFF, "Content-Type": JSON_TYPE, "Cache-Control": "no-store" },
    body: JSON.stringify({ error: "invalid_parameters", errors }),
  };
}

/**
 * Serialised answers per index snapshot. A search answer depends only on the parsed query and
 * the index, and the index is immutable until it is swapped, so a popular query (a city page's
 * map and list, the filter previews) is searched and serialised once per index build.
 *
 * Two layers: `answers` is keyed on the query as understood (`cacheKey`) and is the one that
 * matters; `byQuery`, keyed on the query string as written, only saves the parse of a repeated
 * URL. Varying a URL (a cache buster such as `_=N`) can push entries out of `byQuery`, which
 * then costs a parse, but never out of `answers`: every variant refreshes the same entry there.
 */
let cache: { index: SearchIndex; answers: Lru<EndpointAnswer>; byQuery: Lru<EndpointAnswer> } | undefined;
/** Longer query strings are parsed every time rather than held as keys. */
const MAX_QUERY_KEY_LENGTH = 512;

function cacheFor(index: SearchIndex) {
  if (cache?.index !== index) cache = { index, answers: new Lru(MAX_CACHED), byQuery: new Lru(MAX_CACHED) };
  return cache;
}

/**
 * The cache key is the query as understood, not as written: parameters the search ignores (a
 * cache buster such as `_=N`), their order and filter order do not make new entries, so a client
 * cannot push the popular answers out by varying the URL.
 */
export function cacheKey(point: LatLng, options: SearchOptions, scope: SearchScope): string {
  const { filters } = options;
  const sorted = { ...filters, sizes: [...filters.sizes].sort(), amenities: [...filters.amenities].sort() };
  return JSON.stringify([
    point.lat,
    point.lng,
    sorted,
    options.sort,
    options.page,
    options.pageSize,
    options.radius,
    scope,
  ]);
}

/** How many answers the cache holds by understood query (for tests of the key). */
export function cachedAnswerCount(): number {
  return cache?.answers.size ?? 0;
}

/**
 * GET /api/search (docs/api.md): `query` is the URL's query string without the '?'. Served by
 * Express directly (server/app.ts), ahead of React Router, because this endpoint is the hot path
 * of every results page and its filter previews.
 */
export function answerSearch(query: string): EndpointAnswer {
  const { answers, byQuery } = cacheFor(getSearchIndex());
  const asWritten = query.length <= MAX_QUERY_KEY_LENGTH ? query : undefined;
  const seen = asWritten === undefined ? undefined : byQuery.get(asWritten);
  if (seen) return seen;
  const parsed = parseSearchRequest(new URLSearchParams(query));
  if (!parsed.ok) return invalidParametersAnswer(parsed.errors);
  const key = cacheKey(parsed.point, parsed.options, parsed.scope);
  let answer = answers.get(key);
  if (!answer) {
    answer = {
      status: 200,
      headers: { ...NOSNIFF, "Content-Type": JSON_TYPE, "Cache-Control": "public, max-age=60" },
      body: JSON.stringify(searchNear(parsed.point, parsed.options, parsed.scope)),
    };
    answers.set(key, answer);
  }
  if (asWritten !== undefined) byQuery.set(asWritten, answer);
  return answer;
}

/** The node:http / Express handler for GET /api/search. */
export function searchRequestHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const answer = answerSearch(q === -1 ? "" : url.slice(q + 1));
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
