import { describe, expect, it } from "vitest";
import { loader as robots } from "../../app/routes/robots";
import { getConfig, publicOrigin } from "../config";
import { siteOrigin } from "./origin";

const evil = new Request("http://evil.example/robots.txt", { headers: { host: "evil.example" } });

describe("siteOrigin", () => {
  it("is the configured public origin whatever Host the request names", () => {
    expect(siteOrigin(evil)).toBe(publicOrigin(getConfig()));
    expect(siteOrigin(evil)).not.toContain("evil.example");
  });

  it("keeps the request's Host out of robots.txt, which shared caches keep for a day", async () => {
    const answer = robots({ request: evil } as Parameters<typeof robots>[0]);
    const text = await answer.text();
    expect(text).toContain(`Sitemap: ${publicOrigin(getConfig())}/sitemap.xml`);
    expect(text).not.toContain("evil.example");
  });
});
