import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { carriesPersonalCookie, isSharedCachePath } from "./shared-cache";

/**
 * Public pages served from memory (docs/operations.md, "A shared cache in front"): the pages a
 * shared cache may keep (server/http/shared-cache.ts) are the same for every anonymous visitor, so
 * one instance keeps the bytes it sent, compressed, and sends them again to the next visitor who
 * asks for the same address with the same Accept-Encoding, for at most SHARED_CACHE_SECONDS, the
 * freshness a cache in front promises anyway. Without a cache in front (the embedded default) this
 * is that cache, on each instance.
 *
 * A page is forgotten when the catalogue changes (`version`: the search index's, which moves with
 * every listing change applied on this instance, whichever instance made it), when this instance
 * answers a POST that may change a page (a review's reply, an article, a vote: everything but the
 * analytics beacons, sign-ins and saves, which change no public page), when its time is up on the
 * server's clock, and when a request is a shared cache's refresh (`isRefresh`), whose new answer
 * then replaces it. Another instance's change to something other than a listing shows here
 * within SHARED_CACHE_SECONDS, as it does through a shared cache. Only answers marked public by the site are kept, whole and with no cookie; the
 * response headers that belong to one answer (its request id, date, length) are not.
 */
export interface PageMemory {
  /**
   * Sends the kept page for this request and returns true, or returns false (and keeps the answer
   * if it may). A POST that may change what pages show makes it forget every page once answered.
   */
  handle(req: IncomingMessage, res: ServerResponse, requestId: () => string): boolean;
  /** Forgets every page (an article changed, say). */
  forget(): void;
  /** Pages and bytes kept, for tests and the log. */
  readonly size: { pages: number; bytes: number };
}

interface Kept {
  headers: OutgoingHttpHeaders;
  body: Buffer;
  until: number;
}

/** Headers of one answer, not of the page. */
const PER_ANSWER = new Set(["x-request-id", "date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** POSTs that change no public page: the analytics beacons, sessions and a visitor's saves. */
function changesNoPage(url: string): boolean {
  return url.startsWith("/api/analytics/") || url.startsWith("/api/auth/") || url.startsWith("/api/saved");
}

/**
 * A shared cache's refresh of a page (server/cache/): its X-Cache-Purge as the outbox sends it, or
 * the X-Cache-Refresh: 1 the reference nginx configuration sends upstream in its place (it keeps the
 * token to itself). Either only makes this instance render the page again.
 */
function isRefresh(req: IncomingMessage): boolean {
  return req.headers["x-cache-purge"] !== undefined || req.headers["x-cache-refresh"] === "1";
}

/** The longest address kept: longer ones are rendered every time. */
const MAX_KEY_URL = 1024;

export function createPageMemory({
  seconds,
  maxBytes = 32 * 1024 * 1024,
  version,
  now = Date.now,
}: {
  /** How long a page is kept: SHARED_CACHE_SECONDS (0 keeps nothing). */
  seconds: number;
  /** The most bytes of pages kept; the least recently sent go first. */
  maxBytes?: number;
  /** Changes whenever what pages show may have changed (the search index and its version). */
  version: () => unknown;
  now?: () => number;
}): PageMemory {
  const pages = new Map<string, Kept>();
  let bytes = 0;
  let seen: unknown;

  const drop = (key: string, kept: Kept) => {
    pages.delete(key);
    bytes -= kept.body.length;
  };
  const forget = () => {
    pages.clear();
    bytes = 0;
  };

  const keyOf = (req: IncomingMessage): string | undefined => {
    const url = req.url ?? "";
    if (url.length > MAX_KEY_URL || !url.startsWith("/")) return undefined;
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    if (!isSharedCachePath(path) || carriesPersonalCookie(req.headers.cookie)) return undefined;
    return `${req.headers.host ?? ""}\n${req.headers["accept-encoding"] ?? ""}\n${url}`;
  };

  /** `asOf`: when the page's request came in, so that it expires `seconds` after what it shows. */
  const keep = (key: string, res: ServerResponse, sent: OutgoingHttpHeaders, chunks: Buffer[], asOf: number) => {
    const control = String(sent["cache-control"] ?? "");
    if (res.statusCode !== 200 || !control.startsWith("public") || sent["set-cookie"] !== undefined) return;
    const body = Buffer.concat(chunks);
    if (body.length === 0 || body.length > maxBytes / 8) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(sent)) {
      if (!PER_ANSWER.has(name) && value !== undefined) headers[name] = value;
    }
    const old = pages.get(key);
    if (old) drop(key, old);
    pages.set(key, { headers, body, until: asOf + seconds * 1000 });
    bytes += body.length;
    for (const [oldest, kept] of pages) {
      if (bytes <= maxBytes) break;
      drop(oldest, kept);
    }
  };

  return {
    handle(req, res, requestId) {
      if (seconds <= 0) return false;
      if (req.method === "POST") {
        if (!changesNoPage(req.url ?? "")) res.once("finish", forget);
        return false;
      }
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const key = keyOf(req);
      if (key === undefined) return false;
      const current = version();
      if (current !== seen) {
        forget();
        seen = current;
      }
      const kept = isRefresh(req) ? undefined : pages.get(key);
      const asOf = now();
      if (kept && kept.until > asOf) {
        // Most recently sent last: the first in the map is the next to go.
        pages.delete(key);
        pages.set(key, kept);
        res.writeHead(200, { ...kept.headers, "x-request-id": requestId(), "content-length": kept.body.length });
        res.end(req.method === "HEAD" ? undefined : kept.body);
        return true;
      }
      if (kept) drop(key, kept);
      if (req.method === "HEAD") return false;
      // Kept as it leaves, after compression (server.js compresses inside these calls), with the
      // headers set before and those handed to writeHead.
      const chunks: Buffer[] = [];
      let sent: OutgoingHttpHeaders | undefined;
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      (res as unknown as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args) => {
        const given = typeof args[1] === "string" ? args[2] : args[1];
        // Raw [name, value] lists are not read back: such an answer is not kept.
        if (Array.isArray(given)) sent = undefined;
        else {
          sent = { ...res.getHeaders() };
          for (const [name, value] of Object.entries((given ?? {}) as OutgoingHttpHeaders))
            sent[name.toLowerCase()] = value;
        }
        return writeHead(...args);
      };
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const add = (chunk: unknown, encoding: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === "function") return;
        chunks.push(
          Buffer.isBuffer(chunk)
            ? chunk
            : typeof chunk === "string"
              ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
              : Buffer.from(chunk as Uint8Array),
        );
      };
      (res as unknown as { write: (...args: unknown[]) => boolean }).write = (...args) => {
        add(args[0], args[1]);
        return write(...args);
      };
      (res as unknown as { end: (...args: unknown[]) => ServerResponse }).end = (...args) => {
        add(args[0], args[1]);
        return end(...args);
      };
      res.once("finish", () => {
        // A change applied while the page was rendered may not be in it.
        // The time is the request's, not the finish's: the visitor may have had the page, and the
        // clock moved on (a test's clock file, say), before this runs.
        if (version() === current && sent) keep(key, res, sent, chunks, asOf);
      });
      return false;
    },
    forget,
    get size() {
      return { pages: pages.size, bytes };
    },
  };
}
