import { redirect } from "react-router";
import {
  ARTICLES_PAGE_SIZE,
  TOC_MIN_HEADINGS,
  articlePath,
  isArticleSlug,
  type ArticleCardData,
} from "../../domain/articles";
import { serverNow } from "../clock";
import { getDatabase } from "../db";
import { notFound } from "../errors";
import { siteOrigin } from "../http/origin";
import { articlesRss } from "./feed";
import { publicArticleBySlug, publicArticles, publicTags, relatedArticles, type ArticleCard } from "./queries";

/** The public blog pages' loaders (docs/product.md section 13). */

const dateFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});
export const articleDate = (date: Date) => dateFormat.format(date);

export function cardData(row: ArticleCard): ArticleCardData {
  const published = row.publishedAt ?? new Date(0);
  return {
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    tags: row.tags,
    coverImageId: row.coverImageId,
    coverAlt: row.coverAlt,
    coverWidth: row.coverWidth,
    coverHeight: row.coverHeight,
    published: articleDate(published),
    publishedIso: published.toISOString(),
    readingMinutes: row.readingMinutes,
    isDemo: row.isDemo,
  };
}

const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** /blog?page=&tag=: a bad page or tag answers the canonical list (or 404 past the last page). */
export async function blogListPage(request: Request) {
  const url = new URL(request.url);
  const rawPage = url.searchParams.get("page");
  const rawTag = url.searchParams.get("tag");
  const tag = rawTag && rawTag.length <= 40 && TAG.test(rawTag) ? rawTag : null;
  const page = rawPage === null ? 1 : /^[1-9]\d{0,4}$/.test(rawPage) ? Number(rawPage) : NaN;
  const canonical = (p: number) => {
    const params = new URLSearchParams();
    if (tag) params.set("tag", tag);
    if (p > 1) params.set("page", String(p));
    const query = params.toString();
    return `/blog${query ? `?${query}` : ""}`;
  };
  if (Number.isNaN(page) || (rawTag !== null && tag === null) || rawPage === "1") throw redirect(canonical(1), 301);
  const now = serverNow();
  const db = getDatabase();
  const [{ rows, total }, tags] = await Promise.all([publicArticles(db, now, { page, tag }), publicTags(db, now)]);
  const pageCount = Math.max(1, Math.ceil(total / ARTICLES_PAGE_SIZE));
  if (page > pageCount) throw notFound("No such page of articles");
  return {
    articles: rows.map(cardData),
    tags,
    tag,
    page,
    pageCount,
    pageSize: ARTICLES_PAGE_SIZE,
    total,
  };
}

/** /blog/{slug}: the article, a 301 from an old slug, or the site's 404. */
export async function blogArticlePage(slug: string) {
  if (!isArticleSlug(slug)) throw notFound("Article not found");
  const now = serverNow();
  const db = getDatabase();
  const found = await publicArticleBySlug(db, slug, now);
  if (found.kind === "redirect") throw redirect(articlePath(found.slug), 301);
  if (found.kind === "missing") throw notFound("Article not found");
  const a = found.article;
  const related = await relatedArticles(db, a, now);
  const published = a.publishedAt!;
  const updated = a.contentUpdatedAt && a.contentUpdatedAt > published ? a.contentUpdatedAt : null;
  return {
    article: {
      slug: a.slug,
      title: a.title,
      excerpt: a.excerpt,
      seoTitle: a.seoTitle,
      seoDescription: a.seoDescription,
      tags: a.tags,
      html: a.bodyHtml,
      headings: a.headings,
      showToc: a.headings.filter((h) => h.level === 2).length >= TOC_MIN_HEADINGS,
      readingMinutes: a.readingMinutes,
      authorName: a.authorName,
      coverImageId: a.coverImageId,
      coverAlt: a.coverAlt,
      coverWidth: a.coverWidth,
      coverHeight: a.coverHeight,
      published: articleDate(published),
      publishedIso: published.toISOString(),
      updated: updated ? articleDate(updated) : null,
      updatedIso: (updated ?? published).toISOString(),
      isDemo: a.isDemo,
    },
    related: related.map(cardData),
  };
}

/** GET /blog/rss.xml: the articles' feed (docs/api.md). */
export async function blogRssResponse(request: Request): Promise<Response> {
  const xml = await articlesRss(getDatabase(), siteOrigin(request), serverNow());
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
