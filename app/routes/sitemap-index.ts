import { sitemapIndexResponse } from "../../server/seo/pages";
import type { Route } from "./+types/sitemap-index";

/** GET /sitemap.xml: the sitemap index (docs/api.md). */
export async function loader({ request }: Route.LoaderArgs) {
  return sitemapIndexResponse(request);
}
