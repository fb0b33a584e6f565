import { getDatabase } from "../../server/db";
import { siteOrigin } from "../../server/http/origin";
import { facilityUrls, placeUrls, urlSetXml } from "../../server/seo/sitemap";
import type { Route } from "./+types/sitemap-child";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };

/** GET /sitemaps/places.xml and /sitemaps/facilities-{n}.xml. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const origin = siteOrigin(request);
  if (params.name === "places.xml") {
    return new Response(urlSetXml(origin, await placeUrls(getDatabase())), { headers: XML_HEADERS });
  }
  const match = /^facilities-([1-9]\d{0,4})\.xml$/.exec(params.name);
  if (!match) return new Response("Unknown sitemap", { status: 404, headers: { "Content-Type": "text/plain" } });
  const urls = await facilityUrls(getDatabase(), Number(match[1]));
  if (urls.length === 0 && match[1] !== "1") {
    return new Response("Unknown sitemap", { status: 404, headers: { "Content-Type": "text/plain" } });
  }
  return new Response(urlSetXml(origin, urls), { headers: XML_HEADERS });
}
