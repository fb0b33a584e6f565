import type { IncomingMessage, ServerResponse } from "node:http";
import type { SearchParamError } from "../../app/lib/search-params";
import { parseSearchRequest } from "./http";
import { getSearchIndex } from "./refresh";
import type { LatLng } from "../geo/coordinates";
import type { SearchScope } from "./query";
import type { SearchIndex } from "./search-index";
import { searchNear, type SearchOptions } from "./service";

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
 */
let cache: { index: SearchIndex; answers: Map<string, EndpointAnswer> } | undefined;

function cached(index: SearchIndex, key: string): EndpointAnswer | undefined {
  if (cache?.index !== index) cache = { index, answers: new Map() };
  const hit = cache.answers.get(key);
  if (hit) {
    // Refresh its place in the insertion order, so the map evicts the least recently used.
    cache.answers.delete(key);
    cache.answers.set(key, hit);
  }
  return hit;
}

function remember(key: string, answer: EndpointAnswer): void {
  const answers = cache!.answers;
  answers.set(key, answer);
  if (answers.size > MAX_CACHED) answers.delete(answers.keys().next().value!);
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

/** How many answers the cache holds (for tests of the key). */
export function cachedAnswerCount(): number {
  return cache?.answers.size ?? 0;
}

/**
 * GET /api/search (docs/api.md): `query` is the URL's query string without the '?'. Served by
 * Express directly (server/app.ts), ahead of React Router, because this endpoint is the hot path
 * of every results page and its filter previews.
 */
export function answerSearch(query: string): EndpointAnswer {
  const index = getSearchIndex();
  const parsed = parseSearchRequest(new URLSearchParams(query));
  if (!parsed.ok) return invalidParametersAnswer(parsed.errors);
  const key = cacheKey(parsed.point, parsed.options, parsed.scope);
  const hit = cached(index, key);
  if (hit) return hit;
  const answer: EndpointAnswer = {
    status: 200,
    headers: { ...NOSNIFF, "Content-Type": JSON_TYPE, "Cache-Control": "public, max-age=60" },
    body: JSON.stringify(searchNear(parsed.point, parsed.options, parsed.scope)),
  };
  remember(key, answer);
  return answer;
}

/** The node:http / Express handler for GET /api/search. */
export function searchRequestHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const answer = answerSearch(q === -1 ? "" : url.slice(q + 1));
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
