/**
 * The reference nginx configuration (deploy/nginx/nginx.conf.template), run by startCachingProxy in
 * front of small Node servers that answer as the site's contract says (issue 37): public pages
 * `public, max-age=0, s-maxage=60, stale-while-revalidate=300` with `Vary: Accept-Encoding`,
 * everything else `private, no-store`. Needs nginx: `npm test` installs it first
 * (scripts/ensure-nginx.ts); run alone without it, this file is skipped with a message, except on
 * CI, where it fails.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONAL_COOKIES, carriesPersonalCookie, isSharedCachePath } from "../../server/http/shared-cache";
import { NGINX_PATH } from "./debian-package";
import {
  CACHED_ENCODINGS,
  PURGE_HEADER,
  checkPurgeToken,
  parseAccessLog,
  renderConfig,
  startCachingProxy,
  type CachingProxy,
} from "./caching-proxy";

const TOKEN = "5f0c6b2a9e8d4c7b1a3f2e6d9c8b7a60";
const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

const haveNginx = fs.existsSync(NGINX_PATH);
if (!haveNginx && !process.env.CI)
  console.warn(
    `caching-proxy.test.ts skipped: no nginx at ${NGINX_PATH} (npx tsx scripts/ensure-nginx.ts installs it)`,
  );
const describeNginx = haveNginx || process.env.CI ? describe : describe.skip;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  httpVersion: string;
  bodyBytes: number;
}

/**
 * An upstream that answers every path as a shared page (unless the request is personal, by the
 * site's own rule), /assets/ and /place-images/ as immutable files, and as a query's `as=` says
 * otherwise: `private`, `short` (s-maxage=1) or `cookie` (shareable but setting a cookie). The body
 * names the address, how many requests the server has answered and the Accept-Encoding it was sent.
 */
async function startUpstream(name = "a") {
  const seen: Seen[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, httpVersion: req.httpVersion, bodyBytes });
      const url = new URL(req.url!, "http://upstream");
      const immutable = /^\/(assets|place-images)\//.test(url.pathname);
      const kind = immutable ? "immutable" : (url.searchParams.get("as") ?? "public");
      // The site's own rule (server/http/shared-cache.ts): what nginx bypasses must match it.
      const personal = carriesPersonalCookie(req.headers.cookie);
      let control = "private, no-store";
      if ((kind === "public" || kind === "cookie") && !personal) control = PUBLIC;
      if (kind === "short" && !personal) control = "public, max-age=0, s-maxage=1, stale-while-revalidate=300";
      if (kind === "immutable") control = "public, max-age=31536000, immutable";
      res.setHeader("Cache-Control", control);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Content-Type", "text/plain");
      if (kind === "cookie") res.setHeader("Set-Cookie", "visited=1; Path=/");
      res.end(`${name} ${req.url} #${seen.length} enc=${req.headers["accept-encoding"] ?? ""}`);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    connections: () => connections,
    /** Requests the server received for a path. */
    count: (url: string) => seen.filter((s) => s.url === url).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
type Upstream = Awaited<ReturnType<typeof startUpstream>>;

interface Answer {
  status: number;
  cache: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with exactly these headers (fetch would add an Accept-Encoding of its own). */
function request(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  { method = "GET", body }: { method?: string; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${target}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          cache: String(res.headers["x-cache-status"] ?? ""),
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Polls `probe` until `done` says yes, at most `ms`; returns the last answer. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a process runs (a zombie, left for a parent that does not reap it, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return false;
  }
}

describe("renderConfig and checkPurgeToken", () => {
  it("replaces every placeholder and refuses a template with one it does not know", () => {
    const values = Object.fromEntries(
      ["USER_DIRECTIVE", "WORKER_PROCESSES", "PID_FILE", "ERROR_LOG", "TEMP_DIR", "ACCESS_LOG", "CACHE_DIR"]
        .concat(["UPSTREAM_SERVERS", "LISTEN", "SERVER_NAME", "PUBLIC_URL", "CACHE_PURGE_TOKEN"])
        .map((name) => [name, `<${name}>`]),
    ) as Parameters<typeof renderConfig>[0];
    const text = renderConfig(values);
    expect(text).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(text).toContain('"<CACHE_PURGE_TOKEN>" 1;');
    expect(text).toContain('proxy_cache_key "<PUBLIC_URL>$request_uri|$rvs_encoding";');
    expect(() => renderConfig(values, "x {{SOMETHING_NEW}} y")).toThrow(/\{\{SOMETHING_NEW\}\}/);
  });

  it("takes a token nginx can hold in quotes, and nothing shorter than 16 characters", () => {
    expect(() => checkPurgeToken(TOKEN)).not.toThrow();
    expect(() => checkPurgeToken("short")).toThrow(/16 to 200/);
    expect(() => checkPurgeToken('0123456789abcdef"; x')).toThrow();
    expect(() => checkPurgeToken("0123456789abcdef$host")).toThrow(/'\$'/);
    expect(() => checkPurgeToken("~0123456789abcdef")).toThrow(/'~'/);
  });
});

describeNginx("startCachingProxy", () => {
  let upstream: Upstream;
  let proxy: CachingProxy;
  let dir: string;
  let base: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-nginx-test-"));
    proxy = await startCachingProxy({ upstreams: [upstream.url], purgeToken: TOKEN, dir, workerProcesses: 1 });
    base = proxy.url;
  });
  afterAll(async () => {
    await proxy?.stop();
    await upstream?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers the second request for a public page from the cache", async () => {
    const first = await request(base, "/location/home");
    const second = await request(base, "/location/home");
    expect([first.status, first.cache, second.status, second.cache]).toEqual([200, "MISS", 200, "HIT"]);
    expect(second.body).toBe(first.body);
    expect(upstream.count("/location/home")).toBe(1);
    // The site's headers reach the client unchanged; browsers keep nothing (max-age=0).
    expect(second.headers["cache-control"]).toBe(PUBLIC);
    expect(second.headers.vary).toBe("Accept-Encoding");
    // A HEAD is answered from the same entry.
    expect((await request(base, "/location/home", {}, { method: "HEAD" })).cache).toBe("HIT");
  });

  it.each([
    ...PERSONAL_COOKIES.map((name) => `${name}=1`),
    "theme=dark; my_rv=40_13",
    "a=1;flash=2",
    "rvs.session_token=abc; rvs_account=1; b=2",
    "flash",
    "__Host-flash =x",
  ])("passes a request with the personal cookie %j on, and stores nothing of it", async (cookie) => {
    const target = `/location/personal-${encodeURIComponent(cookie)}`;
    const personal = await request(base, target, { cookie });
    expect(personal.cache).toBe("BYPASS");
    expect(personal.headers["cache-control"]).toBe("private, no-store");
    // Not stored: the next anonymous request is a miss, then a hit.
    expect((await request(base, target)).cache).toBe("MISS");
    expect((await request(base, target)).cache).toBe("HIT");
    // And a cached page is not handed to it.
    const again = await request(base, target, { cookie });
    expect(again.cache).toBe("BYPASS");
    expect(upstream.count(target)).toBe(3);
    expect(upstream.seen.filter((s) => s.url === target).map((s) => s.headers.cookie ?? null)).toEqual([
      cookie,
      null,
      cookie,
    ]);
  });

  it.each([
    // Every visitor has an anonymous session: the session cookies must not keep pages out.
    "rvs.session_token=abc.def",
    "__Secure-rvs.session_token=abc; __Secure-rvs.session_data=x",
    "theme=dark",
    "xmy_rv=1",
    "flashy=1",
    "rvs_accounts=1",
    "myflash=1; a=b",
    "x=my_rv=1",
  ])("answers a request whose cookie %j is not personal from the cache", async (cookie) => {
    const target = `/location/anonymous-${encodeURIComponent(cookie)}`;
    expect((await request(base, target)).cache).toBe("MISS");
    expect((await request(base, target, { cookie })).cache).toBe("HIT");
  });

  it("bypasses exactly the Cookie headers the site calls personal", async () => {
    await request(base, "/location/property");
    const names = [...PERSONAL_COOKIES, "rvs.session_token", "flashy", "xflash", "my_rv_x", "rvs_account2", "theme"];
    const cookie = fc
      .record({
        name: fc.constantFrom(...names),
        value: fc.option(fc.constantFrom("1", "a=b", "flash", "my_rv=1", ""), { nil: undefined }),
        before: fc.constantFrom("", " ", "  ", "\t"),
        after: fc.constantFrom("", " "),
      })
      .map(({ name, value, before, after }) => `${before}${name}${after}${value === undefined ? "" : `=${value}`}`);
    const header = fc.tuple(fc.array(cookie, { minLength: 1, maxLength: 4 }), fc.constantFrom(";", "; "));
    await fc.assert(
      fc.asyncProperty(header, async ([cookies, separator]) => {
        const value = cookies.join(separator);
        const answer = await request(base, "/location/property", { cookie: value });
        expect(answer.cache).toBe(carriesPersonalCookie(value) ? "BYPASS" : "HIT");
      }),
      { numRuns: 150 },
    );
  });

  // Pages by isSharedCachePath, then the public APIs and files the site marks "public, max-age".
  const SHAREABLE_PAGES = [
    "/",
    "/_root.data",
    "/about",
    "/about.data",
    "/rv-storage",
    "/rv-storage/tx",
    "/rv-storage/austin-tx.data",
    "/blog",
    "/blog/prepare-rv-for-winter-storage-checklist",
    "/blog/rss.xml",
    "/location/some-place-tx",
    "/location/some-place-tx.data",
    "/sitemap.xml",
    "/sitemaps/listings-1.xml",
  ];
  const SHAREABLE_OTHERS = [
    "/api/search",
    "/api/places/suggest",
    "/api/places/reverse",
    "/robots.txt",
    "/map/us-states.json",
  ];
  const NEVER_SHARED = [
    "/api/session",
    "/api/saved",
    "/location/some-place-tx/review",
    "/location",
    "/sitemaps",
    "/about/team",
    "/rv-storage/tx/austin",
    "/owner",
    "/owner/listings",
    "/admin",
    "/api",
    "/sign-in",
    "/favicon.svg",
  ];

  it("looks in its cache only for the paths the site may share, as isSharedCachePath says", async () => {
    for (const path of [...SHAREABLE_PAGES, ...NEVER_SHARED])
      expect(isSharedCachePath(path), path).toBe(SHAREABLE_PAGES.includes(path));
    for (const path of [...SHAREABLE_PAGES, ...SHAREABLE_OTHERS]) {
      const target = `${path}?shareable`;
      expect([path, (await request(base, target)).cache]).toEqual([path, "MISS"]);
      expect([path, (await request(base, target)).cache]).toEqual([path, "HIT"]);
    }
    // A typed search is kept as the site answers it (its redirect to the place is shared).
    const typed = "/rv-storage?where=Austin%2C%20TX";
    expect((await request(base, typed)).cache).toBe("MISS");
    expect((await request(base, typed)).cache).toBe("HIT");
  });

  it("passes every other path straight on: no cache lookup, no lock, nothing stored", async () => {
    // The upstream answers them as shareable: nginx still does not keep them.
    for (const target of NEVER_SHARED.map((path) => `${path}?passed`)) {
      for (let i = 0; i < 2; i++) {
        const answer = await request(base, target);
        expect([target, answer.status, answer.cache]).toEqual([target, 200, "BYPASS"]);
      }
      expect(upstream.count(target)).toBe(2);
    }
    // At once, as every page view asks for it: each goes to an instance, none waits on a lock.
    const answers = await Promise.all(Array.from({ length: 8 }, () => request(base, "/api/session?at-once")));
    expect(answers.map((answer) => answer.cache)).toEqual(Array(8).fill("BYPASS"));
  });

  it("never stores a private answer, nor one that sets a cookie", async () => {
    for (const target of ["/location/account?as=private", "/location/page?as=cookie"]) {
      expect((await request(base, target)).cache).toBe("MISS");
      expect((await request(base, target)).cache).toBe("MISS");
      expect(upstream.count(target)).toBe(2);
    }
  });

  it("refreshes a page for the right X-Cache-Purge token only, and never passes the header on", async () => {
    const target = "/location/refresh";
    const cached = await request(base, target);
    expect((await request(base, target)).body).toBe(cached.body);

    for (const wrong of ["", "nope", TOKEN.slice(0, -1), `${TOKEN}0`, ` ${TOKEN}x`]) {
      const answer = await request(base, target, { [PURGE_HEADER]: wrong });
      expect([answer.cache, answer.body]).toEqual(["HIT", cached.body]);
    }
    expect(upstream.count(target)).toBe(1);
    // A client cannot pose as a refresh to the instances either.
    await request(base, "/location/refresh-header?as=private", { "x-cache-refresh": "1" });
    expect(
      upstream.seen.find((s) => s.url === "/location/refresh-header?as=private")?.headers["x-cache-refresh"],
    ).toBeUndefined();

    const refresh = await request(base, target, { [PURGE_HEADER]: TOKEN });
    expect(refresh.cache).toBe("BYPASS");
    expect(refresh.body).not.toBe(cached.body);
    expect(upstream.count(target)).toBe(2);
    // The instance is told it is a refresh (so that it renders the page again), without the token.
    expect(upstream.seen.filter((s) => s.url === target).map((s) => s.headers["x-cache-refresh"])).toEqual([
      undefined,
      "1",
    ]);
    // The new answer is what visitors get now, from the cache.
    const after = await request(base, target);
    expect([after.cache, after.body]).toEqual(["HIT", refresh.body]);
    // Wrong or right, the header stayed with nginx.
    expect(upstream.seen.some((s) => "x-cache-purge" in s.headers)).toBe(false);
  });

  it("keeps one copy per normalised encoding (br, gzip, identity), and a refresh per encoding renews each", async () => {
    const target = "/location/encodings";
    const variants: [acceptEncoding: string | undefined, normalised: string][] = [
      ["gzip, deflate, br, zstd", "br"],
      ["br", "br"],
      ["br;q=1.0, gzip;q=0.8", "br"],
      ["GZIP", "gzip"],
      ["gzip, deflate", "gzip"],
      ["deflate", "identity"],
      ["identity", "identity"],
      [undefined, "identity"],
    ];
    const answers = [];
    for (const [acceptEncoding, normalised] of variants) {
      const answer = await request(
        base,
        target,
        acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      );
      expect(answer.body).toContain(`enc=${normalised}`);
      answers.push(answer.cache);
    }
    expect(answers).toEqual(["MISS", "HIT", "HIT", "MISS", "HIT", "MISS", "HIT", "HIT"]);
    expect(upstream.seen.filter((s) => s.url === target).map((s) => s.headers["accept-encoding"])).toEqual([
      "br",
      "gzip",
      "identity",
    ]);

    // The purge sender's three requests renew all three copies.
    const renewed = new Map<string, string>();
    for (const encoding of CACHED_ENCODINGS) {
      const refresh = await request(base, target, { "accept-encoding": encoding, [PURGE_HEADER]: TOKEN });
      expect(refresh.cache).toBe("BYPASS");
      renewed.set(encoding, refresh.body);
    }
    expect(upstream.count(target)).toBe(6);
    for (const [acceptEncoding, normalised] of variants) {
      const answer = await request(
        base,
        target,
        acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      );
      expect([answer.cache, answer.body]).toEqual(["HIT", renewed.get(normalised)]);
    }
    expect(upstream.count(target)).toBe(6);
  });

  it("forwards Host, X-Forwarded-For, X-Forwarded-Proto and its own X-Request-Id, over kept-alive HTTP/1.1", async () => {
    const connectionsBefore = upstream.connections();
    for (let i = 0; i < 8; i++)
      await request(base, `/api/session?i=${i}`, { "x-forwarded-for": "203.0.113.9", "x-request-id": "from-client" });
    const seen = upstream.seen.filter((s) => s.url.startsWith("/api/session?i="));
    expect(seen).toHaveLength(8);
    for (const s of seen) {
      expect(s.headers.host).toBe(`127.0.0.1:${proxy.port}`);
      expect(s.headers["x-forwarded-for"]).toBe("203.0.113.9, 127.0.0.1");
      expect(s.headers["x-forwarded-proto"]).toBe("http");
      expect(s.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
      expect(s.httpVersion).toBe("1.1");
    }
    expect(new Set(seen.map((s) => s.headers["x-request-id"])).size).toBe(8);
    // One worker, requests one after the other: one upstream connection, kept alive.
    expect(upstream.connections() - connectionsBefore).toBeLessThanOrEqual(1);
  });

  it("caches built assets and listing photos whatever cookies the request carries", async () => {
    const cookie = "rvs_account=1; flash=saved";
    for (const target of ["/assets/app-1234.js", "/place-images/abc/w640n1.webp"]) {
      expect((await request(base, target, { cookie })).cache).toBe("MISS");
      expect((await request(base, target, { cookie })).cache).toBe("HIT");
    }
  });

  it("answers an expired page from the cache while it fetches the new one in the background", async () => {
    const target = "/location/short?as=short";
    const first = await request(base, target);
    expect((await request(base, target)).cache).toBe("HIT");
    // s-maxage=1: once it has passed, the old answer is served while nginx asks again.
    const stale = await until(
      () => request(base, target),
      (answer) => answer.cache !== "HIT",
    );
    expect(["STALE", "UPDATING"]).toContain(stale.cache);
    expect(stale.body).toBe(first.body);
    const renewed = await until(
      () => request(base, target),
      (answer) => answer.cache === "HIT" && answer.body !== first.body,
    );
    expect(renewed.body).not.toBe(first.body);
  });

  it("caps request bodies at 1 MB, as the site's own caps are, except for uploads under /owner/ and /admin/", async () => {
    const twoMegabytes = Buffer.alloc(2 * 1024 * 1024, 120);
    const headers = { "content-type": "application/octet-stream" };
    const refused = await request(base, "/api/analytics/events", headers, { method: "POST", body: twoMegabytes });
    expect(refused.status).toBe(413);
    for (const target of ["/owner/locations/x/photos/upload", "/admin/locations/import/upload"]) {
      const passed = await request(base, target, headers, { method: "POST", body: twoMegabytes });
      expect(passed.status).toBe(200);
      expect(upstream.seen.find((s) => s.url === target)?.bodyBytes).toBe(twoMegabytes.length);
    }
  });

  it("logs every request with its cache status for the benchmark to count", async () => {
    await request(base, "/location/logged");
    await request(base, "/location/logged");
    // The log is buffered: a graceful stop flushes it (afterAll's stop() then does nothing more).
    await proxy.stop();
    const lines = parseAccessLog(fs.readFileSync(proxy.accessLog, "utf8"));
    const logged = lines.filter((line) => line.uri === "/location/logged");
    expect(logged.map((line) => [line.method, line.status, line.cacheStatus])).toEqual([
      ["GET", 200, "MISS"],
      ["GET", 200, "HIT"],
    ]);
    expect(logged[0]!.time).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(lines.some((line) => line.uri === "/nginx-health")).toBe(false);
    expect(lines.find((line) => line.method === "POST")?.cacheStatus).toBe("-");
  });
});

describeNginx("startCachingProxy's edges", () => {
  it("spreads requests over several instances and serves a stale page while they are down", async () => {
    const a = await startUpstream("a");
    const b = await startUpstream("b");
    const proxy = await startCachingProxy({ upstreams: [a.url, b.url], purgeToken: TOKEN });
    try {
      for (let i = 0; i < 6; i++) await request(proxy.url, `/api/session?spread=${i}`);
      expect(a.seen.length).toBeGreaterThan(0);
      expect(b.seen.length).toBeGreaterThan(0);

      const cached = await request(proxy.url, "/location/outage?as=short");
      await Promise.all([a.close(), b.close()]);
      // Expired and no instance answering: the old page rather than an error.
      const during = await until(
        () => request(proxy.url, "/location/outage?as=short"),
        (answer) => answer.cache !== "HIT",
      );
      expect([during.status, during.body]).toEqual([200, cached.body]);
      expect(["STALE", "UPDATING"]).toContain(during.cache);
    } finally {
      await proxy.stop();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("stops its master and workers, and removes its own directory", async () => {
    const upstream = await startUpstream();
    const proxy = await startCachingProxy({ upstreams: [upstream.url], purgeToken: TOKEN, workerProcesses: 2 });
    const workers = fs
      .readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === proxy.pid;
        } catch {
          return false;
        }
      })
      .map(Number);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    await proxy.stop();
    await upstream.close();
    expect([proxy.pid, ...workers].filter(running)).toEqual([]);
    expect(fs.existsSync(proxy.dir)).toBe(false);
    await expect(fetch(proxy.url)).rejects.toThrow();
  });

  it.each(["exits", "is sent SIGTERM"])(
    "stops nginx when the process that started it %s without stop()",
    async (how) => {
      const script = path.join(os.tmpdir(), `rv-nginx-exit-${process.pid}-${how.length}.mts`);
      fs.writeFileSync(
        script,
        [
          `import { startCachingProxy } from ${JSON.stringify(path.join(import.meta.dirname, "caching-proxy.ts"))};`,
          `const proxy = await startCachingProxy({ upstreams: ["http://127.0.0.1:9"], purgeToken: "${TOKEN}" });`,
          `console.log(JSON.stringify({ pid: proxy.pid, dir: proxy.dir }));`,
          // Until told to exit (a line on stdin), or for ever.
          how === "exits" ? 'process.stdin.once("data", () => process.exit(0));' : "setInterval(() => {}, 1000);",
        ].join("\n"),
      );
      try {
        const child = spawn(process.execPath, ["--import", "tsx", script], {
          cwd: path.resolve(import.meta.dirname, "../.."),
          stdio: ["pipe", "pipe", "inherit"],
        });
        const exit = new Promise((resolve) => child.once("exit", resolve));
        const started = await new Promise<{ pid: number; dir: string }>((resolve, reject) => {
          let out = "";
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes("\n")) resolve(JSON.parse(out) as { pid: number; dir: string });
          });
          child.once("exit", (code) => reject(new Error(`the script exited with ${code} before starting nginx`)));
        });
        expect(running(started.pid)).toBe(true);
        if (how === "exits") child.stdin.write("exit\n");
        else child.kill("SIGTERM");
        await exit;
        const gone = await until(
          async () => !running(started.pid),
          (value) => value,
        );
        expect(gone).toBe(true);
        expect(fs.existsSync(started.dir)).toBe(false);
      } finally {
        fs.rmSync(script, { force: true });
      }
    },
  );

  it("says what is wrong: no nginx, a bad upstream or token, a port in use (with nginx's log)", async () => {
    const upstreams = ["http://127.0.0.1:9"];
    await expect(startCachingProxy({ upstreams, purgeToken: TOKEN, nginxPath: "/nowhere/nginx" })).rejects.toThrow(
      /nginx not found at \/nowhere\/nginx: run 'npx tsx scripts\/ensure-nginx.ts'/,
    );
    await expect(startCachingProxy({ upstreams: ["127.0.0.1:3000"], purgeToken: TOKEN })).rejects.toThrow(
      /is not a URL/,
    );
    await expect(startCachingProxy({ upstreams: ["http://127.0.0.1:3000/x"], purgeToken: TOKEN })).rejects.toThrow(
      /without a path/,
    );
    await expect(startCachingProxy({ upstreams, purgeToken: "short" })).rejects.toThrow(/purgeToken/);

    // Something else on the port: it accepts connections and never answers.
    const holder = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      await expect(startCachingProxy({ upstreams, purgeToken: TOKEN, port })).rejects.toThrow(
        /nginx \(.*\) exited at start \(code 1\); the end of its log:\n[\s\S]*Address already in use/,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
