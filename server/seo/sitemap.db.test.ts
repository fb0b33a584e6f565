import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { ensureDemoData } from "../locations/demo-seed";
import { SAMPLE_LOCATION } from "../locations/sample";
import { facilityUrls, placeUrls, sitemapIndexXml, sitemapPaths, urlSetXml } from "./sitemap";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureDemoData(handle.db, { mode: "auto", count: 150 });
});
afterAll(async () => {
  await handle?.close();
});

describe("sitemaps", () => {
  it("lists the places sitemap and one facilities page per 40,000 listings", async () => {
    expect(await sitemapPaths(handle.db)).toEqual([
      "/sitemaps/places.xml",
      "/sitemaps/articles.xml",
      "/sitemaps/facilities-1.xml",
    ]);
  });

  it("lists every facility once, with its last change", async () => {
    const urls = await facilityUrls(handle.db, 1);
    expect(urls).toHaveLength(150);
    expect(new Set(urls.map((u) => u.path)).size).toBe(150);
    for (const url of urls) {
      expect(url.path).toMatch(/^\/location\/[a-z0-9_-]+$/);
      expect(url.lastmod).toBeInstanceOf(Date);
    }
    expect(await facilityUrls(handle.db, 2)).toEqual([]);
  });

  it("lists state pages and the town pages the gazetteer can resolve", async () => {
    await handle.db.insert(locations).values({
      ...SAMPLE_LOCATION,
      placeId: "real_atlantis_0001",
      slug: "real-atlantis",
      city: "Atlantis Nowhere",
      isDemo: false,
    });
    const paths = (await placeUrls(handle.db)).map((u) => u.path);
    expect(paths).toContain("/rv-storage/tx");
    expect(paths.some((p) => /^\/rv-storage\/[a-z0-9-]+-[a-z]{2}$/.test(p))).toBe(true);
    expect(paths).not.toContain("/rv-storage/atlantis-nowhere-tx");
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("writes valid, escaped XML with absolute URLs", () => {
    const xml = urlSetXml("https://rv.example", [{ path: "/a?b=1&c=2", lastmod: new Date("2026-05-04T10:00:00Z") }]);
    expect(xml).toContain("<loc>https://rv.example/a?b=1&amp;c=2</loc><lastmod>2026-05-04</lastmod>");
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(sitemapIndexXml("https://rv.example", ["/sitemaps/places.xml"])).toContain(
      "<sitemap><loc>https://rv.example/sitemaps/places.xml</loc></sitemap>",
    );
  });
});
