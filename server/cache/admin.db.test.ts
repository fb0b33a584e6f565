import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cookieFrom, siteRequest } from "../../tests/setup/auth";
import { createTestDatabase } from "../../tests/setup/db";
import type { SignedInViewer } from "../auth/viewer";
import { parseConfig } from "../config";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { auditLog, cachePurges } from "../db/schema";
import { readFlash } from "../http/flash";
import { adminCachePurgeAction } from "./admin";

/** The overview's purge form as its route action calls it: a Request, the guard's viewer, a request id. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});
beforeEach(async () => {
  await handle.db.delete(cachePurges);
});

const admin: SignedInViewer = {
  sessionId: "session-1",
  userId: "admin-1",
  isAnonymous: false,
  role: "admin",
  isAdmin: true,
  isOwner: true,
  email: "admin@example.com",
  name: "Ada",
};
const withCache = parseConfig({
  PUBLIC_URL: "https://rvstorage.example",
  CACHE_PURGE_URL: "http://127.0.0.1:9",
  CACHE_PURGE_TOKEN: "0123456789abcdef0123",
});
const withoutCache = parseConfig({ PUBLIC_URL: "https://rvstorage.example" });

const post = (form: Record<string, string>) => siteRequest("/admin", { method: "POST", form });

async function flashOf(response: Response): Promise<unknown> {
  const cookie = cookieFrom(response.headers);
  return (await readFlash(new Request("https://rvstorage.example/admin", { headers: { cookie } }))).flash;
}

/** A `data()` answer's status and payload. */
const failure = (answer: unknown) =>
  answer as {
    init: { status: number };
    data: { fieldErrors: Record<string, string[]>; values: Record<string, string> };
  };

describe("POST /admin intent=purge-cache", () => {
  it("queues the page of a full address of the site, with an audit row, and says so", async () => {
    const response = (await adminCachePurgeAction(
      post({ intent: "purge-cache", path: "https://rvstorage.example/location/sunny-storage?reviews=newest" }),
      admin,
      "req-7",
      withCache,
    )) as Response;

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin");
    expect(await flashOf(response)).toEqual({
      kind: "success",
      text: "Queued: /location/sunny-storage?reviews=newest — the cache refreshes it within a minute.",
    });
    expect((await handle.db.select().from(cachePurges)).map((row) => row.path)).toEqual([
      "/location/sunny-storage?reviews=newest",
    ]);
    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.requestId, "req-7"));
    expect(audit).toMatchObject([{ action: "cache.purge", actorEmail: "admin@example.com", subjectType: "page" }]);
  });

  it("says which problem the input has, beside the field, and keeps what was typed", async () => {
    for (const [path, message] of [
      ["https://evil.example/location/x", /another site \(evil\.example\)/],
      ["location/x", /neither a path/],
      ["/location/x\u0007", /control character/],
      [`/${"x".repeat(5000)}`, /at most 2,048/],
    ] as const) {
      const answer = failure(
        await adminCachePurgeAction(post({ intent: "purge-cache", path }), admin, null, withCache),
      );
      expect(answer.init.status).toBe(400);
      expect(answer.data.fieldErrors.path?.join(" ")).toMatch(message);
      expect(answer.data.values.path).toBe(path.slice(0, 10_000));
    }
    const empty = failure(await adminCachePurgeAction(post({ intent: "purge-cache" }), admin, null, withCache));
    expect(empty.init.status).toBe(400);
    expect(empty.data.fieldErrors.path).toBeDefined();
    expect(await handle.db.select().from(cachePurges)).toEqual([]);
  });

  it("queues nothing and says there is no shared cache without CACHE_PURGE_URL", async () => {
    const response = (await adminCachePurgeAction(
      post({ intent: "purge-cache", path: "/blog" }),
      admin,
      null,
      withoutCache,
    )) as Response;
    expect(response.status).toBe(303);
    expect(await flashOf(response)).toMatchObject({ kind: "info", text: expect.stringMatching(/No shared cache/) });
    expect(await handle.db.select().from(cachePurges)).toEqual([]);
  });

  it("refuses a viewer who is not an administrator", async () => {
    await expect(
      adminCachePurgeAction(
        post({ intent: "purge-cache", path: "/blog" }),
        { ...admin, role: "business_owner", isAdmin: false },
        null,
        withCache,
      ),
    ).rejects.toMatchObject({ status: 403 });
    expect(await handle.db.select().from(cachePurges)).toEqual([]);
  });
});
