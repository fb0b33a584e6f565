import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDIRECT_MAX_LENGTH, safeRedirect } from "./redirect";

const ORIGIN = "https://rv.example";
const FALLBACK = "/fallback";
/** The pages a redirect is answered from: a browser resolves Location against the page's URL. */
const PAGES = [`${ORIGIN}/login`, `${ORIGIN}/business/login?redirectTo=x`, `${ORIGIN}/a/b/c/`];

/**
 * Where a browser goes for a Location header: the WHATWG parser, as is, and after the clean-up
 * browsers do themselves (tab, CR and LF removed; leading and trailing C0 controls and spaces
 * trimmed).
 */
function browserTargets(location: string): URL[] {
  const stripped = location.replace(/[\t\n\r]/g, "");
  const isTrimmed = (i: number) => stripped.charCodeAt(i) <= 0x20;
  let start = 0;
  let end = stripped.length;
  while (start < end && isTrimmed(start)) start++;
  while (end > start && isTrimmed(end - 1)) end--;
  const trimmed = stripped.slice(start, end);
  return PAGES.flatMap((page) => [location, stripped, trimmed].map((value) => new URL(value, page)));
}

const NASTY_PREFIXES = [
  "/",
  "//",
  "///",
  "/\\",
  "\\",
  "\\\\",
  "/%09/",
  "/%2f",
  "/%2F%2F",
  "%2f%2f",
  "/%5c",
  "/\t/",
  "\t//",
  "/\n/",
  "/\r\n/",
  " //",
  "/./",
  "/.//",
  "/..//",
  "/../",
  "/%2e%2e/",
  "/%2e/%2f",
  "javascript:",
  "https:",
  "https://",
  "http:/",
  "data:",
  "//evil.example",
  "/\u2028/",
  "/\u0085/",
  "/％２ｆ",
  "/\u3002",
  "@",
  "/@",
  "?",
  "#",
];
const nastyTarget = fc
  .tuple(
    fc.array(fc.constantFrom(...NASTY_PREFIXES), { maxLength: 3 }),
    fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.constantFrom("evil.example", "evil.example/path", "evil.example:443", "user@evil.example", ""),
    ),
  )
  .map(([prefixes, rest]) => prefixes.join("") + rest);

describe("safeRedirect", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeRedirect("/admin/users?x=1", FALLBACK)).toBe("/admin/users?x=1");
    expect(safeRedirect("/owner/claim/abc?y=2#top", FALLBACK)).toBe("/owner/claim/abc?y=2#top");
    expect(safeRedirect("/rv-storage/austin-tx?where=Austin%2C%20TX", FALLBACK)).toBe(
      "/rv-storage/austin-tx?where=Austin%2C%20TX",
    );
    expect(safeRedirect("/location/café", FALLBACK)).toBe("/location/caf%C3%A9");
    expect(safeRedirect("/a/../admin", FALLBACK)).toBe("/admin");
  });

  it("refuses other sites, schemes, control characters and backslashes (regressions)", () => {
    for (const bad of [
      "/%09/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/%0a/evil.example",
      "/%0D%0A/evil.example",
      "/%00/x",
      "/%7f",
      "/%c2%85/evil.example",
      "/\u0085/evil.example",
      "/\u2028/evil.example",
      "/%E2%80%A8/evil.example",
      "/\u2029/x",
      "/%5cevil.example",
      "/%5Cevil.example",
      "/x\\y",
      "/%255c",
      "/%2509/evil.example",
      "/.//evil.example",
      "/..//evil.example",
      "/%2f%2fevil.example",
      "/%2F/evil.example",
      "//evil.example",
      "///evil.example",
      "https://evil.example",
      "https://rv.example.evil.example/",
      "javascript:alert(1)",
      "/\\evil.example",
      "\\\\evil.example",
      " //evil.example",
      "",
      null,
      undefined,
      "admin",
      `/${"a".repeat(REDIRECT_MAX_LENGTH)}`,
    ]) {
      expect(safeRedirect(bad, FALLBACK), JSON.stringify(bad)).toBe(FALLBACK);
    }
  });

  it("accepts a target of exactly the maximum length", () => {
    const path = `/${"a".repeat(REDIRECT_MAX_LENGTH - 1)}`;
    expect(safeRedirect(path, FALLBACK)).toBe(path);
  });

  it("never returns a target that a browser would take off this origin", () => {
    fc.assert(
      fc.property(nastyTarget, (target) => {
        const result = safeRedirect(target, FALLBACK);
        if (result === FALLBACK) return;
        expect(result.startsWith("/")).toBe(true);
        expect(result.startsWith("//")).toBe(false);
        // eslint-disable-next-line no-control-regex -- checking for exactly these characters
        expect(result).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/);
        for (const url of browserTargets(result)) expect(url.origin, `${target} -> ${result}`).toBe(ORIGIN);
        // What was accepted also stays here read as it came, before we normalised it.
        for (const url of browserTargets(target)) expect(url.origin, target).toBe(ORIGIN);
      }),
      { numRuns: 5_000 },
    );
  });

  it("keeps ordinary paths as the URL parser normalises them (no false refusals)", () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9._~-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const path = `/${segments.join("/")}`;
        const expected = new URL(path, ORIGIN).pathname;
        if (expected.startsWith("//")) return;
        expect(safeRedirect(path, FALLBACK)).toBe(expected);
      }),
    );
  });
});
