import { serverNow } from "../../server/clock";
import { getDatabase } from "../../server/db";
import { articlesRss } from "../../server/blog/feed";
import { siteOrigin } from "../../server/http/origin";
import type { Route } from "./+types/blog-rss";

/** GET /blog/rss.xml: the articles' feed (docs/api.md). Cached briefly: a scheduled article joins at its time. */
export async function loader({ request }: Route.LoaderArgs) {
  const xml = await articlesRss(getDatabase(), siteOrigin(request), serverNow());
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
