import { describe, expect, it } from "vitest";
import { getConfig, publicOrigin } from "../../server/config";
import { loader as robots } from "./robots";

const evil = new Request("http://evil.example/robots.txt", { headers: { host: "evil.example" } });

describe("robots.txt", () => {
  it("keeps the request's Host out of robots.txt, which shared caches keep for a day", async () => {
    const answer = robots({ request: evil } as Parameters<typeof robots>[0]);
    const text = await answer.text();
    expect(text).toContain(`Sitemap: ${publicOrigin(getConfig())}/sitemap.xml`);
    expect(text).not.toContain("evil.example");
  });
});
