import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";

/**
 * Every request gets an id of ours: it names the request in logs, answers (`X-Request-Id`) and the
 * audit trail, so no client may choose it (a forged one could pin a console write on somebody's
 * request). A proxy's own id is kept apart, as `upstreamRequestId` in the log lines, and only when
 * TRUST_PROXY_REQUEST_ID is on and the connection comes from a proxy TRUST_PROXY trusts
 * (docs/operations.md, "Configuration").
 */
export interface RequestIds {
  requestId: string;
  upstreamRequestId?: string;
}

/** A short token only, so that a log line cannot be forged or bloated through it. */
const UPSTREAM_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Whether the nearest hop (the socket's peer) is a proxy we trust; null when no proxy is. */
export type TrustedPeer = ((address: string | undefined) => boolean) | null;

export function createRequestIds(trustedPeer: TrustedPeer = null): (req: IncomingMessage) => RequestIds {
  return (req) => {
    const requestId = randomUUID();
    const header = req.headers["x-request-id"];
    if (!trustedPeer || typeof header !== "string" || !UPSTREAM_ID.test(header)) return { requestId };
    return trustedPeer(req.socket.remoteAddress) ? { requestId, upstreamRequestId: header } : { requestId };
  };
}

/**
 * The trusted peer test from Express's compiled `trust proxy` (server/app.ts): hop 0 is the
 * socket's peer. Off unless TRUST_PROXY_REQUEST_ID is set.
 */
export function trustedPeerOf(
  enabled: boolean,
  trustProxy: ((address: string, hop: number) => boolean) | undefined,
): TrustedPeer {
  if (!enabled || !trustProxy) return null;
  return (address) => address !== undefined && trustProxy(address, 0);
}

/** Express middleware: `res.locals.requestId` (ours), `res.locals.upstreamRequestId`, and the answer's header. */
export function requestIdMiddleware(requestIds: (req: IncomingMessage) => RequestIds) {
  return (req: Request, res: Response, next: NextFunction) => {
    const ids = requestIds(req);
    res.locals.requestId = ids.requestId;
    res.locals.upstreamRequestId = ids.upstreamRequestId;
    res.setHeader("X-Request-Id", ids.requestId);
    next();
  };
}
