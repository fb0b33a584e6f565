import { serverNow } from "../clock";
import { getDatabase } from "../db";
import { siteOrigin } from "../http/origin";
import { articleUrls, facilityUrls, placeUrls, sitemapIndexXml, sitemapPaths, urlSetXml } from "./sitemap";

/** The request glue of /sitemap.xml and /sitemaps/{name} (docs/api.md). */
const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };
const unknownSitemap = () =>
  new Response("Unknown sitemap", { status: 404, headers: { "Content-Type": "text/plain" } });

/** GET /sitemap.xml: the sitemap index. */
export async function sitemapIndexResponse(request: Request): Promise<Response> {
  const paths = await sitemapPaths(getDatabase());
  return new Response(sitemapIndexXml(siteOrigin(request), paths), { headers: XML_HEADERS });
}

/** GET /sitemaps/places.xml, /sitemaps/articles.xml and /sitemaps/facilities-{n}.xml. */
export async function sitemapResponse(request: Request, name: string): Promise<Response> {
  const origin = siteOrigin(request);
  const db = getDatabase();
  if (name === "places.xml") {
    return new Response(urlSetXml(origin, await placeUrls(db)), { headers: XML_HEADERS });
  }
  if (name === "articles.xml") {
    // Short-lived: a scheduled article joins the list at its time.
    const headers = { ...XML_HEADERS, "Cache-Control": "public, max-age=300" };
    return new Response(urlSetXml(origin, await articleUrls(db, serverNow())), { headers });
  }
  const match = /^facilities-([1-9]\d{0,4})\.xml$/.exec(name);
  if (!match) return unknownSitemap();
  const urls = await facilityUrls(db, Number(match[1]));
  if (urls.length === 0 && match[1] !== "1") return unknownSitemap();
  return new Response(urlSetXml(origin, urls), { headers: XML_HEADERS });
}
