import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, serve } from "../../tests/setup/http";
import { createFastPath } from "./fast-path";
import { createRequestIds } from "./request-id";

let port: number;
let close: () => Promise<void>;
const logged: unknown[][] = [];
let searches = 0;

beforeAll(async () => {
  const handleFastPath = createFastPath({
    search: (req, res) => {
      searches++;
      if (req.url?.includes("boom")) throw new Error("index exploded");
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    },
    log: { error: (...args: unknown[]) => logged.push(args) } as never,
  });
  ({ port, close } = await serve((req, res) => {
    if (!handleFastPath(req, res)) res.writeHead(404).end("express");
  }));
});
afterAll(() => close());

describe("the fast path", () => {
  it("answers GET and HEAD /api/search and leaves everything else to Express", async () => {
    expect((await send(port, { path: "/api/search?lat=1&lng=2" })).status).toBe(200);
    const before = searches;
    expect((await send(port, { method: "HEAD", path: "/api/search?lat=1&lng=2" })).status).toBe(200);
    expect(searches).toBe(before + 1);
    expect((await send(port, { path: "/api/searchx" })).body).toBe("express");
    expect((await send(port, { method: "POST", path: "/api/search" })).body).toBe("express");
  });

  it("turns an exception into a logged 500 JSON answer, and the server keeps serving", async () => {
    const answer = await send(port, { path: "/api/search?boom=1" });
    expect(answer.status).toBe(500);
    expect(answer.headers["content-type"]).toMatch(/application\/json/);
    const requestId = answer.headers["x-request-id"];
    expect(JSON.parse(answer.body)).toMatchObject({ error: "internal_error", requestId });
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toMatchObject({ requestId, url: "/api/search?boom=1" });
    expect((await send(port, { path: "/api/search?lat=1&lng=2" })).status).toBe(200);
  });

  it("makes its own request id whatever the client sends", async () => {
    for (const sent of ["FORGED-admin-action-0001", `x${"y".repeat(80)}`]) {
      const answer = await send(port, { path: "/api/search", headers: { "X-Request-Id": sent } });
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("logs a trusted proxy's request id beside its own, never in place of it", async () => {
    const seen: unknown[][] = [];
    const fromProxy = createFastPath({
      search: () => {
        throw new Error("index exploded");
      },
      log: { error: (...args: unknown[]) => seen.push(args) } as never,
      requestIds: createRequestIds(() => true),
    });
    const proxied = await serve((req, res) => void fromProxy(req, res));
    try {
      const answer = await send(proxied.port, { path: "/api/search", headers: { "X-Request-Id": "lb-1" } });
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen[0]![0]).toMatchObject({ requestId: answer.headers["x-request-id"], upstreamRequestId: "lb-1" });
    } finally {
      await proxied.close();
    }
  });

  it("answers a request without a usable Host with 400 before anything else", async () => {
    const before = searches;
    const answer = await send(port, { path: "/api/search?lat=1&lng=2", headers: { Host: "a b" } });
    expect(answer.status).toBe(400);
    expect(searches).toBe(before);
  });
});
