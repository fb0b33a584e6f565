import { describe, expect, it } from "vitest";
import type { Route } from "./+types/api.places-reverse";
import { loader } from "./api.places-reverse";
import { requestContext } from "../../server/http/request-context";

function get(query: string): Response {
  const url = new URL(`http://localhost/api/places/reverse?${query}`);
  const args: Route.LoaderArgs = {
    request: new Request(url),
    url,
    pattern: "/api/places/reverse",
    params: {},
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  return loader(args);
}

describe("GET /api/places/reverse", () => {
  it("names the nearest sizeable town of the state", async () => {
    const response = get("lat=30.2672&lng=-97.7431");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await response.json()).toEqual({
      place: expect.objectContaining({
        label: "Austin, TX",
        city: "Austin",
        state: "TX",
        stateName: "Texas",
        slug: "austin-tx",
      }),
    });
  });

  it("gives null far from the USA", async () => {
    expect(await get("lat=0&lng=0").json()).toEqual({ place: null });
  });

  it("names the bad coordinate in a 400", async () => {
    const cases: [string, string[]][] = [
      ["lat=91&lng=0", ["lat"]],
      ["lat=0&lng=-181", ["lng"]],
      ["lat=abc&lng=0", ["lat"]],
      ["lat=30", ["lng"]],
      ["", ["lat", "lng"]],
    ];
    for (const [query, parameters] of cases) {
      const response = get(query);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; errors: { parameter: string }[] };
      expect(body.error).toBe("invalid_parameters");
      expect(body.errors.map((e) => e.parameter)).toEqual(parameters);
    }
  });
});
