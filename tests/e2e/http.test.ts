import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { raw as rawRequest, send as sendTo } from "../setup/http";
import { HUMAN_USER_AGENT } from "./browser";

/**
 * The HTTP layer of the built site (docs/operations.md "Request bodies and HTTP"), over raw HTTP.
 * This file starts a site of its own, configured as a careless production deployment would be:
 * no PUBLIC_URL, behind a proxy (TRUST_PROXY). Its log is this file's alone, so a test can check
 * that the server logged no error while answering a client's mistake.
 */
const logFile = path.resolve(import.meta.dirname, "../../.tmp/e2e-http-server.log");
let site: RunningSite;
let port: number;

beforeAll(async () => {
  // The global setup has just built the site.
  process.env.SKIP_BUILD = "1";
  const env = { PUBLIC_URL: "", TRUST_PROXY: "1", DEMO_COUNT: "60" };
  site = await startBuiltSite({ logFile, env });
  const url = new URL(site.baseUrl);
  port = Number(url.port);
});
afterAll(() => site?.stop());

let logStart = 0;
/** Marks the log's current end: `newLog()` returns what the server wrote after it. */
const markLog = () => (logStart = fs.statSync(logFile).size);
const newLog = () => fs.readFileSync(logFile).subarray(logStart).toString("utf8");
/** pino's error and fatal levels, or a stack trace printed by anything else. */
const ERROR_LINES = /"level":(50|60)|\n\s+at /;

const send = (options: Parameters<typeof sendTo>[1]) => sendTo(port, options);
const raw = (text: string) => rawRequest(port, text);

const FORM = { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": HUMAN_USER_AGENT };

describe("public URLs never come from the Host header", () => {
  const evil = { Host: "evil.example" };

  it("robots.txt and the sitemaps name the configured origin", async () => {
    const robots = await send({ path: "/robots.txt", headers: evil });
    expect(robots.status).toBe(200);
    expect(robots.body).toContain(`Sitemap: http://localhost:${port}/sitemap.xml`);
    const index = await send({ path: "/sitemap.xml", headers: evil });
    const places = await send({ path: "/sitemaps/places.xml", headers: evil });
    const facilities = await send({ path: "/sitemaps/facilities-1.xml", headers: evil });
    for (const answer of [robots, index, places, facilities]) {
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain("evil.example");
    }
    expect(facilities.body).toContain(`<loc>http://localhost:${port}/location/`);
  });

  it("a facility page's canonical link, og:url and JSON-LD name the configured origin", async () => {
    const facilities = await send({ path: "/sitemaps/facilities-1.xml" });
    const facility = new URL(/<loc>([^<]+)<\/loc>/.exec(facilities.body)![1]!).pathname;
    const page = await send({ path: facility, headers: { ...evil, "X-Forwarded-Host": "evil.example" } });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<link rel="canonical" href="http://localhost:${port}${facility}"`);
    expect(page.body).toContain(`property="og:url" content="http://localhost:${port}${facility}"`);
    expect(page.body).toContain('"@type":"SelfStorage"');
    expect(page.body).not.toContain("evil.example");
  });

  it("warns at start-up that PUBLIC_URL is unset behind a proxy", () => {
    const log = fs.readFileSync(logFile, "utf8");
    expect(log).toMatch(/"level":40[^\n]*PUBLIC_URL/);
  });
});

describe("request bodies are capped while they stream", () => {
  const big = "x".repeat(64 * 1024);

  it("refuses a sign-in form over 16 kB announced by Content-Length, with 413", async () => {
    markLog();
    const body = `email=a%40b.test&password=${big}`;
    const answer = await send({
      method: "POST",
      path: "/login",
      headers: { ...FORM, "Content-Length": String(body.length) },
      chunks: [body],
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/16 kB/);
    expect(newLog()).not.toMatch(ERROR_LINES);
  });

  it("refuses a chunked sign-up body once it passes 16 kB", async () => {
    markLog();
    const answer = await send({
      method: "POST",
      path: "/signup",
      headers: FORM,
      chunks: ["name=x&email=a%40b.test&password=", big, big, big],
    });
    expect(answer.status).toBe(413);
    expect(newLog()).not.toMatch(ERROR_LINES);
  });

  it("refuses a large .data submission and a large /api/auth body with a JSON 413", async () => {
    const data = await send({ method: "POST", path: "/business/login.data", headers: FORM, chunks: [big] });
    expect(data.status).toBe(413);
    const auth = await send({
      method: "POST",
      path: "/api/auth/sign-out",
      headers: { "Content-Type": "application/json" },
      chunks: [`{"x":"${big}"}`],
    });
    expect(auth.status).toBe(413);
    expect(JSON.parse(auth.body)).toMatchObject({ error: expect.stringMatching(/exceeds/) });
  });

  it("still takes an ordinary form, chunked or not: sign-up creates the account", async () => {
    const email = `http-${Date.now()}@example.test`;
    const password = "a long enough password";
    const body = new URLSearchParams({ name: "Body Limit", email, password }).toString();
    const answer = await send({
      method: "POST",
      path: "/signup",
      headers: FORM,
      chunks: [body.slice(0, 10), body.slice(10)],
    });
    // Sign-up answers alike for every address and signs nobody in (docs/api.md): the form was read whole.
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("Check your email");
    expect(String(answer.headers["set-cookie"] ?? "")).not.toContain("session_token");
    const signIn = (attempt: string) =>
      send({
        method: "POST",
        path: "/login",
        headers: {
          ...FORM,
          "Content-Length": String(Buffer.byteLength(`email=${encodeURIComponent(email)}&password=${attempt}`)),
        },
        chunks: [`email=${encodeURIComponent(email)}&password=${attempt}`],
      });
    // The account is made just after the answer: it signs in once it exists.
    await expect.poll(async () => (await signIn(encodeURIComponent(password))).status, { timeout: 10_000 }).toBe(302);
    const again = await signIn("x");
    // A wrong password: the action ran and answered the form.
    expect(again.status).toBe(401);
    expect(again.body).toContain("<form");
  });

  it("lets an analytics batch through up to its own larger limit", async () => {
    const answer = await send({
      method: "POST",
      path: "/api/analytics/events",
      headers: { "Content-Type": "application/json" },
      chunks: [`[${" ".repeat(100 * 1024)}]`],
    });
    // 401: no session. The body was not refused by the 16 kB default.
    expect(answer.status).toBe(401);
  });
});

describe("client mistakes answer 4xx and log no error", () => {
  it("JSON posted to a page answers 415", async () => {
    markLog();
    for (const page of ["/login", "/signup", "/business/login"]) {
      const answer = await send({
        method: "POST",
        path: page,
        headers: { "Content-Type": "application/json" },
        chunks: ['{"email":"a@b.test"}'],
      });
      expect(answer.status).toBe(415);
    }
    expect(newLog()).not.toMatch(ERROR_LINES);
  });

  it("TRACE and other unsupported methods answer 405 with Allow", async () => {
    markLog();
    for (const method of ["TRACE", "PUT", "DELETE", "PROPFIND"]) {
      const answer = await send({ method, path: "/login" });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
    }
    const options = await send({ method: "OPTIONS", path: "/" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST");
    expect(newLog()).not.toMatch(ERROR_LINES);
  });

  it("HTTP/1.0 without Host, or a malformed Host, answers 400", async () => {
    markLog();
    expect(await raw("GET / HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw("GET /api/search?lat=30&lng=-97 HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw("GET / HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(newLog()).not.toMatch(ERROR_LINES);
  });
});

describe("caching", () => {
  it("pages and .data answers that depend on the session are private, no-store", async () => {
    const email = `cache-${Date.now()}@example.test`;
    const body = new URLSearchParams({ name: "Cache", email, password: "a long enough password" }).toString();
    const signup = await send({ method: "POST", path: "/signup", headers: FORM, chunks: [body] });
    expect(signup.status).toBe(200);
    // Sign-up signs nobody in and makes the account just after its answer: sign in once it exists.
    let cookie = "";
    await expect
      .poll(
        async () => {
          const login = await send({ method: "POST", path: "/login", headers: FORM, chunks: [body] });
          cookie = (login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
          return cookie.includes("session_token");
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    for (const page of ["/", "/login", "/login.data", "/business/dashboard", "/owner", "/admin", "/rv-storage/tx"]) {
      const answer = await send({ path: page, headers: { Cookie: cookie } });
      expect(answer.headers["cache-control"], page).toBe("private, no-store");
    }
  });

  it("robots.txt and the sitemaps stay publicly cacheable", async () => {
    expect((await send({ path: "/robots.txt" })).headers["cache-control"]).toBe("public, max-age=86400");
    expect((await send({ path: "/sitemap.xml" })).headers["cache-control"]).toBe("public, max-age=3600");
  });
});

describe("GET /api/search on the fast path", () => {
  it("answers with a request id of its own, whatever the client sends", async () => {
    for (const bad of ["FORGED-admin-action-0001", "abc-123.x_Y", "a b", "x".repeat(65), "<script>"]) {
      const answer = await send({ path: "/api/search?lat=30.27&lng=-97.74", headers: { "X-Request-Id": bad } });
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      const page = await send({ path: "/about", headers: { "X-Request-Id": bad } });
      expect(page.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
