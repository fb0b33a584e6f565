import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { timestamps } from "./columns";
import { at } from "./columns";

export interface StoredHeading {
  level: 2 | 3;
  id: string;
  text: string;
}

/**
 * An article of the blog (docs/product.md section 13). `body` is the Markdown as written;
 * `body_html` is what it renders to, sanitized, at the last save, so a page view never parses
 * Markdown. Draft while `published_at` is null, scheduled until then, published after.
 * `version` goes up on every save: an editor saving over a version it did not load is refused.
 * Deleting sets `deleted_at` (restorable); nothing public shows a deleted article.
 */
export const articles = pgTable(
  "articles",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    body: text("body").notNull().default(""),
    bodyHtml: text("body_html").notNull().default(""),
    headings: jsonb("headings").$type<StoredHeading[]>().notNull().default([]),
    readingMinutes: integer("reading_minutes").notNull().default(1),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    coverImageId: text("cover_image_id"),
    coverAlt: text("cover_alt").notNull().default(""),
    coverWidth: integer("cover_width"),
    coverHeight: integer("cover_height"),
    seoTitle: text("seo_title").notNull().default(""),
    seoDescription: text("seo_description").notNull().default(""),
    publishedAt: at("published_at"),
    /** The last save of a published (or scheduled) article's text: the page's "Updated" date. */
    contentUpdatedAt: at("content_updated_at"),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull().default(""),
    version: integer("version").notNull().default(1),
    savedBy: text("saved_by").references(() => users.id, { onDelete: "set null" }),
    savedByName: text("saved_by_name").notNull().default(""),
    isDemo: boolean("is_demo").notNull().default(false),
    deletedAt: at("deleted_at"),
    ...timestamps,
  },
  (t) => [
    check("articles_slug_check", sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    index("articles_published_idx").on(t.publishedAt),
    index("articles_tags_idx").using("gin", t.tags),
  ],
);

/** A slug an article had before a rename: its old address answers 301 to the new one. */
export const articleSlugRedirects = pgTable("article_slug_redirects", {
  slug: text("slug").primaryKey(),
  articleId: text("article_id")
    .notNull()
    .references(() => articles.id, { onDelete: "cascade" }),
  createdAt: at("created_at").notNull().defaultNow(),
});

/** An image uploaded for an article (its cover or its body), stored as `blog-images/{id}/w{width}.{format}`. */
export const articleImages = pgTable(
  "article_images",
  {
    id: text("id").primaryKey(),
    articleId: text("article_id").references(() => articles.id, { onDelete: "set null" }),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    uploadedBy: text("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("article_images_article_idx").on(t.articleId)],
);

export type ArticleRow = typeof articles.$inferSelect;
