import { describe, expect, it } from "vitest";
import { getConfig, publicOrigin } from "../config";
import { siteOrigin } from "./origin";

const evil = new Request("http://evil.example/robots.txt", { headers: { host: "evil.example" } });

describe("siteOrigin", () => {
  it("is the configured public origin whatever Host the request names", () => {
    expect(siteOrigin(evil)).toBe(publicOrigin(getConfig()));
    expect(siteOrigin(evil)).not.toContain("evil.example");
  });
});
