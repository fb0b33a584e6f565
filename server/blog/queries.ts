import {
  and,
  arrayContains,
  arrayOverlaps,
  count,
  desc,
  eq,
  ilike,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { ARTICLES_PAGE_SIZE, type ArticleStatus } from "../../domain/articles";
import type { SortDirection } from "../../domain/table-params";
import type { Database } from "../db/client";
import { articleSlugRedirects, articles, type ArticleRow } from "../db/schema";

/**
 * Reading articles (docs/product.md section 13). Public reads take `now` from the caller (the
 * server clock), so a scheduled article appears at its time without anything running.
 */

/** Published and not deleted, as of `now`. */
export const isPublic = (now: Date) =>
  and(isNull(articles.deletedAt), isNotNull(articles.publishedAt), lte(articles.publishedAt, now))!;

const CARD_COLUMNS = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  excerpt: articles.excerpt,
  tags: articles.tags,
  coverImageId: articles.coverImageId,
  coverAlt: articles.coverAlt,
  coverWidth: articles.coverWidth,
  coverHeight: articles.coverHeight,
  publishedAt: articles.publishedAt,
  readingMinutes: articles.readingMinutes,
  isDemo: articles.isDemo,
};
export type ArticleCard = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  tags: string[];
  coverImageId: string | null;
  coverAlt: string;
  coverWidth: number | null;
  coverHeight: number | null;
  publishedAt: Date | null;
  readingMinutes: number;
  isDemo: boolean;
};

/** One page of the public list, newest first, optionally of one tag. */
export async function publicArticles(
  db: Database,
  now: Date,
  { page, tag, pageSize = ARTICLES_PAGE_SIZE }: { page: number; tag?: string | null; pageSize?: number },
): Promise<{ rows: ArticleCard[]; total: number }> {
  const where = tag ? and(isPublic(now), arrayContains(articles.tags, [tag])) : isPublic(now);
  const [rows, [total]] = await Promise.all([
    db
      .select(CARD_COLUMNS)
      .from(articles)
      .where(where)
      .orderBy(desc(articles.publishedAt), desc(articles.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(articles).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every tag of the published articles with how many use it, most used first. */
export async function publicTags(db: Database, now: Date): Promise<{ tag: string; count: number }[]> {
  const rows = (await db.execute(sql`
    select tag, count(*)::int as n from ${articles}, unnest(${articles.tags}) as tag
    where ${isPublic(now)} group by tag order by n desc, tag asc limit 40`)) as unknown as {
    rows: { tag: string; n: number }[];
  };
  return rows.rows.map((r) => ({ tag: String(r.tag), count: Number(r.n) }));
}

export type ArticleLookup =
  { kind: "article"; article: ArticleRow } | { kind: "redirect"; slug: string } | { kind: "missing" };

/** The public article at `slug`, or where an old slug of it points, or nothing. */
export async function publicArticleBySlug(db: Database, slug: string, now: Date): Promise<ArticleLookup> {
  const [row] = await db
    .select()
    .from(articles)
    .where(and(eq(articles.slug, slug), isPublic(now)))
    .limit(1);
  if (row) return { kind: "article", article: row };
  const [moved] = await db
    .select({ slug: articles.slug })
    .from(articleSlugRedirects)
    .innerJoin(articles, eq(articles.id, articleSlugRedirects.articleId))
    .where(and(eq(articleSlugRedirects.slug, slug), isPublic(now)))
    .limit(1);
  return moved ? { kind: "redirect", slug: moved.slug } : { kind: "missing" };
}

/** Up to `limit` other public articles sharing a tag with `article`, newest first. */
export async function relatedArticles(
  db: Database,
  article: Pick<ArticleRow, "id" | "tags">,
  now: Date,
  limit = 3,
): Promise<ArticleCard[]> {
  if (article.tags.length === 0) return [];
  return db
    .select(CARD_COLUMNS)
    .from(articles)
    .where(and(isPublic(now), ne(articles.id, article.id), arrayOverlaps(articles.tags, article.tags)))
    .orderBy(desc(articles.publishedAt))
    .limit(limit);
}

/** The newest public articles, for the feed and the sitemap. */
export async function latestArticles(db: Database, now: Date, limit: number) {
  return db
    .select({
      slug: articles.slug,
      title: articles.title,
      excerpt: articles.excerpt,
      bodyHtml: articles.bodyHtml,
      tags: articles.tags,
      authorName: articles.authorName,
      coverImageId: articles.coverImageId,
      publishedAt: articles.publishedAt,
      contentUpdatedAt: articles.contentUpdatedAt,
    })
    .from(articles)
    .where(isPublic(now))
    .orderBy(desc(articles.publishedAt))
    .limit(limit);
}

export const ADMIN_ARTICLE_SORTS = ["title", "status", "updated", "published"] as const;
export type AdminArticleSort = (typeof ADMIN_ARTICLE_SORTS)[number];

export interface AdminArticleQuery {
  q: string;
  status: ArticleStatus | "all" | "deleted";
  sort: AdminArticleSort;
  dir: SortDirection;
  page: number;
  pageSize: number;
}

/** The editor's list: every article (deleted ones only when asked), searched by title, slug or tag. */
export async function adminArticles(db: Database, query: AdminArticleQuery, now: Date) {
  const where: SQL[] = [];
  where.push(query.status === "deleted" ? isNotNull(articles.deletedAt) : isNull(articles.deletedAt));
  if (query.status === "draft") where.push(isNull(articles.publishedAt));
  if (query.status === "scheduled") where.push(sql`${articles.publishedAt} > ${now}`);
  if (query.status === "published") where.push(lte(articles.publishedAt, now));
  const q = query.q.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      or(ilike(articles.title, like), ilike(articles.slug, like), sql`${q.toLowerCase()} = any(${articles.tags})`)!,
    );
  }
  const dir = query.dir === "asc" ? sql.raw("asc") : sql.raw("desc");
  const order = {
    title: [sql`lower(${articles.title}) ${dir}`],
    // Drafts, then scheduled, then published (ascending); the newest first within each.
    status: [
      sql`case when ${articles.publishedAt} is null then 0 when ${articles.publishedAt} > ${now} then 1 else 2 end ${dir}`,
      desc(articles.updatedAt),
    ],
    updated: [sql`${articles.updatedAt} ${dir}`],
    published: [sql`${articles.publishedAt} ${dir} nulls last`],
  }[query.sort];
  const condition = and(...where);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: articles.id,
        slug: articles.slug,
        title: articles.title,
        tags: articles.tags,
        publishedAt: articles.publishedAt,
        updatedAt: articles.updatedAt,
        savedByName: articles.savedByName,
        deletedAt: articles.deletedAt,
        isDemo: articles.isDemo,
      })
      .from(articles)
      .where(condition)
      .orderBy(...order, articles.id)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(articles).where(condition),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function articleById(db: Database, id: string): Promise<ArticleRow | undefined> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id)).limit(1);
  return row;
}
