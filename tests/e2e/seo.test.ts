import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe("crawlers", () => {
  it("robots.txt keeps crawlers out of the consoles and points at the sitemap", async () => {
    const res = await fetch(`${baseUrl}/robots.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const line of ["Disallow: /admin", "Disallow: /owner", "Disallow: /api/"]) expect(text).toContain(line);
    expect(text).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
  });

  it("the sitemap index leads to facility and place pages that answer 200", async () => {
    const index = await fetch(`${baseUrl}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("application/xml");
    const children = locs(await index.text());
    expect(children).toContain(`${baseUrl}/sitemaps/places.xml`);
    const facilities = children.find((c) => c.includes("/sitemaps/facilities-1.xml"))!;
    const facilityUrls = locs(await (await fetch(facilities)).text());
    expect(facilityUrls.length).toBeGreaterThan(2000);
    const facility = await fetch(facilityUrls[0]!);
    expect(facility.status).toBe(200);
    const placeUrls = locs(await (await fetch(`${baseUrl}/sitemaps/places.xml`)).text());
    expect(placeUrls).toContain(`${baseUrl}/rv-storage/tx`);
    const city = placeUrls.find((u) => /-[a-z]{2}$/.test(u))!;
    expect((await fetch(city)).status).toBe(200);
    expect((await fetch(`${baseUrl}/sitemaps/facilities-99.xml`)).status).toBe(404);
  });
});
