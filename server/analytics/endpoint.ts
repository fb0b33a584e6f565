import { isbot } from "isbot";
import { INGEST_LIMITS } from "../../app/analytics/types";
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

const json = (body: unknown, status: number, headers?: HeadersInit) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

class BodyTooLarge extends Error {}

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
  const viewerOf = options.getViewer ?? ((request: Request) => getRequestViewer(request));
  const database = options.getDatabase ?? getDatabase;
  const originOf = options.siteOrigin ?? siteOrigin;
  const perSession =
    options.perSession ?? createRateLimiter({ windowMs: 60_000, max: perMinute("ANALYTICS_RATE_PER_SESSION", 60) });
  const perIp = options.perIp ?? createRateLimiter({ windowMs: 60_000, max: perMinute("ANALYTICS_RATE_PER_IP", 600) });

  return async function handle(request: Request): Promise<Response> {
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
      text = await readCapped(request, INGEST_LIMITS.maxBodyBytes);
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

let defaultEndpoint: ReturnType<typeof createEventsEndpoint> | undefined;
export function handleEventsRequest(request: Request): Promise<Response> {
  defaultEndpoint ??= createEventsEndpoint();
  return defaultEndpoint(request);
}
