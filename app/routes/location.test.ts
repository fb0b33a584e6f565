import { describe, expect, it } from "vitest";
import type { Route } from "./+types/location";
import { loader } from "./location";
import { requestContext } from "../../server/http/request-context";
import { MAX_LOCATION_SLUG_LENGTH } from "../../domain/input-limits";

/** What the loader throws for `slug`; no database is connected here, so reaching it would fail. */
async function thrownFor(slug: string): Promise<unknown> {
  const url = new URL(`http://localhost/location/${encodeURIComponent(slug)}`);
  const args: Route.LoaderArgs = {
    request: new Request(url),
    url,
    pattern: "/location/:slug",
    params: { slug },
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  return loader(args).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe("facility page: a slug over its cap", () => {
  it("answers 400 'Invalid location URL' before any look-up", async () => {
    // A well-formed slug (its last piece is a place id), just far too long to be one of ours.
    const slug = `${"storage-".repeat(200)}tx-ChIJ0123456789abcdef`;
    expect(slug.length).toBeGreaterThan(MAX_LOCATION_SLUG_LENGTH);
    // A refusal the server's wrapper (server/http/app-errors.ts) answers as the 400 error page.
    expect(await thrownFor(slug)).toMatchObject({ code: "bad_request", status: 400, message: "Invalid location URL" });
  });
});

describe("facility page: the catalogue cannot be read", () => {
  it("answers 500 'Failed to load location' when nothing is cached, keeping the failure as its cause", async () => {
    // No database is connected: the look-up fails and this slug was never read before.
    const thrown = await thrownFor("never-read-storage-tx-ChIJneverReadBefore0000");
    // A refusal the server's wrapper (server/http/app-errors.ts) answers as the 500 error page and logs.
    expect(thrown).toMatchObject({ code: "unavailable", status: 500, message: "Failed to load location" });
    expect((thrown as Error).cause).toBeInstanceOf(Error);
  });
});
