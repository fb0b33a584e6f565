import { fromNodeHeaders, toNodeHandler } from "better-auth/node";
import type { NextFunction, Request, Response } from "express";
import { isbot } from "isbot";
import type { Database } from "../db/client";
import { createRateLimiter } from "../http/rate-limit";
import { createSharedRateLimiter, localRateLimiter, type SharedRateLimiter } from "../http/shared-rate-limit";
import { getAuth } from "./auth";

/**
 * The part of better-auth's HTTP API the browser uses, mounted at /api/auth. Everything else it
 * offers (email sign-in and sign-up, admin endpoints) is reached only through our own form
 * actions and services, which validate, rate-limit and answer in the product's words; those paths
 * answer 404 here.
 */
export const AUTH_HTTP_ENDPOINTS = [
  { method: "GET", path: "/api/auth/get-session" },
  { method: "POST", path: "/api/auth/sign-in/anonymous" },
  { method: "POST", path: "/api/auth/sign-out" },
] as const;

const allowed = new Set(AUTH_HTTP_ENDPOINTS.map((e) => `${e.method} ${e.path}`));
/** Anonymous sessions per IP: generous for shared addresses, a wall for a script. */
export const ANONYMOUS_PER_IP = { name: "anonymous-ip", windowMs: 10 * 60_000, max: 30 } as const;
let anonymousPerIp: SharedRateLimiter = localRateLimiter(createRateLimiter(ANONYMOUS_PER_IP));

/** Counts new anonymous sessions in the database, across every instance (server/app.ts boot). */
export function shareAnonymousLimit(db: Database): void {
  anonymousPerIp = createSharedRateLimiter(db, ANONYMOUS_PER_IP);
}

/** Drops every field whose name mentions a token, at any depth of a JSON value. */
export function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !/token/i.test(key))
        .map(([key, inner]) => [key, withoutTokens(inner)]),
    );
  }
  return value;
}

/**
 * better-auth answers get-session and anonymous sign-in with the session token in the JSON as
 * well as in the cookie. The cookie is HttpOnly so that a script on the page (an injected one
 * included) cannot read the token; a copy in the body would undo that, so it is removed.
 */
async function redactTokens(response: globalThis.Response): Promise<globalThis.Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new globalThis.Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new globalThis.Response(JSON.stringify(withoutTokens(body)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

export function authHttpHandler() {
  let handler: ReturnType<typeof toNodeHandler> | undefined;
  const forward = (req: Request, res: Response) => {
    handler ??= toNodeHandler(async (request: globalThis.Request) => redactTokens(await getAuth().handler(request)));
    // better-auth's adapter builds its request URL from X-Forwarded-Proto as sent, so a garbled
    // one ("j,") threw. Express already read it, trusting it only behind TRUST_PROXY: pass that.
    req.headers["x-forwarded-proto"] = req.protocol;
    return handler(req, res);
  };
  /** Limited per address; a signed-in person keeps their session (an anonymous one must not replace it). */
  const startAnonymousSession = async (req: Request, res: Response) => {
    const limit = await anonymousPerIp.hit(req.ip ?? "unknown");
    if (!limit.ok) {
      res.setHeader("Retry-After", String(limit.retryAfterSeconds));
      res.status(429).json({ error: "Too many new sessions from this address. Please try again later." });
      return;
    }
    const current = await getAuth().api.getSession({ headers: fromNodeHeaders(req.headers) });
    if (current && !current.user.isAnonymous) {
      res.status(400).json({ error: "You are already signed in." });
      return;
    }
    await forward(req, res);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path.replace(/\/$/, "");
    if (!allowed.has(`${req.method === "HEAD" ? "GET" : req.method} ${path}`)) {
      res.status(404).json({ error: `No such endpoint: ${req.method} ${path}` });
      return;
    }
    if (path === "/api/auth/sign-in/anonymous") {
      const agent = req.get("user-agent") ?? "";
      if (!agent || isbot(agent)) {
        res.status(403).json({ error: "Automated clients do not get a session." });
        return;
      }
      void startAnonymousSession(req, res).catch(next);
      return;
    }
    forward(req, res).catch(next);
  };
}
