import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { ServerResponse } from "node:http";
import { MY_RV_COOKIE } from "../../domain/rv-fit";
import { ACCOUNT_COOKIE } from "../auth/account-marker";

/**
 * Public pages a shared cache may keep (docs/operations.md, "A shared cache in front"): the same
 * HTML for every visitor who carries none of the cookies a page is personal for, marked
 * `public, s-maxage, stale-while-revalidate`, so that nginx or a CDN in front of the instances
 * answers anonymous traffic, and everything else stays `private, no-store`.
 *
 * Every visitor has a session (an anonymous one at least), so the session does not decide: a shared
 * page is rendered without it, and the person's part (the header's sign-in state, saved hearts)
 * comes from GET /api/session after load (server/auth/personal.ts). What does decide are these
 * cookies: the account marker (a signed-in browser gets its pages whole, with no flash of the
 * signed-out header), a flash message, and the remembered RV (the results page redirects to its
 * filter). A request with any of them is never answered as cacheable, and the cache must not answer
 * it from what it keeps (the reference nginx configuration bypasses its cache on the same names; a
 * CDN needs the same rule).
 */

/** Names of the cookies that make a page personal. */
export const PERSONAL_COOKIES: readonly string[] = [ACCOUNT_COOKIE, "flash", "__Host-flash", MY_RV_COOKIE];

/** Whether a Cookie header carries one of the personal cookies. Linear in the header's length. */
export function carriesPersonalCookie(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name === "") continue;
    if (PERSONAL_COOKIES.includes(name)) return true;
  }
  return false;
}

/** A path's segments after the leading '/', or undefined when it has empty ones ("//", a trailing '/'). */
function segmentsOf(pathname: string): string[] | undefined {
  if (pathname === "/") return [];
  const segments = pathname.slice(1).split("/");
  return segments.every((segment) => segment !== "") ? segments : undefined;
}

/**
 * The public screens whose answer is the same for every anonymous visitor: home, results and place
 * pages, facility pages, about, the blog and its feed, the sitemaps. Their React Router data
 * requests (`/location/x.data`, `/_root.data` for home) are the same answers in another form.
 * A facility's review form and waitlist (`/location/x/review`) are not: they carry form tokens.
 */
export function isSharedCachePath(pathname: string): boolean {
  if (pathname.length > 2048) return false;
  if (pathname === "/_root.data") return true;
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  const segments = segmentsOf(path);
  if (!segments) return false;
  const [first, second, ...rest] = segments;
  if (rest.length > 0) return false;
  switch (first) {
    case undefined:
      return true;
    case "about":
      return second === undefined;
    case "rv-storage":
    case "blog":
      return true;
    case "location":
      return second !== undefined;
    case "sitemap.xml":
      return second === undefined;
    case "sitemaps":
      return second !== undefined;
    default:
      return false;
  }
}

export interface SharedCacheSettings {
  /** How long a shared cache may answer with a page before it asks again (s-maxage). */
  SHARED_CACHE_SECONDS: number;
  /** How long past that it may still answer with it while it asks again in the background. */
  SHARED_CACHE_STALE_SECONDS: number;
}

/** The Cache-Control of a page a shared cache may keep; browsers keep none (max-age=0). */
export function sharedCacheControl(settings: SharedCacheSettings): string {
  return `public, max-age=0, s-maxage=${settings.SHARED_CACHE_SECONDS}, stale-while-revalidate=${settings.SHARED_CACHE_STALE_SECONDS}`;
}

/**
 * Decides, before anything else reads the request, whether its answer may be shared:
 * `res.locals.sharedCache`, read by the security headers, which then leave the nonce out (a shared
 * page's scripts are allowed by their hashes, app/entry.server.tsx), and by `sharedCacheMark`.
 * With SHARED_CACHE_SECONDS=0 nothing is shared.
 */
export function sharedCacheDecision(settings: SharedCacheSettings) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.sharedCache =
      settings.SHARED_CACHE_SECONDS > 0 &&
      (req.method === "GET" || req.method === "HEAD") &&
      isSharedCachePath(req.path) &&
      !carriesPersonalCookie(req.headers.cookie);
    next();
  };
}

/**
 * A typed search (`/rv-storage?where=…`): its redirect to the place it names is the same for every
 * anonymous visitor and is shared; any other answer is not, since the page of text that names no
 * place says the text again ("Could not find location: …").
 */
function isTypedSearch(url: string): boolean {
  const query = url.indexOf("?");
  return query >= 0 && new URLSearchParams(url.slice(query + 1)).has("where");
}

/**
 * Statuses a shared cache may keep: a page, a permanent redirect (an old slug to the canonical one),
 * and a listing that is not or no longer there. Kept like pages, so that a refresh after a listing
 * is hidden or deleted replaces the cached page with its 404 instead of leaving the page there.
 */
const SHARED_STATUSES = new Set([200, 301, 308, 404, 410]);
/** What a typed search shares: its redirect to the place's results page. */
const SHARED_REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * Marks a shared answer cacheable as it goes out, if its status is one of SHARED_STATUSES (a typed
 * search: SHARED_REDIRECTS), it sets no cookie and its route chose no caching of its own. Installed after `privateByDefault`
 * (server/http/request-rules.ts), so that its mark is written first: every other answer is
 * `private, no-store`.
 */
export function sharedCacheMark(settings: SharedCacheSettings) {
  const control = sharedCacheControl(settings);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (res.locals.sharedCache !== true) return next();
    const statuses = isTypedSearch(req.url) ? SHARED_REDIRECTS : SHARED_STATUSES;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as unknown as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args) => {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      if (statuses.has(status) && !res.hasHeader("Set-Cookie") && !res.hasHeader("Cache-Control")) {
        res.setHeader("Cache-Control", control);
      }
      return writeHead(...args);
    };
    next();
  };
}

/** Script types a browser runs; data blocks such as JSON-LD are not scripts and need no hash. */
function runsAsScript(openTag: string): boolean {
  const typeAt = openTag.indexOf(" type=");
  if (typeAt < 0) return true;
  const quote = openTag[typeAt + 6];
  const end = quote === '"' || quote === "'" ? openTag.indexOf(quote, typeAt + 7) : -1;
  const type = (end < 0 ? "" : openTag.slice(typeAt + 7, end)).toLowerCase();
  // "text/x-after-paint" holds the module script the page's loader turns back into one
  // (server/http/script-priority.ts), so its text must be allowed as a script.
  return !type.includes("json");
}

const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_CLOSE = Buffer.from("</script");

/**
 * The CSP sources ('sha256-…') of every inline script in a rendered page, each once, in order: what a
 * page shared by a cache allows instead of a per-response nonce. The text hashed is the bytes
 * between the opening tag and `</script`, as a browser reads a script element's text. One pass.
 */
export function inlineScriptHashes(page: Buffer): string[] {
  const hashes = new Set<string>();
  let at = page.indexOf(SCRIPT_OPEN);
  while (at >= 0) {
    const tagEnd = page.indexOf(62 /* > */, at + SCRIPT_OPEN.length);
    if (tagEnd < 0) break;
    const close = page.indexOf(SCRIPT_CLOSE, tagEnd + 1);
    if (close < 0) break;
    const openTag = page.toString("latin1", at, tagEnd);
    if (!/\ssrc=/.test(openTag) && runsAsScript(openTag)) {
      const digest = createHash("sha256")
        .update(page.subarray(tagEnd + 1, close))
        .digest("base64");
      hashes.add(`'sha256-${digest}'`);
    }
    at = page.indexOf(SCRIPT_OPEN, close + SCRIPT_CLOSE.length);
  }
  return [...hashes];
}
