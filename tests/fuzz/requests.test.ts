import fc from "fast-check";
import { describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { encodeRequest } from "./raw-http";
import { EXTRA_ROUTES, plausibleRequestArbitrary, requestArbitrary, routeTemplates, type SiteFacts } from "./requests";

const site: SiteFacts = {
  host: "127.0.0.1:4000",
  facilitySlugs: ["eagle-point-rv-storage-austin-tx-demo_00a1bcdefghij"],
  locationIds: ["demo_00a1bcdefghij"],
  sessionCookie: "rvs.session_token=abc",
  signedInCookies: ["rvs.session_token=owner", "rvs.session_token=admin"],
  recordIds: ["promotion-1", "lead-1"],
  warmImages: [{ placeId: "demo_00a1bcdefghij", index: 1 }],
};

describe("routeTemplates", () => {
  it("lists every path of app/routes.ts and the server's own endpoints", () => {
    const templates = routeTemplates(routes);
    for (const path of ["/", "/rv-storage/:slug?", "/location/:slug", "/admin/manage/:locationId", "*"].map((p) =>
      p === "*" ? "/*" : p,
    )) {
      expect(templates).toContain(path);
    }
    for (const extra of EXTRA_ROUTES) expect(templates).toContain(extra);
    expect(templates.length).toBe(new Set(templates).size);
  });
});

describe("requestArbitrary", () => {
  it("keeps the framing of the head intact: one request line, headers without line breaks", () => {
    fc.assert(
      fc.property(requestArbitrary(routeTemplates(routes), site), (input) => {
        const head = encodeRequest({ ...input.request, body: Buffer.alloc(0) }).toString("utf8");
        const lines = head.split("\r\n");
        expect(lines.at(-1)).toBe("");
        expect(lines.at(-2)).toBe("");
        expect(lines.length).toBe(input.request.headers.length + 3);
        expect(lines[0]).toMatch(/^\S+ \S+ HTTP\/1\.[01]$/);
        for (const line of lines.slice(1, -2)) expect(line).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 300 },
    );
  });

  it("reaches the routes with real parameters and sends the session now and then", () => {
    const inputs = fc.sample(requestArbitrary(routeTemplates(routes), site), { numRuns: 2000, seed: 1 });
    // Sampled on its own route: in the whole table's sample, one route's share shrinks (and with a
    // fixed seed, comes and goes) as routes are added.
    const facility = fc.sample(requestArbitrary(["/location/:slug"], site), { numRuns: 500, seed: 1 });
    expect(facility.some((i) => i.request.target.startsWith("/location/eagle-point-rv-storage-austin-tx"))).toBe(true);
    expect(inputs.some((i) => i.request.headers.some(([n, v]) => n === "Cookie" && v === site.sessionCookie))).toBe(
      true,
    );
    for (const cookie of site.signedInCookies)
      expect(inputs.some((i) => i.request.headers.some(([n, v]) => n === "Cookie" && v === cookie))).toBe(true);
    // The consoles' forms get their fields, with the fixture records' ids and hostile values.
    const bodies = inputs.map((i) => Buffer.from(i.request.body).toString("latin1"));
    expect(bodies.some((b) => b.split("&").includes("promotionId=promotion-1"))).toBe(true);
    expect(bodies.some((b) => b.includes("back=%2Fowner%2Fleads%0D%0A"))).toBe(true);
    expect(bodies.some((b) => b.split("&").some((pair) => pair.startsWith("message=URGENT%0D%0A")))).toBe(true);
    const owner = fc.sample(requestArbitrary(["/owner/checkout/success"], site), { numRuns: 300, seed: 1 });
    expect(owner.some((i) => /[?&]promotion=promotion-1/.test(i.request.target))).toBe(true);
    expect(inputs.some((i) => i.request.version === "HTTP/1.0")).toBe(true);
    expect(inputs.some((i) => i.long)).toBe(true);
    expect(new Set(inputs.map((i) => i.request.method)).size).toBeGreaterThanOrEqual(8);
  });

  it("makes requests that get past the edge: this site's Host and Origin, a session, a framed form", () => {
    const inputs = fc.sample(plausibleRequestArbitrary(routeTemplates(routes), site), { numRuns: 500, seed: 1 });
    for (const { request } of inputs) {
      const header = (name: string) => request.headers.find(([n]) => n === name)?.[1];
      expect(header("Host")).toBe(site.host);
      expect(header("Origin")).toBe(`http://${site.host}`);
      expect([site.sessionCookie, ...site.signedInCookies]).toContain(header("Cookie"));
      if (request.method === "POST") expect(header("Content-Length")).toBe(String(request.body.length));
      else expect(request.body.length).toBe(0);
    }
    expect(inputs.some((i) => i.request.method === "POST" && i.route.startsWith("/owner"))).toBe(true);
  });
});
