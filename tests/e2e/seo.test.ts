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
    // The articles: the blog and each published article (the demo ones here), each answering 200.
    expect(children).toContain(`${baseUrl}/sitemaps/articles.xml`);
    const articleUrls = locs(await (await fetch(`${baseUrl}/sitemaps/articles.xml`)).text());
    expect(articleUrls).toContain(`${baseUrl}/blog`);
    const article = articleUrls.find((u) => u.includes("/blog/"))!;
    expect((await fetch(article)).status).toBe(200);
  });
});

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

describe("structured data", () => {
  it("describes a facility as a SelfStorage business with a breadcrumb trail", async () => {
    const results = await (await fetch(`${baseUrl}/rv-storage/austin-tx`)).text();
    const list = jsonLd(results).find((j) => j["@type"] === "ItemList") as {
      itemListElement: { position: number; url: string }[];
    };
    expect(list.itemListElement).toHaveLength(12);
    expect(list.itemListElement[0]!.position).toBe(1);

    const url = list.itemListElement[0]!.url;
    const html = await (await fetch(url)).text();
    const data = jsonLd(html);
    const business = data.find((j) => j["@type"] === "SelfStorage") as {
      "@context": string;
      url: string;
      name: string;
      address: { postalCode: string };
      geo: unknown;
      telephone: string;
      image: string[];
      openingHoursSpecification: unknown[];
      aggregateRating?: { ratingValue: number };
    };
    expect(business["@context"]).toBe("https://schema.org");
    expect(business.url).toBe(url);
    expect(business.name).toEqual(expect.any(String));
    expect(business.address).toMatchObject({
      "@type": "PostalAddress",
      addressRegion: expect.stringMatching(/^[A-Z]{2}$/),
      addressCountry: "US",
    });
    expect(business.address.postalCode).toMatch(/^\d{5}$/);
    expect(business.geo).toMatchObject({
      "@type": "GeoCoordinates",
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    expect(business.telephone).toMatch(/555-01\d\d/);
    expect(business.image[0]).toMatch(/^http.*\/place-images\/.*\.jpg$/);
    expect(business.openingHoursSpecification.length).toBeGreaterThan(0);
    if (business.aggregateRating) expect(business.aggregateRating.ratingValue).toBeLessThanOrEqual(5);

    const crumbs = data.find((j) => j["@type"] === "BreadcrumbList") as {
      itemListElement: { name: string; item: string }[];
    };
    expect(crumbs.itemListElement.map((c) => c.name)[0]).toBe("Home");
    expect(crumbs.itemListElement.at(-1)!.item).toBe(url);
    expect(crumbs.itemListElement[1]!.item).toMatch(/\/rv-storage\/[a-z]{2}$/);
  });
});
