import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy, originCheck, securityHeaders, tileOrigins } from "./security";

const config = {
  MAP_TILE_URL: "https://{s}.tile.example.org/{z}/{x}/{y}.png",
  PUBLIC_URL: undefined,
  NODE_ENV: "production" as const,
};

let base: string;
let close: () => void;
beforeAll(async () => {
  const app = express();
  app.use(securityHeaders(config));
  app.use(originCheck(config));
  app.all("/thing", (_req, res) => {
    res.json({ ok: true, nonce: res.locals.nonce });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("content security policy", () => {
  it("allows scripts only from this origin and this response's nonce", () => {
    const csp = contentSecurityPolicy(["'nonce-abc'"], config);
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data: blob: https://*.tile.example.org");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy(["'nonce-n'"], { ...config, PUBLIC_URL: "https://rv.example" })).toContain(
      "upgrade-insecure-requests",
    );
  });

  it("derives the tile host from the tile URL template", () => {
    expect(tileOrigins("https://tile.openstreetmap.org/{z}/{x}/{y}.png")).toEqual(["https://tile.openstreetmap.org"]);
    expect(tileOrigins("not a url {z}")).toEqual([]);
    expect(tileOrigins("https://{s}.tile.example.org:8443/{z}/{x}/{y}.png")).toEqual([
      "https://*.tile.example.org:8443",
    ]);
    expect(tileOrigins(`https://tiles.example/${"{".repeat(50_000)}`)).toEqual(["https://tiles.example"]);
  });
});

describe("headers and origin checks over HTTP", () => {
  it("sets the security headers with a fresh nonce per response", async () => {
    const a = await fetch(`${base}/thing`);
    const b = await fetch(`${base}/thing`);
    const nonceA = ((await a.json()) as { nonce: string }).nonce;
    expect(a.headers.get("content-security-policy")).toContain(`'nonce-${nonceA}'`);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("strict-transport-security")).toBeNull();
    expect(((await b.json()) as { nonce: string }).nonce).not.toBe(nonceA);
  });

  it("refuses state-changing requests from another site, allows this site's and header-less clients", async () => {
    const post = (headers: Record<string, string>) => fetch(`${base}/thing`, { method: "POST", headers });
    const refused = await post({ origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Cross-site request refused/);
    expect((await post({ origin: base })).status).toBe(200);
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post({})).status).toBe(200);
    expect((await fetch(`${base}/thing`, { headers: { origin: "https://evil.example" } })).status).toBe(200);
  });
});
