import { describe, expect, it } from "vitest";
import type { Route } from "./+types/api.places-suggest";
import { loader } from "./api.places-suggest";
import { requestContext } from "../../server/http/request-context";
import type { PlaceSuggestion } from "../../server/search";

function get(query: string): Response {
  const url = new URL(`http://localhost/api/places/suggest?${query}`);
  const args: Route.LoaderArgs = {
    request: new Request(url),
    url,
    pattern: "/api/places/suggest",
    params: {},
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  return loader(args);
}

async function suggestions(q: string): Promise<PlaceSuggestion[]> {
  const response = get(`q=${encodeURIComponent(q)}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
  return ((await response.json()) as { suggestions: PlaceSuggestion[] }).suggestions;
}

describe("GET /api/places/suggest", () => {
  it("suggests towns as 'City, ST' with their results slug", async () => {
    const list = await suggestions("austin");
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(8);
    expect(list[0]).toMatchObject({
      label: "Austin, TX",
      city: "Austin",
      state: "TX",
      stateName: "Texas",
      slug: "austin-tx",
    });
    expect(list[0]!.lat).toBeCloseTo(30.27, 1);
    expect(list[0]!.lng).toBeCloseTo(-97.74, 1);
  });

  it("suggests ZIP codes with their town, leading to the town's page", async () => {
    const [first] = await suggestions("78701");
    expect(first).toMatchObject({ label: "78701 (Austin, TX)", city: "Austin", state: "TX", slug: "austin-tx" });
  });

  it("suggests states by name, without a city", async () => {
    const list = await suggestions("texas");
    expect(list).toContainEqual(
      expect.objectContaining({ label: "Texas", city: null, state: "TX", stateName: "Texas", slug: "tx" }),
    );
  });

  it("gives nothing for 2 characters or fewer", async () => {
    expect(await suggestions("")).toEqual([]);
    expect(await suggestions("au")).toEqual([]);
    expect(await suggestions("  au   ")).toEqual([]);
    expect((await get("").json()) as unknown).toEqual({ suggestions: [] });
  });

  it("rejects a query over 100 characters", async () => {
    const response = get(`q=${"a".repeat(101)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid_parameters",
      errors: [{ parameter: "q", message: "q must be at most 100 characters" }],
    });
    expect(get(`q=${"a".repeat(100)}`).status).toBe(200);
  });
});
