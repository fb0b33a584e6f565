import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "../logger";
import { searchRequestHandler } from "../search";
import type { PageMemory } from "./page-memory";
import { createRequestIds, type RequestIds } from "./request-id";
import { refuseMalformedRequest } from "./request-rules";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Requests answered before Express sees them (server.js calls this first for every request).
 * GET (and HEAD) /api/search is the hot path of every results page and filter preview: it is served from a
 * per-index answer cache straight onto node:http, skipping Express's routing and React Router's
 * fetch Request/Response round trip (ADR 005). Since nothing else guards this path, it checks the
 * Host header for everyone, carries a request id of ours, and turns an exception into a logged 500
 * instead of a crashed process. A public page kept in memory (server/http/page-memory.ts) is sent
 * from here too. Returns false for every request it leaves to Express.
 */
export function createFastPath({
  search = searchRequestHandler,
  log = logger,
  requestIds = createRequestIds(),
  pages,
}: {
  search?: Handler;
  /** Public pages served from memory (server/http/page-memory.ts); none in development. */
  pages?: PageMemory;
  log?: Pick<typeof logger, "error">;
  /** Ours for every request; a trusted proxy's id only beside it (server/http/request-id.ts). */
  requestIds?: (req: IncomingMessage) => RequestIds;
} = {}) {
  return function handleFastPath(req: IncomingMessage, res: ServerResponse): boolean {
    if (refuseMalformedRequest(req, res)) return true;
    if (pages?.handle(req, res, () => requestIds(req).requestId)) return true;
    const url = req.url ?? "";
    if ((req.method !== "GET" && req.method !== "HEAD") || !(url === "/api/search" || url.startsWith("/api/search?")))
      return false;
    const { requestId, upstreamRequestId } = requestIds(req);
    res.setHeader("X-Request-Id", requestId);
    try {
      search(req, res);
    } catch (error) {
      log.error({ err: error, requestId, upstreamRequestId, url }, "GET /api/search failed");
      if (!res.headersSent) {
        res.writeHead(500, {
          "Content-Type": "application/json; charset=utf-8",
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-store",
        });
      }
      res.end(JSON.stringify({ error: "internal_error", message: "The search failed on our side.", requestId }));
    }
    return true;
  };
}
