import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Route } from "./+types/rv-storage";
import { loader } from "./rv-storage";
import { requestContext } from "../../server/http/request-context";
import { MAX_PLACE_QUERY_LENGTH, MAX_PLACE_SLUG_LENGTH, MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { getGazetteer } from "../../server/geo";

/** Calls to the gazetteer during a request: over a cap there must be none. */
let gazetteerCalls: () => number;

beforeEach(() => {
  const g = getGazetteer();
  const spies = (["lookup", "suggest", "findCity", "reverse"] as const).map((method) => vi.spyOn(g, method));
  gazetteerCalls = () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface Answer {
  status: number;
  message?: string;
  location?: string;
}

/** The loader's answer to a GET of `path`: a page's status and message, or a redirect. */
async function get(path: string): Promise<Answer> {
  const url = new URL(`http://localhost${path}`);
  const slug = url.pathname.split("/")[2];
  const args: Route.LoaderArgs = {
    request: new Request(url),
    url,
    pattern: "/rv-storage/:slug?",
    params: slug === undefined ? {} : { slug: decodeURIComponent(slug) },
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  let result: unknown;
  try {
    result = await loader(args);
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") ?? "" };
    throw thrown;
  }
  const page = result as { init?: { status?: number }; data?: { message?: string } };
  return { status: page.init?.status ?? 200, message: page.data?.message };
}

describe("results page: free text over its cap", () => {
  it("answers a 16 kB slug with 400 and a readable message, without reaching the gazetteer", async () => {
    // It used to be slugified, looked up, then handed whole to the gazetteer's suggestions.
    const answer = await get(`/rv-storage/${"springfield-".repeat(1500)}zz`);
    expect(answer).toEqual({
      status: 400,
      message: `That address is too long to name a place: at most ${MAX_PLACE_SLUG_LENGTH} characters. Try a city, state or ZIP code.`,
    });
    expect(gazetteerCalls()).toBe(0);
  });

  it("answers a long where with 400 before any pattern reads it", async () => {
    // "1", 16,000 spaces, "x": the former coordinate pattern took minutes on this.
    const where = encodeURIComponent(`1${" ".repeat(16_000)}x`);
    const answer = await get(`/rv-storage?where=${where}`);
    expect(answer).toEqual({
      status: 400,
      message: `That search is too long: at most ${MAX_PLACE_QUERY_LENGTH} characters. Try a city, state or ZIP code.`,
    });
    expect(gazetteerCalls()).toBe(0);
  });

  it("answers a long where with 400 even alongside a slug", async () => {
    const answer = await get(`/rv-storage/austin-tx?where=${"a".repeat(MAX_PLACE_QUERY_LENGTH + 1)}`);
    expect(answer.status).toBe(400);
    expect(gazetteerCalls()).toBe(0);
  });

  it("names q when the name filter is over its cap", async () => {
    const answer = await get(`/rv-storage/austin-tx?q=${"a".repeat(MAX_TEXT_FILTER_LENGTH + 1)}`);
    expect(answer).toEqual({ status: 400, message: `q: q must be at most ${MAX_TEXT_FILTER_LENGTH} characters` });
  });

  it("still reads text at the cap", async () => {
    const where = `Austin, TX${" ".repeat(MAX_PLACE_QUERY_LENGTH - "Austin, TX".length)}`;
    expect(await get(`/rv-storage?where=${encodeURIComponent(where)}`)).toEqual({
      status: 302,
      location: "/rv-storage/austin-tx",
    });
    const slug = `${"x".repeat(MAX_PLACE_SLUG_LENGTH - 3)}-tx`;
    const answer = await get(`/rv-storage/${slug}`);
    expect(answer.status).toBe(404);
    expect(answer.message).toBe(`Could not find location: ${slug.replace(/-/g, " ")}`);
    expect(gazetteerCalls()).toBeGreaterThan(0);
  });
});

/** The loader's data for a GET of `path` (a page, not a redirect). */
async function load(path: string): Promise<Record<string, unknown>> {
  const url = new URL(`http://localhost${path}`);
  const slug = url.pathname.split("/")[2];
  const result = (await loader({
    request: new Request(url),
    url,
    pattern: "/rv-storage/:slug?",
    params: slug === undefined ? {} : { slug: decodeURIComponent(slug) },
    context: requestContext({ requestId: "test", nonce: "test" }),
  })) as { data?: Record<string, unknown> } & Record<string, unknown>;
  return (result.data ?? result) as Record<string, unknown>;
}

describe("results page: typos and empty areas", () => {
  it("keeps a mistyped place's text and offers the town it was meant to be", async () => {
    const page = await load("/rv-storage?where=Austn");
    expect(page).toMatchObject({ kind: "error", query: "Austn", notFound: true });
    const suggestions = page.suggestions as { slug: string }[];
    expect(suggestions[0]?.slug).toBe("austin-tx");
  });

  it("does the same for a mistyped slug, preferring the slug's state", async () => {
    const page = await load("/rv-storage/austn-mn");
    expect(page).toMatchObject({ kind: "error", query: "austn mn", notFound: true });
    expect((page.suggestions as { slug: string }[])[0]?.slug).toBe("austin-mn");
  });

  it("is a plain error, not a notice, for a bad parameter", async () => {
    const page = await load("/rv-storage/austin-tx?sort=nearest");
    expect(page).toMatchObject({ kind: "error", notFound: false, query: "" });
  });

  it("names the nearest listing beyond the radius when none is within it", async () => {
    // Barrow (Utqiagvik), Alaska; without a database the index holds the built-in sample in Austin.
    const page = await load("/rv-storage?lat=71.2906&lng=-156.7886");
    expect(page.kind).toBe("results");
    expect((page.result as { total: number }).total).toBe(0);
    const nearest = page.nearest as { name: string; distanceMiles: number } | null;
    expect(nearest?.name).toBe("Sample RV Storage");
    expect(nearest!.distanceMiles).toBeGreaterThan(100);
  });
});
