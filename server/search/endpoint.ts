import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import type { SearchParamError } from "../../domain/search-params";
import { parseSearchRequest } from "./http";
import { getSearchIndex } from "./refresh";
import type { LatLng } from "../geo/coordinates";
import type { SearchScope } from "./query";
import type { SearchIndex } from "./search-index";
import { searchNearJson, type SearchOptions } from "./service";
import { serverNow } from "../clock";
import { Lru } from "../lru";
import { AskedOnce } from "./asked-once";
import { ownBuffer } from "./slab";

/** A complete HTTP answer, ready for node:http or a fetch Response. */
export interface EndpointAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, UTF-8. */
  body: Buffer;
  /** The body's bytes in each encoding, made on first use and kept with the cached answer. */
  encoded?: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
  /** Whether the answer cache holds it (then it is compressed at the smaller, slower levels). */
  kept?: boolean;
}

type Encoding = "br" | "gzip" | "identity";

/** Smaller bodies gain too little from compression to pay for it. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * The encoding to send: brotli, then gzip, when the client accepts it (`q=0` refuses), else none.
 * A plain split and compare: no pattern runs over the header.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  // Browsers send one of a few headers: each is read once.
  if (typeof acceptEncoding === "string") {
    const known = ENCODING_BY_HEADER.get(acceptEncoding);
    if (known !== undefined) return known;
    const chosen = readAcceptEncoding(acceptEncoding);
    if (ENCODING_BY_HEADER.size >= MAX_KNOWN_HEADERS) ENCODING_BY_HEADER.clear();
    if (acceptEncoding.length <= MAX_KNOWN_HEADER_LENGTH) ENCODING_BY_HEADER.set(acceptEncoding, chosen);
    return chosen;
  }
  return readAcceptEncoding(acceptEncoding);
}

const ENCODING_BY_HEADER = new Map<string, Encoding>();
const MAX_KNOWN_HEADERS = 64;
const MAX_KNOWN_HEADER_LENGTH = 128;

function readAcceptEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  const header = (Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "")).slice(0, 512);
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return "identity";
}

/**
 * Compression levels. An answer asked once (most first answers: a map moved to a new centre) is
 * sent once, so its compression is paid per request and a fast level suits it: brotli 0 makes a
 * typical 9.3 kB answer 2.5 kB in ~33 us (brotli 1: 2.4 kB in ~45 us), where quality 3 gave
 * 2.2 kB in ~87 us, longer than the search itself (scripts/bench-search.ts, "distinct centres").
 * An answer the cache keeps is compressed once and sent many times, so it gets the smaller output
 * of brotli 5 (2.1 kB). Gzip, for the few clients without brotli, likewise at 1 and 6.
 */
export const COMPRESSION_LEVELS = {
  first: { br: 0, gzip: 1 },
  kept: { br: 5, gzip: 6 },
} as const;

/**
 * The smallest brotli window that holds `bytes` (a window is 2^bits - 16 bytes), from 10 to the
 * default 22: as small an output for an answer that fits (only the header's window size differs),
 * and an encoder that reserves 16 kB for a 9 kB answer instead of 4 MB (half the garbage
 * collections that compressing first answers brought).
 */
export function brotliWindowBits(bytes: number): number {
  let bits = zlib.constants.BROTLI_MIN_WINDOW_BITS;
  while (bits < zlib.constants.BROTLI_DEFAULT_WINDOW && (1 << bits) - 16 < bytes) bits++;
  return bits;
}

/** The answer's body in `encoding`, compressed once per answer (the cache keeps it). */
function bodyIn(answer: EndpointAnswer, encoding: Encoding): Buffer {
  if (encoding === "identity") return answer.body;
  answer.encoded ??= {};
  let bytes = answer.encoded[encoding];
  if (!bytes) {
    const plain = answer.body;
    const level = COMPRESSION_LEVELS[answer.kept ? "kept" : "first"][encoding];
    bytes =
      encoding === "br"
        ? zlib.brotliCompressSync(plain, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: level,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(plain.length),
            },
          })
        : zlib.gzipSync(plain, { level });
    answer.encoded[encoding] = bytes;
  }
  return bytes;
}

const JSON_TYPE = "application/json; charset=utf-8";
// Fast-path answers skip the Express middleware that sets this on every other response.
const NOSNIFF = { "X-Content-Type-Options": "nosniff" };
const MAX_CACHED = 2000;

export function invalidParametersAnswer(errors: readonly SearchParamError[]): EndpointAnswer {
  return {
    status: 400,
    headers: { ...NOSNIFF, "Content-Type": JSON_TYPE, "Cache-Control": "no-store" },
    body: Buffer.from(JSON.stringify({ error: "invalid_parameters", errors })),
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
let cache:
  | {
      index: SearchIndex;
      version: number;
      hour: number;
      answers: Lru<EndpointAnswer>;
      byQuery: Lru<EndpointAnswer>;
      /** The queries asked before (an answer is kept from the second ask). */
      asked: AskedOnce;
    }
  | undefined;
const HOUR_MS = 60 * 60_000;
/** Longer query strings are parsed every time rather than held as keys. */
const MAX_QUERY_KEY_LENGTH = 512;

/**
 * The cache of the current index as it is now (its version moves with every change applied in
 * place). Answers also depend on the time (a card's "updated 3 days ago",
 * a status that stops counting after 30 days: docs/product.md section 17), so the cache starts
 * afresh every hour of the server's clock too: an answer is at most an hour behind the clock.
 */
function cacheFor(index: SearchIndex) {
  const hour = Math.floor(serverNow().getTime() / HOUR_MS);
  if (cache?.index !== index || cache.version !== index.version || cache.hour !== hour) {
    cache = {
      index,
      version: index.version,
      hour,
      answers: new Lru(MAX_CACHED),
      byQuery: new Lru(MAX_CACHED),
      asked: new AskedOnce(),
    };
  }
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
  const { answers, byQuery, asked } = cacheFor(getSearchIndex());
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
      body: searchNearJson(parsed.point, parsed.options, parsed.scope),
    };
    // Kept from its second ask on: a query asked once (a new map centre, most of them) would only
    // push popular answers out, and each kept answer is memory the garbage collector walks.
    if (!asked.check(key)) return answer;
    // Its body may share a slab with answers long sent (slab.ts): kept, it gets its own memory.
    answer.body = ownBuffer(answer.body);
    answer.kept = true;
    answer.encoded = undefined;
    answers.set(key, answer);
  }
  if (asWritten !== undefined) byQuery.set(asWritten, answer);
  return answer;
}

/**
 * The node:http handler for GET and HEAD /api/search: the answer compressed with brotli or gzip
 * when the client accepts it (once per cached answer), with its Content-Length; HEAD sends the
 * same headers without the body. `Server-Timing: search;dur=` says how long the instance took
 * (parse, search, JSON, compression; milliseconds), which tells its own time from time spent
 * waiting for it (docs/api.md).
 */
export function searchRequestHandler(req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const answer = answerSearch(q === -1 ? "" : url.slice(q + 1));
  const wanted =
    answer.body.length >= MIN_COMPRESSED_BYTES ? chooseEncoding(req.headers["accept-encoding"]) : "identity";
  const body = bodyIn(answer, wanted);
  const headers: Record<string, string> = {
    ...answer.headers,
    Vary: "Accept-Encoding",
    "Content-Length": String(body.length),
  };
  if (wanted !== "identity") headers["Content-Encoding"] = wanted;
  headers["Server-Timing"] = `search;dur=${(performance.now() - started).toFixed(2)}`;
  res.writeHead(answer.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}
