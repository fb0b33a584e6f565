import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "../config";

/**
 * Security headers for every response, and the origin check for every state-changing request.
 *
 * The Content-Security-Policy allows scripts only from this origin plus the inline bootstrap
 * scripts React Router renders, which carry this response's nonce, or, on a page a shared cache
 * may keep (server/http/shared-cache.ts), are named by their hashes: no 'unsafe-inline' scripts.
 * Styles may be inline (Leaflet positions tiles and markers with style attributes). Images may
 * come from the map tile host. Framing is refused everywhere.
 */
export function tileOrigins(tileUrl: string): string[] {
  try {
    // Only the origin matters, so placeholders after the host are cut off rather than replaced
    // (a split stays linear on any setting). {s} subdomain templates become a wildcard host.
    const [scheme = "", rest = ""] = tileUrl.split("//", 2);
    const authority = rest.split("/", 1)[0] ?? "";
    const url = new URL(`${scheme}//${authority.replace("{s}", "__s__")}`);
    const host = url.host.replace("__s__", "*");
    return [`${url.protocol}//${host}`];
  } catch {
    return [];
  }
}

/**
 * The policy of a page whose inline scripts are allowed by `scripts`: `'nonce-…'` for this
 * response's nonce, or the `'sha256-…'` hashes of a shared page's scripts.
 */
export function contentSecurityPolicy(
  scripts: readonly string[],
  config: Pick<Config, "MAP_TILE_URL" | "PUBLIC_URL">,
): string {
  const https = config.PUBLIC_URL?.startsWith("https://") ?? false;
  const directives = [
    "default-src 'self'",
    ["script-src 'self'", ...scripts].join(" "),
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...tileOrigins(config.MAP_TILE_URL)].join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Whether pages carry a Content-Security-Policy: Vite's development server injects inline scripts of its own. */
export function withContentSecurityPolicy(config: Pick<Config, "NODE_ENV">): boolean {
  return config.NODE_ENV !== "development";
}

export function securityHeaders(config: Pick<Config, "MAP_TILE_URL" | "PUBLIC_URL" | "NODE_ENV">) {
  const https = config.PUBLIC_URL?.startsWith("https://") ?? false;
  const withCsp = withContentSecurityPolicy(config);
  return (_req: Request, res: Response, next: NextFunction) => {
    // A page a shared cache may keep is the same for every visitor, so it has no nonce: the page
    // renderer names its scripts' hashes in the policy instead (app/entry.server.tsx).
    if (res.locals.sharedCache === true) {
      res.locals.nonce = "";
    } else {
      const nonce = randomBytes(16).toString("base64");
      res.locals.nonce = nonce;
      if (withCsp) res.setHeader("Content-Security-Policy", contentSecurityPolicy([`'nonce-${nonce}'`], config));
    }
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=()");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * For the static files server.js serves ahead of the app: only what matters for a script or
 * stylesheet. The policy headers (CSP and the rest, ~600 bytes) would add ~10 kB of uncompressed
 * headers to a page's cold load for nothing, since they only take effect on documents.
 */
export function staticFileHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request sent by another site's page (CSRF): its Origin must be this
 * site's (the request's own host, or PUBLIC_URL). Browsers send Origin on every POST; when it is
 * missing, Sec-Fetch-Site decides. Clients that send neither (curl, server jobs) carry no
 * browser cookies to abuse and pass.
 */
export function originCheck(config: Pick<Config, "PUBLIC_URL">) {
  const publicOrigin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host") ?? ""}`;
    const sameSite = origin
      ? origin === ownOrigin || origin === publicOrigin
      : (req.get("sec-fetch-site") ?? "same-origin") !== "cross-site";
    if (sameSite) return next();
    res.status(403).json({ error: "Cross-site request refused: this form must be sent from this site's own pages." });
  };
}
