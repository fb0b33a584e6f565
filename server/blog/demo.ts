import { count } from "drizzle-orm";
import { SITE_NAME } from "../../domain/site";
import type { Database } from "../db/client";
import { articles } from "../db/schema";
import { DEMO_ARTICLES, demoCoverId } from "./demo-articles";
import { renderWithDirectoryLinks } from "./service";

/**
 * The demo articles of a fresh install (docs/product.md section 13): written once into an empty
 * articles table, flagged as demo. Their covers are drawn from SVG on first request
 * (`demo-{slug}`, drawDemoCover in ./images.ts), like the demo listings' photos, so start-up does
 * not wait for the encoder.
 */
/** The widest variant the pipeline makes of a 1600 x 900 drawing. */
const COVER_SIZE = { width: 1280, height: 720 };

export async function ensureDemoArticles(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(articles);
  if ((row?.n ?? 0) > 0) return 0;
  const values = [];
  for (const a of DEMO_ARTICLES) {
    const { rendered } = await renderWithDirectoryLinks(db, a.body);
    const publishedAt = new Date(a.publishedAt);
    values.push({
      id: `demo-article-${a.slug}`.slice(0, 100),
      slug: a.slug,
      title: a.title,
      excerpt: a.excerpt,
      body: a.body,
      bodyHtml: rendered.html,
      headings: rendered.headings,
      readingMinutes: rendered.readingMinutes,
      tags: [...a.tags],
      coverImageId: demoCoverId(a.slug),
      coverAlt: a.coverAlt,
      coverWidth: COVER_SIZE.width,
      coverHeight: COVER_SIZE.height,
      seoTitle: a.seoTitle,
      seoDescription: a.seoDescription,
      publishedAt,
      contentUpdatedAt: publishedAt,
      authorName: `The ${SITE_NAME} team`,
      savedByName: `The ${SITE_NAME} team`,
      isDemo: true,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  }
  await db.insert(articles).values(values).onConflictDoNothing();
  return values.length;
}
