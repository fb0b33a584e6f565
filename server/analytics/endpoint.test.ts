import { describe, expect, it } from "vitest";
import { rememberedViewer } from "./endpoint";

const request = (cookie?: string) =>
  new Request("http://localhost/api/analytics/events", { headers: cookie ? { cookie } : {} });

describe("rememberedViewer", () => {
  function setup(options: { ttlMs?: number; max?: number } = {}) {
    let clock = 0;
    const reads: string[] = [];
    const viewer = rememberedViewer(
      async (r) => {
        const cookie = r.headers.get("cookie") ?? "";
        reads.push(cookie);
        return cookie.startsWith("session=")
          ? { sessionId: cookie.slice("session=".length), userId: null }
          : { sessionId: null, userId: null };
      },
      { ...options, now: () => clock },
    );
    return { viewer, reads, advance: (ms: number) => (clock += ms) };
  }

  it("reads the session of a Cookie header once within the time to live, then again", async () => {
    const { viewer, reads, advance } = setup({ ttlMs: 30_000 });
    expect(await viewer(request("session=a"))).toEqual({ sessionId: "a", userId: null });
    advance(29_999);
    expect(await viewer(request("session=a"))).toEqual({ sessionId: "a", userId: null });
    expect(reads).toEqual(["session=a"]);
    advance(1);
    await viewer(request("session=a"));
    expect(reads).toEqual(["session=a", "session=a"]);
    // Another cookie is another viewer.
    expect(await viewer(request("session=b"))).toEqual({ sessionId: "b", userId: null });
    expect(reads).toHaveLength(3);
  });

  it("does not remember requests without a cookie, no session, or a failed read", async () => {
    const { viewer, reads } = setup();
    await viewer(request());
    await viewer(request());
    await viewer(request("junk"));
    await Promise.resolve();
    await viewer(request("junk"));
    expect(reads).toEqual(["", "", "junk", "junk"]);

    let fail = true;
    const reading = rememberedViewer(async () => {
      if (fail) throw new Error("no database");
      return { sessionId: "s", userId: null };
    });
    await expect(reading(request("session=s"))).rejects.toThrow("no database");
    fail = false;
    expect(await reading(request("session=s"))).toEqual({ sessionId: "s", userId: null });
  });

  it("remembers at most `max` cookies, forgetting the oldest", async () => {
    const { viewer, reads } = setup({ max: 2 });
    await viewer(request("session=1"));
    await viewer(request("session=2"));
    await viewer(request("session=3"));
    await viewer(request("session=3"));
    await viewer(request("session=2"));
    await viewer(request("session=1"));
    expect(reads).toEqual(["session=1", "session=2", "session=3", "session=1"]);
  });
});
