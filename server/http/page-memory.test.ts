import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { send, serve } from "../../tests/setup/http";
import { createPageMemory, type PageMemory } from "./page-memory";

let rendered = 0;
let version = 1;
let clock = 1_000_000;
let memory: PageMemory;
let port: number;
let close: () => Promise<void>;

/** A site whose pages say how many renders there have been, compressed as server.js does. */
function site(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.method === "POST") {
    res.writeHead(303, { location: "/" }).end();
    return;
  }
  rendered++;
  const url = req.url ?? "";
  const page = Buffer.from(`<p>render ${rendered} of ${url}</p>`.padEnd(2000, " "));
  const headers: http.OutgoingHttpHeaders = {
    "content-type": "text/html",
    "x-request-id": `render-${rendered}`,
    "cache-control": url.includes("private") ? "private, no-store" : "public, max-age=0, s-maxage=60",
    vary: "Accept-Encoding",
  };
  if (url.includes("cookie")) headers["set-cookie"] = "a=1";
  // A page whose rendering outlasts its time (the clock moves on while it is made).
  if (url.startsWith("/location/slow")) clock += 61_000;
  if (url.startsWith("/location/big")) {
    res.writeHead(200, headers);
    res.end(Buffer.alloc(2400, 65));
    return;
  }
  if ((req.headers["accept-encoding"] ?? "").includes("gzip")) {
    res.writeHead(200, { ...headers, "content-encoding": "gzip" });
    // In two writes, as a compressor sends them.
    const body = zlib.gzipSync(page);
    res.write(body.subarray(0, 10));
    res.end(body.subarray(10));
    return;
  }
  res.writeHead(200, headers);
  res.end(page);
}

beforeAll(async () => {
  ({ port, close } = await serve((req, res) => {
    if (!memory.handle(req, res, () => "kept")) site(req, res);
  }));
});
afterAll(() => close());
beforeEach(() => {
  memory = createPageMemory({ seconds: 60, maxBytes: 20_000, version: () => version, now: () => clock });
});

const get = (path: string, headers: Record<string, string> = {}) => send(port, { path, headers });
const renders = async (path: string, headers: Record<string, string> = {}) => {
  const before = rendered;
  const answer = await get(path, headers);
  return { rendered: rendered - before, answer };
};

describe("public pages served from memory", () => {
  it("sends a public page again with its own request id, per address and Accept-Encoding", async () => {
    expect((await renders("/location/a")).rendered).toBe(1);
    const again = await renders("/location/a");
    expect(again.rendered).toBe(0);
    expect(again.answer.headers["x-request-id"]).toBe("kept");
    expect(again.answer.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    expect(again.answer.body).toContain("of /location/a");
    expect((await renders("/location/a?page=2")).rendered).toBe(1);
    // The compressed bytes are kept whole and sent with their encoding.
    expect((await renders("/location/a", { "accept-encoding": "gzip" })).rendered).toBe(1);
    const zipped = await new Promise<{ encoding: string | undefined; text: string }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/location/a", headers: { "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              encoding: res.headers["content-encoding"],
              text: zlib.gunzipSync(Buffer.concat(chunks)).toString(),
            }),
          );
        })
        .on("error", reject);
    });
    expect(zipped.encoding).toBe("gzip");
    expect(zipped.text).toContain("of /location/a");
    expect(memory.size.pages).toBe(3);
  });

  it("keeps nothing for a personal cookie, a private answer, a cookie set, or another path", async () => {
    for (const [path, headers] of [
      ["/location/a", { cookie: "rvs_account=1" }],
      ["/location/private", {}],
      ["/location/cookie", {}],
      ["/login", {}],
      ["/owner", {}],
    ] as const) {
      expect((await renders(path, headers)).rendered, path).toBe(1);
      expect((await renders(path, headers)).rendered, path).toBe(1);
    }
    // A session alone is anybody's.
    await renders("/location/b", { cookie: "rvs.session_token=x" });
    expect((await renders("/location/b")).rendered).toBe(0);
  });

  it("forgets pages when the catalogue changes, when their time is up, and after a POST that changes pages", async () => {
    await renders("/");
    version++;
    expect((await renders("/")).rendered).toBe(1);
    clock += 59_000;
    expect((await renders("/")).rendered).toBe(0);
    clock += 2_000;
    expect((await renders("/")).rendered).toBe(1);
    await send(port, { method: "POST", path: "/api/analytics/events" });
    expect((await renders("/")).rendered).toBe(0);
    await send(port, { method: "POST", path: "/owner/reviews" });
    expect((await renders("/")).rendered).toBe(1);
  });

  it("counts a page's time from its request, not from when it was sent", async () => {
    expect((await renders("/location/slow")).rendered).toBe(1);
    // Made 61 s ago by the clock that decides: already too old to send again.
    expect((await renders("/location/slow")).rendered).toBe(1);
  });

  it("renders again for the shared cache's refresh, and keeps the new page", async () => {
    await renders("/about");
    const refreshed = await renders("/about", { "x-cache-purge": "token" });
    expect(refreshed.rendered).toBe(1);
    const next = await renders("/about");
    expect(next.rendered).toBe(0);
    expect(next.answer.body).toBe(refreshed.answer.body);
    // As nginx passes it on (it keeps the token to itself).
    expect((await renders("/about", { "x-cache-refresh": "1" })).rendered).toBe(1);
    expect((await renders("/about", { "x-cache-refresh": "0" })).rendered).toBe(0);
  });

  it("answers HEAD from a kept page without its body", async () => {
    await renders("/blog");
    const head = await send(port, { method: "HEAD", path: "/blog" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(String(2000));
  });

  it("keeps at most its bytes, letting the least recently sent go first", async () => {
    for (let n = 1; n <= 10; n++) await renders(`/location/big-${n}`);
    expect(memory.size.bytes).toBeLessThanOrEqual(20_000);
    expect((await renders("/location/big-10")).rendered).toBe(0);
    expect((await renders("/location/big-1")).rendered).toBe(1);
  });
});
