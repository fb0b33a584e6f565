import { getDatabase } from "../../server/db";
import { siteOrigin } from "../../server/http/origin";
import { sitemapIndexXml, sitemapPaths } from "../../server/seo/sitemap";
import type { Route } from "./+types/sitemap-index";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };

/** GET /sitemap.xml: the sitemap index (docs/api.md). */
export async function loader({ request }: Route.LoaderArgs) {
  const paths = await sitemapPaths(getDatabase());
  return new Response(sitemapIndexXml(siteOrigin(request), paths), { headers: XML_HEADERS });
}
