import { sitemapResponse } from "../../server/seo/pages";
import type { Route } from "./+types/sitemap-child";

/** GET /sitemaps/places.xml, /sitemaps/articles.xml and /sitemaps/facilities-{n}.xml. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return sitemapResponse(request, params.name);
}
