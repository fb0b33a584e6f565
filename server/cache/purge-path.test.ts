import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CACHE_PURGE_PATH_MAX, purgePathFrom, PURGE_INPUT_MAX, refreshTargets } from "./purge-path";

const ORIGIN = "https://rvstorage.example";
const accept = (input: string) => purgePathFrom(input, ORIGIN);
const refusal = (input: string) => {
  const result = accept(input);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(input)} as ${result.path}`);
  return result.message;
};

describe("purgePathFrom", () => {
  it.each([
    ["/location/sunny-rv-storage-austin-tx-abc", "/location/sunny-rv-storage-austin-tx-abc"],
    ["  /blog  ", "/blog"],
    ["/", "/"],
    ["/rv-storage/austin-tx?size=10x20&page=2", "/rv-storage/austin-tx?size=10x20&page=2"],
    ["/blog/a/../b", "/blog/b"],
    ["/location/a b", "/location/a%20b"],
    ["https://rvstorage.example/location/x#reviews", "/location/x"],
    ["HTTPS://RVSTORAGE.EXAMPLE/about", "/about"],
    ["https://rvstorage.example", "/"],
  ])("takes %j as %j", (input, path) => {
    expect(accept(input)).toEqual({ ok: true, path });
  });

  it("refuses another site, by address or in disguise, naming it", () => {
    expect(refusal("https://evil.example/location/x")).toMatch(/another site \(evil\.example\).*rvstorage\.example/);
    expect(refusal("http://rvstorage.example/location/x")).toMatch(/another site/);
    expect(refusal("https://rvstorage.example:8443/x")).toMatch(/another site/);
    expect(refusal("//evil.example/x")).toMatch(/another site/);
    expect(refusal("/\\evil.example/x")).toMatch(/another site \(evil\.example\)/);
  });

  it("refuses what is not a path or an address", () => {
    expect(refusal("location/x")).toMatch(/neither a path \(starting with \/\) nor an address/);
    expect(refusal("javascript:alert(1)")).toMatch(/neither a path/);
    expect(refusal("rvstorage.example/x")).toMatch(/neither a path/);
    expect(refusal("   ")).toMatch(/Enter a path/);
  });

  it("refuses control characters, naming the first", () => {
    expect(refusal("/location/x\ny")).toMatch(/control character \(U\+000A at character 12\)/);
    expect(refusal("/a\u0000")).toMatch(/U\+0000/);
    expect(refusal("/a\u009b")).toMatch(/U\+009B/);
  });

  it("refuses over-long input and paths that grow too long once encoded", () => {
    expect(refusal(`/${"a".repeat(PURGE_INPUT_MAX)}`)).toMatch(/characters long; a page's address has at most 2,048/);
    expect(refusal(`/${"é".repeat(1500)}`)).toMatch(/once encoded/);
    expect(accept(`/${"a".repeat(CACHE_PURGE_PATH_MAX - 1)}`).ok).toBe(true);
  });

  it("gives a path of this site or a reason for any input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (input) => {
        const result = accept(input);
        if (!result.ok) return result.message.length > 0;
        return (
          result.path.startsWith("/") &&
          !result.path.startsWith("//") &&
          result.path.length <= CACHE_PURGE_PATH_MAX &&
          new URL(result.path, ORIGIN).origin === ORIGIN
        );
      }),
    );
  });
});

describe("refreshTargets", () => {
  it.each([
    ["/location/x", ["/location/x", "/location/x.data"]],
    ["/", ["/", "/_root.data"]],
    ["/rv-storage/austin-tx?size=10x20", ["/rv-storage/austin-tx?size=10x20", "/rv-storage/austin-tx.data?size=10x20"]],
    ["/blog/", ["/blog/", "/blog.data"]],
    ["/sitemap.xml", ["/sitemap.xml"]],
    ["/location/x.data", ["/location/x.data"]],
  ])("refreshes %j as %j", (path, targets) => {
    expect(refreshTargets(path)).toEqual(targets);
  });
});
