import { describe, expect, it } from "vitest";
import type { RawRequest } from "./raw-http";
import { failureClass, judge, largeParts, stallClass } from "./verdict";

const response = (status: number, headers: Record<string, string> = {}) =>
  ({ kind: "response", status, headers, bodyBytes: 0, ms: 1 }) as const;
const request = (overrides: Partial<RawRequest> = {}): RawRequest => ({
  method: "GET",
  target: "/",
  version: "HTTP/1.1",
  headers: [
    ["Host", "127.0.0.1:4000"],
    ["Connection", "close"],
  ],
  body: Buffer.alloc(0),
  ...overrides,
});

describe("judge", () => {
  it("accepts answers below 500 and a 503 with Retry-After; fails other 5xx", () => {
    expect(judge(response(404), { bodyShort: false, bodyBytes: 0 })).toBeNull();
    expect(judge(response(429), { bodyShort: false, bodyBytes: 0 })).toBeNull();
    expect(judge(response(503, { "retry-after": "2" }), { bodyShort: false, bodyBytes: 0 })).toBeNull();
    expect(judge(response(503), { bodyShort: false, bodyBytes: 0 })).toBe("503");
    expect(judge(response(500), { bodyShort: false, bodyBytes: 0 })).toBe("500");
  });

  it("fails a timeout and a closed connection, except a wait for a body that never came", () => {
    expect(judge({ kind: "timeout", ms: 2000 }, { bodyShort: false, bodyBytes: 0 })).toBe("no answer in time");
    expect(judge({ kind: "timeout", ms: 2000 }, { bodyShort: true, bodyBytes: 0 })).toBeNull();
    expect(judge({ kind: "closed", ms: 5 }, { bodyShort: false, bodyBytes: 0 })).toBe("closed without an answer");
    expect(judge({ kind: "closed", ms: 5, status: 200 }, { bodyShort: false, bodyBytes: 0 })).toBe(
      "answer 200 cut short",
    );
    // A reset while sending a large body is the server refusing it, not a crash.
    const reset = { kind: "closed", ms: 5, error: "write ECONNRESET" } as const;
    expect(judge(reset, { bodyShort: false, bodyBytes: 3 * 1024 * 1024 })).toBeNull();
    expect(judge(reset, { bodyShort: false, bodyBytes: 100 })).toBe("closed without an answer");
  });
});

describe("failure classes", () => {
  it("groups requests that differ only in values, and names a Host that is not the site's", () => {
    const a = failureClass("500", request({ target: "/login?x=1&y=2" }), "127.0.0.1:4000");
    const b = failureClass("500", request({ target: "/login?y=zz&x=%" }), "127.0.0.1:4000");
    expect(a).toBe(b);
    expect(a).toBe("500: GET /login?x&y HTTP/1.1 [host]");
    const badHost = request({ headers: [["Host", "xn--"]] });
    expect(failureClass("500", badHost, "127.0.0.1:4000")).toBe("500: GET / HTTP/1.1 [host(not this site)]");
    expect(failureClass("500", request({ method: "PATCH", target: "/login" }), "127.0.0.1:4000")).toBe(
      failureClass("500", request({ method: "DELETE", target: "/login" }), "127.0.0.1:4000"),
    );
    expect(failureClass("500", request({ target: "http://127.0.0.1:4000/a" }), "127.0.0.1:4000")).toBe(
      "500: GET http://site/a HTTP/1.1 [host]",
    );
  });

  it("names the long parts of a stalling request", () => {
    const long = request({
      target: `/rv-storage?where=${"%20".repeat(400)}&page=2`,
      headers: [["Cookie", "a".repeat(2000)]],
      body: Buffer.alloc(70 * 1024),
    });
    expect(largeParts(long)).toEqual(["query where", "header cookie", "body"]);
    expect(stallClass("/rv-storage/:slug?", long)).toBe(
      "stall on /rv-storage/:slug? with long query where, header cookie, body",
    );
  });
});
