import { blogRssResponse } from "../../server/blog/pages";
import type { Route } from "./+types/blog-rss";

/** GET /blog/rss.xml: the articles' feed (docs/api.md). Cached briefly: a scheduled article joins at its time. */
export async function loader({ request }: Route.LoaderArgs) {
  return blogRssResponse(request);
}
