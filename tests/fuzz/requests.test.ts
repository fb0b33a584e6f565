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
  recordIds: ["promotion-1", "lead-1", "17"],
  warmImages: [{ placeId: "demo_00a1bcdefghij", index: 1 }],
};

describe("routeTemplates", () => {
  it("lists every path of app/routes.ts and the server's own endpoints", () => {
    const templates = routeTemplates(routes);
    for (const path of [
      "/",
      "/rv-storage/:slug?",
      "/location/:slug",
      "/location/:slug/review",
      "/location/:slug/waitlist",
      "/waitlist/confirm",
      "/waitlist/leave",
      "/owner/reviews",
      "/admin/manage",
      "/admin/manage/:locationId",
      "/*",
    ]) {
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
    // Sampled on one route too: bodies do not depend on the route, but the whole table's sample
    // draws other bodies whenever a route is added.
    const leads = fc.sample(requestArbitrary(["/owner/leads"], site), { numRuns: 2000, seed: 1 });
    const bodies = leads.map((i) => Buffer.from(i.request.body).toString("latin1"));
    expect(bodies.some((b) => b.split("&").includes("promotionId=promotion-1"))).toBe(true);
    expect(bodies.some((b) => b.includes("back=%2Fowner%2Fleads%0D%0A"))).toBe(true);
    expect(bodies.some((b) => b.split("&").some((pair) => pair.startsWith("message=URGENT%0D%0A")))).toBe(true);
    const owner = fc.sample(requestArbitrary(["/owner/checkout/success"], site), { numRuns: 300, seed: 1 });
    expect(owner.some((i) => /[?&]promotion=promotion-1/.test(i.request.target))).toBe(true);
    expect(inputs.some((i) => i.request.version === "HTTP/1.0")).toBe(true);
    expect(inputs.some((i) => i.long)).toBe(true);
    expect(new Set(inputs.map((i) => i.request.method)).size).toBeGreaterThanOrEqual(8);
  });

  it("fills the waitlist form and its links (issue 35) with sizes, addresses, lengths and bad tokens", () => {
    const slug = site.facilitySlugs[0]!;
    const sample = (route: string) =>
      fc.sample(plausibleRequestArbitrary([route], site), { numRuns: 400, seed: 2 }).map(({ request }) => ({
        method: request.method,
        target: request.target,
        pairs: request.method === "POST" ? Buffer.from(request.body).toString("latin1").split("&") : [],
      }));
    const join = sample("/location/:slug/waitlist");
    const links = [...sample("/waitlist/confirm"), ...sample("/waitlist/leave")];
    expect(join.some((i) => i.method === "POST" && i.target.startsWith(`/location/${slug}/waitlist`))).toBe(true);
    expect(join.some((i) => i.method === "GET" && /[?&]size=/.test(i.target))).toBe(true);
    const pairs = join.flatMap((i) => i.pairs);
    for (const pattern of [/^size=12x40%00$/, /^email=/, /^rvLengthFeet=(0|101|x)$/])
      expect(
        pairs.some((pair) => pattern.test(pair)),
        String(pattern),
      ).toBe(true);
    const tokens = links.flatMap((i) => i.pairs).filter((pair) => pair.startsWith("token="));
    expect(tokens.some((pair) => pair.length > 2000)).toBe(true);
    expect(tokens.some((pair) => pair === "token=a.b.c")).toBe(true);
    expect(links.some((i) => i.method === "GET" && /[?&]token=/.test(i.target))).toBe(true);
  });

  it("fills the review forms of issue 34 with their intents, fields and hostile values", () => {
    const slug = site.facilitySlugs[0]!;
    const sample = (route: string) =>
      fc.sample(plausibleRequestArbitrary([route], site), { numRuns: 600, seed: 1 }).map(({ request }) => ({
        method: request.method,
        target: request.target,
        pairs: request.method === "POST" ? Buffer.from(request.body).toString("latin1").split("&") : [],
      }));
    const form = sample("/location/:slug/review");
    const facility = sample("/location/:slug");
    const owner = sample("/owner/reviews");
    const queue = sample("/admin/manage");

    // The routes, on a real facility and with their query strings.
    expect(form.some((i) => i.method === "GET" && i.target.startsWith(`/location/${slug}/review`))).toBe(true);
    expect(form.some((i) => i.method === "POST" && i.target.startsWith(`/location/${slug}/review`))).toBe(true);
    expect(facility.some((i) => i.method === "POST" && i.target.startsWith(`/location/${slug}`))).toBe(true);
    expect(facility.some((i) => /[?&]rpage=/.test(i.target))).toBe(true);
    expect(owner.some((i) => i.method === "GET" && /[?&]page=/.test(i.target))).toBe(true);
    expect(queue.some((i) => i.method === "POST" && /[?&]section=reviews(&|$)/.test(i.target))).toBe(true);

    // Each route's own intents are posted to it.
    const posted = (inputs: typeof form, pair: string) => inputs.some((i) => i.pairs.includes(pair));
    const intents: [typeof form, string[]][] = [
      [form, ["save", "delete"]],
      [facility, ["helpful", "report-review", "lead"]],
      [owner, ["reply", "owner-report", "confirm-stay"]],
      [queue, ["review-approve", "review-reject", "review-remove"]],
    ];
    for (const [inputs, names] of intents)
      for (const intent of names) expect(posted(inputs, `intent=${intent}`), intent).toBe(true);

    // And their fields, with hostile values.
    const pairs = [form, facility, owner, queue].flat().flatMap((i) => i.pairs);
    const sent = (pattern: RegExp) => pairs.some((pair) => pattern.test(pair));
    const hostile: Record<string, RegExp> = {
      stars: /^stars=(0|6|-1|4\.5|NaN|1e309)$/,
      security: /^security=(0|6|-1|4\.5|NaN|1e309)$/,
      access: /^access=(0|6|-1|4\.5|NaN|1e309)$/,
      value: /^value=(0|6|-1|4\.5|NaN|1e309)$/,
      cleanliness: /^cleanliness=(0|6|-1|4\.5|NaN|1e309)$/,
      title: /^title=(t{121}|.*%00.*|two%0Alines)$/,
      body: /^body=(b{2001}|.*%00.*|Too%20short)$/,
      stayMonth: /^stayMonth=(2026-13|2026-00|9999-01|0000-01|__proto__|constructor)$/,
      storedKind: /^storedKind=(CLASS_A|bogus|__proto__|toString)$/,
      lengthFeet: /^lengthFeet=(7|66|30\.5|-30|0|NaN|1e309)$/,
      reviewId: /^reviewId=(0|-1|1\.5|-?1e309|9007199254740992|9{23}|1%20OR%201%3D1|.*DROP.*)$/,
      kind: /^kind=(SPAM|bogus|__proto__)$/,
      reason: /^reason=(r{1001}|.*%00.*)$/,
      message: /^message=(x{1001}|.*%00.*)$/,
    };
    for (const [field, pattern] of Object.entries(hostile)) {
      expect(sent(new RegExp(`^${field}=`)), field).toBe(true);
      expect(sent(pattern), `${field}: ${pattern}`).toBe(true);
    }
    expect(sent(/^kind=(spam|conflict_of_interest|offensive|not_a_real_stay)$/)).toBe(true);
    expect(sent(/^status=(held|published)$/)).toBe(true);
    // The fixture review's id, and a name sent twice: an array to the server.
    expect(pairs).toContain("reviewId=17");
    const bodies = [form, facility, owner, queue].flat().map((i) => i.pairs);
    expect(
      bodies.some((body) =>
        body.some((pair, n) => /^(stars|stayMonth|reviewId)=/.test(pair) && body.indexOf(pair) < n),
      ),
    ).toBe(true);
  });

  it("fills the reservation request forms of issue 35: the kind and move-in, accept and decline with a note", () => {
    const pairsOf = (route: string) =>
      fc
        .sample(plausibleRequestArbitrary([route], site), { numRuns: 600, seed: 1 })
        .filter(({ request }) => request.method === "POST")
        .flatMap(({ request }) => Buffer.from(request.body).toString("latin1").split("&"));
    const facility = pairsOf("/location/:slug");
    const leads = pairsOf("/owner/leads");
    for (const pair of ["intent=lead", "kind=reservation", "kind=question", "moveIn=2099-01-01", "moveIn="])
      expect(facility, pair).toContain(pair);
    for (const pair of ["intent=accept", "intent=decline"]) expect(leads, pair).toContain(pair);
    expect(leads.some((p) => p.startsWith("leadId="))).toBe(true);
    expect(leads.some((p) => /^note=(n{501}|.*%00.*|two%0D%0Alines)$/.test(p))).toBe(true);
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
    // The review form is outside the consoles, and reached too.
    expect(inputs.some((i) => i.request.method === "POST" && i.route === "/location/:slug/review")).toBe(true);
  });
});
