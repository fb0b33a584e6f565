import { createHash } from "node:crypto";
import express from "express";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, serve } from "../../tests/setup/http";
import { privateByDefault } from "./request-rules";
import { securityHeaders } from "./security";
import {
  carriesPersonalCookie,
  inlineScriptHashes,
  isSharedCachePath,
  sharedCacheControl,
  sharedCacheDecision,
  sharedCacheMark,
} from "./shared-cache";

const settings = { SHARED_CACHE_SECONDS: 60, SHARED_CACHE_STALE_SECONDS: 300 };
const SHARED = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

describe("carriesPersonalCookie", () => {
  it("finds the account marker, flash and remembered-RV cookies, and nothing else", () => {
    expect(carriesPersonalCookie(undefined)).toBe(false);
    expect(carriesPersonalCookie("")).toBe(false);
    expect(carriesPersonalCookie("_ga=GA1.2; theme=dark")).toBe(false);
    // Every visitor has a session: it does not make a page personal.
    expect(carriesPersonalCookie("rvs.session_token=abc; __Secure-rvs.session_token=abc")).toBe(false);
    expect(carriesPersonalCookie("rvs.session_token=abc; rvs_account=1")).toBe(true);
    expect(carriesPersonalCookie("flash=x")).toBe(true);
    expect(carriesPersonalCookie("x=1;__Host-flash=y")).toBe(true);
    expect(carriesPersonalCookie("my_rv=40_13.5")).toBe(true);
    // Names that merely contain or extend them are other cookies.
    expect(carriesPersonalCookie("flashy=1; my_rv_old=2; rvs_accounts=3")).toBe(false);
    // A value that looks like a name is a value.
    expect(carriesPersonalCookie("note=flash")).toBe(false);
  });

  it("stays linear on a long header", () => {
    const header = "a=1; ".repeat(20_000);
    expect(carriesPersonalCookie(header)).toBe(false);
    expect(carriesPersonalCookie(`${header}my_rv=40`)).toBe(true);
  });
});

describe("isSharedCachePath", () => {
  it.each([
    "/",
    "/_root.data",
    "/about",
    "/about.data",
    "/rv-storage",
    "/rv-storage/austin-tx",
    "/rv-storage/austin-tx.data",
    "/location/big-rig-storage-austin-tx",
    "/location/big-rig-storage-austin-tx.data",
    "/blog",
    "/blog/winter-storage",
    "/blog/rss.xml",
    "/sitemap.xml",
    "/sitemaps/locations-1.xml",
  ])("shares %s", (path) => expect(isSharedCachePath(path)).toBe(true));

  it.each([
    "/login",
    "/saved",
    "/compare",
    "/owner",
    "/admin/locations",
    "/location",
    "/location/x/review",
    "/location/x/waitlist",
    "/location//x",
    "/rv-storage/",
    "/api/search",
    "/about/x",
    "/verify-email",
  ])("keeps %s private", (path) => expect(isSharedCachePath(path)).toBe(false));
});

describe("inlineScriptHashes", () => {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

  it("names each inline script's text once, and neither scripts with a source nor JSON blocks", () => {
    const page = Buffer.from(
      [
        "<html><head><script>console.log(1)</script>",
        '<script type="application/ld+json">{"@type":"Place"}</script>',
        '<script src="/assets/a.js"></script><script async="" src="/b.js"></script>',
        '</head><body><script type="text/x-after-paint">import "/assets/entry.js";</script>',
        "<script>console.log(1)</script><script>é = 1</script></body></html>",
      ].join(""),
    );
    expect(inlineScriptHashes(page)).toEqual([
      hash("console.log(1)"),
      hash('import "/assets/entry.js";'),
      hash("é = 1"),
    ]);
  });

  it("matches what it hashes to what lies between the tags, on any page", () => {
    const text = fc
      .string({ unit: "binary" })
      .filter((value) => !value.includes("</script") && !value.includes("<script"));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), fc.string(), (scripts, filler) => {
        const clean = filler.replaceAll("<", "&lt;");
        const page = Buffer.from(scripts.map((script) => `${clean}<script>${script}</script>`).join("") + clean);
        expect(inlineScriptHashes(page)).toEqual([...new Set(scripts.map(hash))]);
      }),
    );
  });

  it("stops at a script that never ends", () => {
    expect(inlineScriptHashes(Buffer.from("<script>a</script><script>b"))).toEqual([hash("a")]);
    expect(inlineScriptHashes(Buffer.from("<script"))).toEqual([]);
  });
});

describe("the shared answers of an app", () => {
  let port: number;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = express();
    app.use(sharedCacheDecision(settings));
    app.use(securityHeaders({ MAP_TILE_URL: "https://tile.example.org/{z}/{x}/{y}.png", NODE_ENV: "production" }));
    app.use(privateByDefault, sharedCacheMark(settings));
    app.get("/location/:slug", (req, res) => {
      if (req.params.slug === "gone") return void res.status(404).send("gone");
      if (req.params.slug === "broken") return void res.status(500).send("broken");
      if (req.params.slug === "cookie") res.cookie("flash", "", { maxAge: 0 });
      if (req.params.slug === "chosen") res.setHeader("Cache-Control", "public, max-age=5");
      res.type("text/html").send(`<p>nonce=${String(res.locals.nonce)}</p>`);
    });
    app.all("/login", (_req, res) => void res.type("text/html").send("<p>login</p>"));
    app.get("/rv-storage", (req, res) => {
      if (req.query.where === "austin") return void res.redirect(302, "/rv-storage/austin-tx");
      res
        .status(404)
        .type("text/html")
        .send(`<p>Could not find location: ${String(req.query.where)}</p>`);
    });
    ({ port, close } = await serve(app));
  });
  afterAll(() => close());

  it("marks an anonymous public page shared, without a nonce or a policy naming one", async () => {
    const answer = await send(port, { path: "/location/alpha" });
    expect(answer.headers["cache-control"]).toBe(SHARED);
    expect(answer.body).toBe("<p>nonce=</p>");
    expect(answer.headers["content-security-policy"]).toBeUndefined();
  });

  it("keeps pages private for a visitor with a personal cookie, and keeps other pages private", async () => {
    for (const cookie of ["rvs.session_token=abc; rvs_account=1", "my_rv=40", "flash=hi"]) {
      const answer = await send(port, { path: "/location/alpha", headers: { cookie } });
      expect(answer.headers["cache-control"]).toBe("private, no-store");
      expect(answer.headers["content-security-policy"]).toMatch(/'nonce-[^']+'/);
    }
    const other = await send(port, { path: "/location/alpha", headers: { cookie: "_ga=1" } });
    expect(other.headers["cache-control"]).toBe(SHARED);
    expect((await send(port, { path: "/login" })).headers["cache-control"]).toBe("private, no-store");
  });

  it("shares a page that is not there, and keeps private what fails, sets a cookie or chose its own caching", async () => {
    // A listing hidden or deleted: a refresh replaces its cached page with the 404.
    expect((await send(port, { path: "/location/gone" })).headers["cache-control"]).toBe(SHARED);
    expect((await send(port, { path: "/location/broken" })).headers["cache-control"]).toBe("private, no-store");
    expect((await send(port, { path: "/location/cookie" })).headers["cache-control"]).toBe("private, no-store");
    expect((await send(port, { path: "/location/chosen" })).headers["cache-control"]).toBe("public, max-age=5");
  });

  it("shares a typed search's redirect to its place, never the page that says the typed text again", async () => {
    const found = await send(port, { path: "/rv-storage?where=austin" });
    expect(found.status).toBe(302);
    expect(found.headers["cache-control"]).toBe(SHARED);
    const unknown = await send(port, { path: "/rv-storage?where=12%20Elm%20Street" });
    expect(unknown.status).toBe(404);
    expect(unknown.headers["cache-control"]).toBe("private, no-store");
    const personal = await send(port, { path: "/rv-storage?where=austin", headers: { cookie: "my_rv=40" } });
    expect(personal.headers["cache-control"]).toBe("private, no-store");
  });

  it("shares nothing with SHARED_CACHE_SECONDS=0", () => {
    const off = { SHARED_CACHE_SECONDS: 0, SHARED_CACHE_STALE_SECONDS: 300 };
    const locals: Record<string, unknown> = {};
    sharedCacheDecision(off)({ method: "GET", path: "/", headers: {} } as never, { locals } as never, () => {});
    expect(locals.sharedCache).toBe(false);
    expect(sharedCacheControl(settings)).toBe(SHARED);
  });
});
