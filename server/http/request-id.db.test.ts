import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { send, serve } from "../../tests/setup/http";
import { SYSTEM_ACTOR, recordAudit } from "../audit/record";
import type { DatabaseHandle } from "../db/client";
import { auditLog } from "../db/schema";
import { requestContext, requestIdContext } from "./request-context";
import { createRequestIds, requestIdMiddleware, trustedPeerOf } from "./request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FORGED = "FORGED-admin-action-0001";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/**
 * The path of a console write's request id, as server/app.ts wires it: the middleware, the router
 * context the route reads, and the audit row. `trustProxy` is what Express compiles TRUST_PROXY into.
 */
async function auditedWrite(
  options: { trustRequestId: boolean; trustProxy?: string },
  headers: Record<string, string>,
) {
  const app = express();
  if (options.trustProxy) app.set("trust proxy", options.trustProxy);
  const requestIds = createRequestIds(trustedPeerOf(options.trustRequestId, app.get("trust proxy fn")));
  const subject = `listing-${Math.random().toString(36).slice(2)}`;
  let upstream: unknown;
  app.use(requestIdMiddleware(requestIds));
  app.post("/admin/action", async (_req, res) => {
    upstream = res.locals.upstreamRequestId;
    const context = requestContext({ requestId: String(res.locals.requestId), nonce: "n" });
    await recordAudit(handle.db, {
      actor: SYSTEM_ACTOR,
      action: "listing.update",
      subject: { type: "listing", id: subject },
      requestId: context.get(requestIdContext),
    });
    res.status(204).end();
  });
  const server = await serve(app);
  try {
    const answer = await send(server.port, { method: "POST", path: "/admin/action", headers });
    const [row] = await handle.db.select().from(auditLog).where(eq(auditLog.subjectId, subject));
    return { header: answer.headers["x-request-id"], stored: row?.requestId, upstream };
  } finally {
    await server.close();
  }
}

describe("the request id in the audit trail", () => {
  it("is always ours: a client's X-Request-Id is neither stored nor echoed", async () => {
    const { header, stored, upstream } = await auditedWrite({ trustRequestId: false }, { "X-Request-Id": FORGED });
    expect(stored).toMatch(UUID);
    expect(header).toBe(stored);
    expect(upstream).toBeUndefined();
  });

  it("ignores X-Request-Id with TRUST_PROXY_REQUEST_ID on when the peer is not a trusted proxy", async () => {
    for (const trustProxy of [undefined, "10.0.0.0/8"]) {
      const { stored, upstream } = await auditedWrite({ trustRequestId: true, trustProxy }, { "X-Request-Id": FORGED });
      expect(stored).toMatch(UUID);
      expect(upstream).toBeUndefined();
    }
  });

  it("keeps a trusted proxy's id apart, for the log, and still stores ours", async () => {
    const trusted = await auditedWrite(
      { trustRequestId: true, trustProxy: "loopback" },
      { "X-Request-Id": "lb-7f3a.1" },
    );
    expect(trusted.stored).toMatch(UUID);
    expect(trusted.header).toBe(trusted.stored);
    expect(trusted.upstream).toBe("lb-7f3a.1");
    // Even from the proxy, only a short token reaches a log line.
    const long = await auditedWrite({ trustRequestId: true, trustProxy: "loopback" }, { "X-Request-Id": "x\ty" });
    expect(long.upstream).toBeUndefined();
    // Trusting the proxy for addresses alone does not admit its ids.
    const off = await auditedWrite({ trustRequestId: false, trustProxy: "loopback" }, { "X-Request-Id": "lb-7f3a.1" });
    expect(off.upstream).toBeUndefined();
  });
});
