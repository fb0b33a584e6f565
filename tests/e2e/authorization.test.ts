import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { AUTH_HTTP_ENDPOINTS } from "../../server/auth/http";
import { cookieFrom } from "../setup/auth";
import { ACCOUNTS, PASSWORD, PERSONAS, type Persona } from "./accounts";
import { MATRIX, type Answer } from "./authorization-matrix";
import { HUMAN_USER_AGENT } from "./browser";

/**
 * The authorization matrix, over HTTP against the built site: each guarded route, asked by each
 * kind of person, answers exactly as tests/e2e/authorization-matrix.ts says. The route table of
 * the build itself is enumerated, so a new guarded route missing from the matrix fails here.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");

interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  module: { action?: unknown };
}

async function builtRoutes(): Promise<{ pattern: string; hasAction: boolean }[]> {
  // server/app.ts is the server entry; React Router's own build (with the route table) is its chunk.
  const assets = path.resolve("build/server/assets");
  const chunk = fs.readdirSync(assets).find((f) => /^server-build-.*\.js$/.test(f));
  if (!chunk) throw new Error("No server-build chunk under build/server/assets: build the site first");
  const build = (await import(pathToFileURL(path.join(assets, chunk)).href)) as {
    routes: Record<string, BuiltRoute>;
  };
  const fullPath = (route: BuiltRoute): string => {
    const parent = route.parentId ? build.routes[route.parentId] : undefined;
    return [parent ? fullPath(parent) : "", route.path ?? ""].filter(Boolean).join("/");
  };
  return Object.values(build.routes).map((r) => ({ pattern: fullPath(r), hasAction: Boolean(r.module.action) }));
}

const cookies = new Map<Persona, string>();

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl, "content-type": "application/x-www-form-urlencoded", "user-agent": HUMAN_USER_AGENT },
    body: new URLSearchParams({ email, password: PASSWORD, remember: "on" }),
  });
  if (response.status !== 302) throw new Error(`Signing in ${email} answered ${response.status}`);
  return cookieFrom(response.headers);
}

async function anonymousSession(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { origin: baseUrl, "content-type": "application/json", "user-agent": HUMAN_USER_AGENT },
    body: "{}",
  });
  if (!response.ok) throw new Error(`Anonymous sign-in answered ${response.status}`);
  return cookieFrom(response.headers);
}

async function answerFor(persona: Persona, entry: (typeof MATRIX)[number], concretePath: string): Promise<Answer> {
  const cookie = entry.route === "api/auth/sign-out" ? await freshCookie(persona) : cookies.get(persona);
  const response = await fetch(baseUrl + concretePath, {
    method: entry.method,
    redirect: "manual",
    headers: {
      origin: baseUrl,
      "user-agent": HUMAN_USER_AGENT,
      ...(cookie ? { cookie } : {}),
      ...(entry.contentType ? { "content-type": entry.contentType } : {}),
    },
    body: entry.body,
  });
  if (response.status === 302) {
    const location = response.headers.get("location") ?? "";
    const back = `redirectTo=${encodeURIComponent(concretePath)}`;
    if (location === `/login?${back}`) return "login";
    if (location === `/business/login?${back}`) return "business-login";
    return `redirect ${location}` as Answer;
  }
  return response.status;
}

/** Signing out spends the session, so that row gets one of its own. */
async function freshCookie(persona: Persona): Promise<string | undefined> {
  if (persona === "visitor") return undefined;
  if (persona === "anonymous") return anonymousSession();
  return signIn(ACCOUNTS[persona].email);
}

describe.skipIf(!fixtures)("authorization matrix", () => {
  beforeAll(async () => {
    cookies.set("anonymous", await anonymousSession());
    for (const persona of ["user", "business_owner", "listing_owner", "admin"] as const) {
      cookies.set(persona, await signIn(ACCOUNTS[persona].email));
    }
  });

  it("lists every guarded route of the build, and nothing that does not exist", async () => {
    const routes = await builtRoutes();
    const guarded = routes
      .filter(
        (r) =>
          /^(admin|owner)(\/|$)/.test(r.pattern) ||
          (r.pattern.startsWith("api/") && r.hasAction) ||
          (r.pattern.startsWith("api/") && /:\w+/.test(r.pattern)),
      )
      .map((r) => r.pattern);
    const authPosts = AUTH_HTTP_ENDPOINTS.filter((e) => e.method === "POST").map((e) => e.path.slice(1));
    const inMatrix = new Set(MATRIX.map((e) => e.route));
    const missing = [...guarded, ...authPosts].filter((p) => !inMatrix.has(p));
    expect(missing, "add these routes to tests/e2e/authorization-matrix.ts").toEqual([]);
    const known = new Set([...routes.map((r) => r.pattern), ...authPosts]);
    expect(MATRIX.filter((e) => !known.has(e.route)).map((e) => e.route)).toEqual([]);
  });

  for (const entry of MATRIX) {
    it(`${entry.method} ${entry.route}`, async () => {
      const concrete = (text: string) =>
        text
          .replace("LOCATION", fixtures!.ownedLocationId)
          .replace("CLAIM", fixtures!.claimId)
          .replace("EVIDENCE", fixtures!.evidenceId)
          .replace("PROMOTION", fixtures!.promotionId)
          .replace("INVOICE", fixtures!.invoiceId)
          .replace("USER", fixtures!.userId)
          .replace("LEAD", fixtures!.leadId)
          .replace("MOVED_LISTING", fixtures!.movedLocationId)
          .replace("PRIOR_PROMO", fixtures!.priorPromotionId)
          .replace("PRIOR_BILL", fixtures!.priorInvoiceId)
          .replace("PRIOR_ASK", fixtures!.priorLeadId)
          .replace("OWNED_SLUG", fixtures!.ownedSlug)
          .replace("REVIEW", String(fixtures!.reviewId));
      const concretePath = concrete(entry.path);
      const body = entry.body === undefined ? undefined : concrete(entry.body);
      const answers: Partial<Record<Persona, Answer>> = {};
      for (const persona of PERSONAS) answers[persona] = await answerFor(persona, { ...entry, body }, concretePath);
      expect(answers).toEqual(entry.expect);
    });
  }

  it("answers 404 for better-auth endpoints the site does not expose", async () => {
    for (const endpoint of ["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/admin/set-role"]) {
      const response = await fetch(baseUrl + endpoint, {
        method: "POST",
        headers: { origin: baseUrl, "content-type": "application/json", cookie: cookies.get("admin")! },
        body: JSON.stringify({ userId: "x", role: "admin", email: "a@b.c", password: "12345678" }),
      });
      expect(response.status, endpoint).toBe(404);
    }
  });

  it("refuses a state-changing request from another site", async () => {
    const response = await fetch(`${baseUrl}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: ACCOUNTS.admin.email, password: PASSWORD }),
    });
    expect(response.status).toBe(403);
  });

  it("gives bots no anonymous session", async () => {
    const response = await fetch(`${baseUrl}/api/auth/sign-in/anonymous`, {
      method: "POST",
      headers: { origin: baseUrl, "content-type": "application/json", "user-agent": "Googlebot/2.1" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});
