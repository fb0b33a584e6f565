import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { isbot } from "isbot";
import { EVENTS_ENDPOINT, INGEST_LIMITS } from "../../domain/analytics-types";
import { getViewer as getRequestViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { clientIp, createRateLimiter, tooManyRequests, type RateLimiter } from "../http/rate-limit";
import { siteOrigin } from "../http/origin";
import { logger } from "../logger";
import { ingestEvents, parseBatch } from "./ingest";

/**
 * POST /api/analytics/events: a JSON array of events, from fetch (application/json) or from
 * navigator.sendBeacon (text/plain). Answers 202 once the batch is committed. See docs/api.md.
 * Express answers the POST itself (`eventsRoute`, server/app.ts), ahead of React Router.
 */

const perMinute = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export interface EventsEndpointOptions {
  getViewer?: (request: Request) => Promise<{ sessionId: string | null; userId: string | null }>;
  getDatabase?: () => Database;
  siteOrigin?: (request: Request) => string;
  /** Batches per minute per sign-in session (default 60, ANALYTICS_RATE_PER_SESSION). */
  perSession?: RateLimiter;
  /** Batches per minute per client address (default 600, ANALYTICS_RATE_PER_IP). */
  perIp?: RateLimiter;
}

/**
 * With its length known, the compression middleware leaves an answer this small alone: without it,
 * it opened a deflate stream for every batch's few bytes (docs/decisions/022-analytics-write-path.md).
 */
function json(body: unknown, status: number, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status,
    headers: {
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(text)),
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

class BodyTooLarge extends Error {}

/** Reads the body up to `max` bytes, or throws BodyTooLarge. */
type ReadBody = (max: number) => Promise<string>;

async function readCapped(request: Request, max: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) throw new BodyTooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createEventsEndpoint(options: EventsEndpointOptions = {}) {
  const viewerOf = options.getViewer ?? rememberedViewer((request: Request) => getRequestViewer(request));
  const database = options.getDatabase ?? getDatabase;
  const originOf = options.siteOrigin ?? siteOrigin;
  const perSession =
    options.perSession ?? createRateLimiter({ windowMs: 60_000, max: perMinute("ANALYTICS_RATE_PER_SESSION", 60) });
  const perIp = options.perIp ?? createRateLimiter({ windowMs: 60_000, max: perMinute("ANALYTICS_RATE_PER_IP", 600) });

  /** `readBody` reads the body when it is not the Request's own (Express's stream, `eventsRoute`). */
  return async function handle(
    request: Request,
    readBody: ReadBody = (max) => readCapped(request, max),
  ): Promise<Response> {
    if (request.method !== "POST") return json({ error: "Use POST" }, 405, { Allow: "POST" });
    // Crawlers that run scripts are not visitors: accept and drop, so they do not retry.
    if (isbot(request.headers.get("user-agent") ?? "")) return json({ received: 0, stored: 0, ignored: "bot" }, 202);

    const address = clientIp(request);
    const ip = perIp.hit(address);
    if (!ip.ok) return tooManyRequests(ip.retryAfterSeconds, "Too many analytics batches from this address.");
    const viewer = await viewerOf(request);
    if (!viewer.sessionId) return json({ error: "A session is required to send analytics events." }, 401);
    const session = perSession.hit(viewer.sessionId);
    if (!session.ok) return tooManyRequests(session.retryAfterSeconds, "Too many analytics batches from this session.");

    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && type !== "text/plain") {
      return json({ error: "Send a JSON array as application/json or text/plain." }, 415);
    }
    let text: string;
    try {
      text = await readBody(INGEST_LIMITS.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return json({ error: `The body exceeds ${INGEST_LIMITS.maxBodyBytes} bytes.` }, 413);
      }
      throw error;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json({ error: "The body is not valid JSON." }, 400);
    }
    try {
      const events = parseBatch(body);
      const result = await ingestEvents(database(), events, {
        authSessionId: viewer.sessionId,
        userId: viewer.userId,
        siteOrigin: originOf(request),
        clientIp: address,
      });
      return json(result, 202);
    } catch (error) {
      if (error instanceof AppError) {
        const retry = error.status === 503 ? { "Retry-After": "2" } : undefined;
        return json({ error: error.message, ...error.details }, error.status, retry);
      }
      logger.error({ err: error }, "analytics batch could not be stored");
      return json({ error: "The events could not be stored; retry later." }, 503, { "Retry-After": "2" });
    }
  };
}

type Viewer = { sessionId: string | null; userId: string | null };

/** How long the session of a Cookie header is remembered, and for how many headers at most. */
const VIEWER_TTL_MS = 30_000;
const VIEWERS_REMEMBERED = 20_000;

/**
 * The viewer of a request's Cookie header, remembered for 30 s (keyed by its hash). Reading it
 * (better-auth checks two HMAC signatures and decodes the session cookie) cost more of the server's
 * CPU than reading and checking the 50 events of a batch, and a tab sends all its batches with the
 * same cookies. A session ended elsewhere can go on sending analytics events for up to those 30 s,
 * as it can within better-auth's own 60 s cookie cache; a sign-out in the tab changes its cookies.
 */
export function rememberedViewer(
  read: (request: Request) => Promise<Viewer>,
  { ttlMs = VIEWER_TTL_MS, max = VIEWERS_REMEMBERED, now = Date.now } = {},
): (request: Request) => Promise<Viewer> {
  const remembered = new Map<string, { viewer: Promise<Viewer>; until: number }>();
  return (request) => {
    const cookie = request.headers.get("cookie");
    if (!cookie) return read(request);
    const key = createHash("sha256").update(cookie).digest("base64");
    const at = now();
    const known = remembered.get(key);
    if (known && known.until > at) return known.viewer;
    remembered.delete(key);
    if (remembered.size >= max) remembered.delete(remembered.keys().next().value!);
    const viewer = read(request);
    remembered.set(key, { viewer, until: at + ttlMs });
    // Only a session is remembered: no session may be a failed read (server/auth/viewer.ts).
    const forget = () => {
      if (remembered.get(key)?.viewer === viewer) remembered.delete(key);
    };
    void viewer.then((found) => !found.sessionId && forget(), forget);
    return viewer;
  };
}

let defaultEndpoint: ReturnType<typeof createEventsEndpoint> | undefined;
export function handleEventsRequest(request: Request): Promise<Response> {
  defaultEndpoint ??= createEventsEndpoint();
  return defaultEndpoint(request);
}

/** The body of a request Express has not read, up to `max` bytes (server/http/body-limit.ts caps it first). */
function readStream(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error) => {
      req.off("data", onData);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) stop(new BodyTooLarge());
      else chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
    req.once("close", () => {
      if (!req.readableEnded) reject(new Error("the request was closed before its body arrived"));
    });
  });
}

/**
 * The POST route Express answers ahead of React Router (server/app.ts): the same endpoint, without
 * React Router's request and response streams, route matching and middleware pipeline, which cost
 * more CPU than storing the batch (docs/decisions/022-analytics-write-path.md). Express's
 * middleware (request id and log, security headers, body cap, origin check) has run before it.
 */
export function eventsRoute(endpoint?: ReturnType<typeof createEventsEndpoint>): RequestHandler {
  return (req, res, next) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (value) for (const item of value) headers.append(name, item);
    }
    // Nothing reads its URL: the site's origin comes from the configuration (server/http/origin.ts).
    const request = new Request(`http://localhost${EVENTS_ENDPOINT}`, { method: req.method, headers });
    defaultEndpoint ??= createEventsEndpoint();
    (endpoint ?? defaultEndpoint)(request, (max) => readStream(req, max))
      .then(async (response) => {
        res.status(response.status);
        response.headers.forEach((value, name) => res.setHeader(name, value));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(next);
  };
}
