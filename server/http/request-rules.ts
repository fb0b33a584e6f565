import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";

/**
 * Rules every request meets before better-auth and React Router see it (docs/api.md "HTTP
 * rules"), so that a client's mistake gets a 4xx here instead of an exception further in.
 */

const isApi = (path: string) => path.toLowerCase().startsWith("/api/");

/** A 4xx in the form the caller reads: JSON under /api, a line of text for pages and forms. */
export function refuse(req: Request, res: Response, status: number, message: string): void {
  res.status(status);
  if (isApi(req.path)) res.json({ error: message });
  else res.type("text/plain").send(message);
}

// A host name (letters, digits, dots, hyphens, underscores for container names) or a bracketed
// IPv6 address, then an optional port. The classes exclude ':', so matching is linear.
const HOST = /^(?:[A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

function isUsableHost(host: string | undefined): boolean {
  if (host === undefined || !HOST.test(host)) return false;
  try {
    // The pattern admits what the URL parser still refuses (port 99999, "xn--"); ask it too.
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The request line, Host and body framing, checked before anything reads them. HTTP/1.0 allows a request
 * without Host, node:http passes any Host and any request target through, and React Router builds
 * its request URL from both, throwing on a malformed one. A missing or malformed Host, or a target
 * that is neither a path nor an absolute URL, is answered 400 here. An absolute-form target
 * (`GET http://host/path`, which HTTP/1.1 servers must accept) is reduced to its path and query:
 * absolute URLs are built from PUBLIC_URL, never from what a request names (docs/operations.md).
 * Returns true when it answered.
 */
export function refuseMalformedRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const host = req.headers.host;
  let problem = !isUsableHost(host)
    ? host === undefined
      ? "A Host header is required."
      : "The Host header is not a valid host name."
    : undefined;
  const bodied = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (!problem && (req.method === "GET" || req.method === "HEAD") && bodied) {
    // Nothing here reads such a body, and a GET left with an unread one stalled behind the static
    // files' look-up (the parser stopped reading while the body limit waited for its end).
    problem = `A ${req.method} request carries no body: send parameters in the query string.`;
  }
  const target = req.url ?? "";
  if (!problem && !target.startsWith("/") && !(target === "*" && req.method === "OPTIONS")) {
    const absolute = /^https?:\/\//i.test(target) ? URL.parse(target) : null;
    if (absolute) req.url = `${absolute.pathname}${absolute.search}`;
    else problem = "The request target must be a path such as /rv-storage.";
  }
  if (!problem && req.url?.includes("%00")) {
    // No address or query value of the site holds a NUL character, and PostgreSQL refuses one in
    // text, so a route parameter carrying it would fail in the database instead of here.
    problem = "The address contains a NUL character (%00), which no page or parameter takes.";
  }
  if (!problem && !decodablePath(req.url ?? "")) {
    // Routers decode the path to match it; a stray '%' or an escape that is not UTF-8 would make
    // them throw (a 500) instead of finding no page.
    problem = "The address has a '%' that is not a valid escape such as %20.";
  }
  if (!problem) return false;
  res.writeHead(400, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(problem);
  return true;
}

/** Whether the path of a request target decodes: every '%' starts an escape of UTF-8. */
function decodablePath(target: string): boolean {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if (!path.includes("%")) return true;
  try {
    // The result is used (a decoded path is never longer): the server build drops a call to
    // decodeURIComponent whose value is unused, and with it the exception this waits for.
    return decodeURIComponent(path).length <= path.length;
  } catch {
    return false;
  }
}

/** What the site answers: pages and forms (GET, HEAD, POST); nothing uses PUT, DELETE or PATCH. */
export const ALLOWED_METHODS = "GET, HEAD, POST";

/** 405 with Allow for any other method (TRACE among them); OPTIONS gets 204 with Allow. */
export function knownMethods(req: Request, res: Response, next: NextFunction): void {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return next();
  res.setHeader("Allow", ALLOWED_METHODS);
  if (req.method === "OPTIONS") {
    res.status(204).end();
    return;
  }
  refuse(req, res, 405, `${req.method} is not supported; use ${ALLOWED_METHODS}.`);
}

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * A POST to a page (and its `.data` twin) is a form submission: anything else is refused with
 * 415 before an action's `request.formData()` would throw on it. The JSON API under /api checks
 * its own content types.
 */
export function formsOnly(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== "POST" || isApi(req.path)) return next();
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (FORM_TYPES.has(type)) return next();
  refuse(
    req,
    res,
    415,
    "This page takes form submissions only: application/x-www-form-urlencoded or multipart/form-data.",
  );
}

/**
 * Every page shows the viewer (the header's account menu, the root loader's auth state), so a
 * shared cache must never keep one: a response that does not name its own Cache-Control gets
 * `private, no-store`. Public answers (robots.txt, sitemaps, place suggestions, photos) set theirs
 * and depend on no session.
 */
export function privateByDefault(_req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as unknown as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args) => {
    if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "private, no-store");
    return writeHead(...args);
  };
  next();
}
