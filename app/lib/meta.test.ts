import { describe, expect, it } from "vitest";
import { seo } from "./meta";

const canonical = (path: string) =>
  seo({ origin: "https://rv.example", path }).find((tag) => "rel" in tag && tag.rel === "canonical");

describe("seo", () => {
  it("builds the canonical URL on the site's origin from the page's path", () => {
    expect(canonical("/rv-storage/austin-tx")).toMatchObject({ href: "https://rv.example/rv-storage/austin-tx" });
  });

  it("keeps a path with leading slashes on the site's origin (found by the fuzz suite: GET /// was a 500)", () => {
    expect(canonical("//")).toMatchObject({ href: "https://rv.example/" });
    expect(canonical("//evil.example/x")).toMatchObject({ href: "https://rv.example/evil.example/x" });
  });
});
