import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw as rawRequest, send, serve } from "../../tests/setup/http";
import { formsOnly, knownMethods, privateByDefault, refuseMalformedRequest } from "./request-rules";

let port: number;
let close: () => Promise<void>;
let handled = 0;

beforeAll(async () => {
  const app = express();
  app.use(knownMethods, formsOnly, privateByDefault);
  app.get("/robots.txt", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.send("User-agent: *");
  });
  // Like React Router's adapter, which appends each header of the route's Response.
  app.get("/sitemap.xml", (_req, res) => {
    res.append("Cache-Control", "public, max-age=3600");
    res.type("application/xml").send("<sitemapindex/>");
  });
  app.get("/echo", (req, res) => {
    res.type("text/plain").send(`url=${req.originalUrl}`);
  });
  app.use((_req, res) => {
    handled++;
    res.type("text/html").send("<p>page</p>");
  });
  const served = await serve((req, res) => {
    if (!refuseMalformedRequest(req, res)) app(req, res);
  });
  ({ port, close } = served);
});
afterAll(() => close());

const raw = (text: string) => rawRequest(port, text);

describe("knownMethods", () => {
  it.each(["TRACE", "PUT", "DELETE", "PATCH", "PROPFIND"])("answers %s with 405 and Allow", async (method) => {
    const before = handled;
    const answer = await send(port, { method, path: "/login" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
    expect(answer.body).toContain(`${method} is not supported`);
    expect(handled).toBe(before);
  });

  it("answers OPTIONS with 204 and Allow, and JSON 405 under /api", async () => {
    const options = await send(port, { method: "OPTIONS", path: "/" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST");
    const api = await send(port, { method: "DELETE", path: "/api/search" });
    expect(api.status).toBe(405);
    expect(JSON.parse(api.body)).toEqual({ error: "DELETE is not supported; use GET, HEAD, POST." });
  });
});

describe("formsOnly", () => {
  it("refuses a POST to a page that is not a form with 415", async () => {
    for (const type of ["application/json", "text/plain", undefined]) {
      const answer = await send(port, {
        method: "POST",
        path: "/login",
        headers: type ? { "Content-Type": type } : {},
        chunks: ['{"email":"a@b.test"}'],
      });
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body).toContain("application/x-www-form-urlencoded");
    }
  });

  it("passes forms, and leaves /api to its own checks", async () => {
    const types = [
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
    ];
    for (const type of types) {
      const answer = await send(port, {
        method: "POST",
        path: "/signup.data",
        headers: { "Content-Type": type },
        chunks: ["a=1"],
      });
      expect(answer.status, type).toBe(200);
    }
    const api = await send(port, {
      method: "POST",
      path: "/api/analytics/events",
      headers: { "Content-Type": "application/json" },
      chunks: ["[]"],
    });
    expect(api.status).toBe(200);
  });
});

describe("privateByDefault", () => {
  it("marks a response without its own Cache-Control private, no-store", async () => {
    expect((await send(port, { path: "/business/dashboard" })).headers["cache-control"]).toBe("private, no-store");
    expect((await send(port, { path: "/login.data" })).headers["cache-control"]).toBe("private, no-store");
  });

  it("keeps the caching a route sets itself", async () => {
    expect((await send(port, { path: "/robots.txt" })).headers["cache-control"]).toBe("public, max-age=86400");
    expect((await send(port, { path: "/sitemap.xml" })).headers["cache-control"]).toBe("public, max-age=3600");
  });
});

describe("refuseMalformedRequest", () => {
  it("answers 400 to HTTP/1.0 without Host and to a malformed Host", async () => {
    expect(await raw("GET / HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 [^]*A Host header is required/);
    // The last three pass a host-name pattern but not the URL parser React Router builds with.
    for (const host of ["[", "a b", "evil.example/x", "a@b", "127.0.0.1:99999", "xn--", "[::g]"]) {
      expect(await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`), host).toMatch(
        /^HTTP\/1\.1 400 /,
      );
    }
  });

  it("passes host names, IPv4 and IPv6 addresses with or without a port", async () => {
    for (const host of ["localhost", "rv_app:3000", "rvstorage.example", "127.0.0.1:8080", "[::1]:3000"]) {
      expect(await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`), host).toMatch(
        /^HTTP\/1\.1 200 /,
      );
    }
  });
});

describe("refuseMalformedRequest, the request target", () => {
  it("reduces an absolute-form target to its path and query, whatever host it names", async () => {
    for (const target of ["http://evil.example/echo?a=1", "HTTPS://127.0.0.1:1/echo?a=1"]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 200 [^]*url=\/echo\?a=1$/);
    }
  });

  it("answers 400 to a target that is neither a path nor an http(s) URL", async () => {
    // node:http's parser refuses some of these itself (a bare 400 Bad Request); the rest reach the rule.
    for (const target of ["echo", "ftp://x/echo", "http://[/echo", "*"]) {
      expect(await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`), target).toMatch(
        /^HTTP\/1\.1 400 [^]*must be a path|^HTTP\/1\.1 400 Bad Request/,
      );
    }
  });
});

describe("refuseMalformedRequest, NUL in the address", () => {
  it("answers 400 naming %00 in a path or a query, before a route hands it to the database (found by the fuzz suite)", async () => {
    for (const target of ["/owner/claims/x/evidence/%00", "/echo?q=a%00b"]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 [^]*NUL character \(%00\)/);
    }
    expect(await raw("GET /echo?q=%2500 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 200 [^]*url=\/echo\?q=%2500$/,
    );
  });
});

describe("refuseMalformedRequest, escapes in the path", () => {
  it("answers 400 to a '%' that starts no UTF-8 escape in the path, and leaves the query to its parser (found by the fuzz suite)", async () => {
    for (const target of ["/api/auth/%", "/rv-storage/%zz", "/%C3%28"]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 [^]*not a valid escape/);
    }
    for (const target of ["/rv-storage/san%20antonio-tx", "/echo?q=100%"]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 200 /);
    }
  });
});

describe("refuseMalformedRequest, bodies on GET and HEAD", () => {
  it("answers 400 to a GET or HEAD with a body, chunked or announced (found by the fuzz suite)", async () => {
    const chunked = "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    expect(await raw(`GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${chunked}`)).toMatch(
      /^HTTP\/1\.1 400 [^]*GET request carries no body/,
    );
    expect(
      await raw("HEAD /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello"),
    ).toMatch(/^HTTP\/1\.1 400 /);
    expect(
      await raw("GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"),
    ).toMatch(/^HTTP\/1\.1 200 /);
  });
});
