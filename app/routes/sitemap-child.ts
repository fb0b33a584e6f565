import { getDatabase } from "../../server/db";
import { siteOrigin } from "../../server/http/origin";
import { serverNow } from "../../server/clock";
import { articleUrls, facilityUrls, placeUrls, urlSetXml } from "../../server/seo/sitemap";
import type { Route } from "./+types/sitemap-child";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };

/** GET /sitemaps/places.xml, /sitemaps/articles.xml and /sitemaps/facilities-{n}.xml. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const origin = siteOrigin(request);
  if (params.name === "places.xml") {
    return new Response(urlSetXml(origin, await placeUrls(getDatabase())), { headers: XML_HEADERS });
  }
  if (params.name === "articles.xml") {
    // Short-lived: a scheduled article joins the list at its time.
    const headers = { ...XML_HEADERS, "Cache-Control": "public, max-age=300" };
    return new Response(urlSetXml(origin, await articleUrls(getDatabase(), serverNow())), { headers });
  }
  const match = /^facilities-([1-9]\d{0,4})\.xml$/.exec(params.name);
  if (!match) return new Response("Unknown sitemap", { status: 404, headers: { "Content-Type": "text/plain" } });
  const urls = await facilityUrls(getDatabase(), Number(match[1]));
  if (urls.length === 0 && match[1] !== "1") {
    return new Response("Unknown sitemap", { status: 404, headers: { "Content-Type": "text/plain" } });
  }
  return new Response(urlSetXml(origin, urls), { headers: XML_HEADERS });
}
