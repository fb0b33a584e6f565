import { Feed } from "feed";
import { articlePath, blogImageUrl, tagLabel } from "../../domain/articles";
import { SITE_DESCRIPTION, SITE_NAME } from "../../domain/site";
import type { Database } from "../db/client";
import { latestArticles } from "./queries";

/** How many articles the feed carries. */
export const FEED_SIZE = 20;

/** Site-relative links and images in an article's HTML made absolute, as feed readers need. */
export function absoluteUrls(html: string, origin: string): string {
  return html.replace(/ (href|src)="\/(?!\/)/g, ` $1="${origin}/`);
}

/** /blog/rss.xml: RSS 2.0 of the newest published articles (docs/product.md section 13), with the `feed` library. */
export async function articlesRss(db: Database, origin: string, now: Date): Promise<string> {
  const rows = await latestArticles(db, now, FEED_SIZE);
  const updated = rows.reduce<Date | undefined>((a, r) => {
    const d = r.contentUpdatedAt ?? r.publishedAt ?? undefined;
    return d && (!a || d > a) ? d : a;
  }, undefined);
  const feed = new Feed({
    id: `${origin}/blog`,
    title: `${SITE_NAME}: articles`,
    description: SITE_DESCRIPTION,
    link: `${origin}/blog`,
    language: "en-US",
    updated: updated ?? now,
    generator: false,
    feedLinks: { rss: `${origin}/blog/rss.xml` },
    copyright: `© ${now.getUTCFullYear()} ${SITE_NAME}`,
  });
  for (const r of rows) {
    const link = `${origin}${articlePath(r.slug)}`;
    feed.addItem({
      title: r.title,
      id: link,
      link,
      date: r.publishedAt!,
      description: r.excerpt || undefined,
      content: absoluteUrls(r.bodyHtml, origin),
      category: r.tags.map((tag) => ({ name: tagLabel(tag) })),
      author: r.authorName ? [{ name: r.authorName }] : undefined,
      image: r.coverImageId ? `${origin}${blogImageUrl(r.coverImageId, 1280, "jpg")}` : undefined,
    });
  }
  return feed.rss2();
}
