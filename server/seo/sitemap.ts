import { and, asc, gt, isNotNull, max, sql } from "drizzle-orm";
import { buildPlaceSlug } from "../../domain/slug";
import type { Database } from "../db/client";
import { listedLocation, locations } from "../db/schema";
import { latestArticles } from "../blog/queries";
import { placeFromSlug } from "../geo/resolve-place";

/** The protocol allows 50,000 URLs per sitemap; stay well under it. */
export const URLS_PER_SITEMAP = 40_000;

export interface SitemapUrl {
  path: string;
  lastmod?: Date;
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!,
  );
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function urlSetXml(origin: string, urls: readonly SitemapUrl[]): string {
  const entries = urls.map(
    (u) =>
      `<url><loc>${escapeXml(new URL(u.path, origin).toString())}</loc>${u.lastmod ? `<lastmod>${day(u.lastmod)}</lastmod>` : ""}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}

export function sitemapIndexXml(origin: string, paths: readonly string[]): string {
  const entries = paths.map((p) => `<sitemap><loc>${escapeXml(new URL(p, origin).toString())}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/** The child sitemaps: places (states and cities), the articles, and the facilities in pages. */
export async function sitemapPaths(db: Database): Promise<string[]> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(locations)
    .where(listedLocation);
  const pages = Math.max(1, Math.ceil((row?.n ?? 0) / URLS_PER_SITEMAP));
  return [
    "/sitemaps/places.xml",
    "/sitemaps/articles.xml",
    ...Array.from({ length: pages }, (_, i) => `/sitemaps/facilities-${i + 1}.xml`),
  ];
}

/** One page of facility detail URLs, in place id order; hidden and deleted listings are left out. */
export async function facilityUrls(db: Database, page: number): Promise<SitemapUrl[]> {
  const rows = await db
    .select({ slug: locations.slug, updatedAt: locations.updatedAt })
    .from(locations)
    .where(listedLocation)
    .orderBy(asc(locations.placeId))
    .limit(URLS_PER_SITEMAP)
    .offset((page - 1) * URLS_PER_SITEMAP);
  return rows.map((r) => ({ path: `/location/${r.slug}`, lastmod: r.updatedAt }));
}

/**
 * Results pages worth crawling: every state with listings, and every town with listings that the
 * gazetteer knows (a town it cannot resolve would be a 404 for the crawler).
 */
export async function placeUrls(db: Database): Promise<SitemapUrl[]> {
  const rows = await db
    .select({ city: locations.city, state: locations.state, lastmod: max(locations.updatedAt) })
    .from(locations)
    .where(and(isNotNull(locations.state), gt(sql`length(${locations.state})`, 0), listedLocation))
    .groupBy(locations.state, locations.city)
    .orderBy(asc(locations.state), asc(locations.city));
  const urls: SitemapUrl[] = [];
  const states = new Map<string, Date | undefined>();
  const seen = new Set<string>();
  for (const row of rows) {
    const state = row.state!;
    const lastmod = row.lastmod ?? undefined;
    const previous = states.get(state);
    states.set(state, previous && lastmod && previous > lastmod ? previous : (lastmod ?? previous));
    if (!row.city) continue;
    const place = placeFromSlug(buildPlaceSlug(row.city, state));
    if (place && !seen.has(place.slug)) {
      seen.add(place.slug);
      urls.push({ path: `/rv-storage/${place.slug}`, ...(lastmod ? { lastmod } : {}) });
    }
  }
  const stateUrls = [...states].map(([state, lastmod]) => ({
    path: `/rv-storage/${buildPlaceSlug(null, state)}`,
    ...(lastmod ? { lastmod } : {}),
  }));
  return [...stateUrls, ...urls];
}

/** The blog and every published article, with the date its text last changed (docs/product.md section 13). */
export async function articleUrls(db: Database, now: Date): Promise<SitemapUrl[]> {
  const rows = await latestArticles(db, now, URLS_PER_SITEMAP - 1);
  const lastmodOf = (r: (typeof rows)[number]) => r.contentUpdatedAt ?? r.publishedAt ?? undefined;
  const newest = rows.map(lastmodOf).reduce<Date | undefined>((a, b) => (b && (!a || b > a) ? b : a), undefined);
  return [
    { path: "/blog", ...(newest ? { lastmod: newest } : {}) },
    ...rows.map((r) => {
      const lastmod = lastmodOf(r);
      return { path: `/blog/${r.slug}`, ...(lastmod ? { lastmod } : {}) };
    }),
  ];
}
