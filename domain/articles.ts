/**
 * The articles' rules shared by the editor, the public pages and the server (docs/product.md
 * section 13, "Articles"). Browser-safe: no server imports.
 */

export const ARTICLES_PAGE_SIZE = 12;
/** The longest article body, in UTF-8 bytes of Markdown (several times a long article). */
export const ARTICLE_BODY_MAX_BYTES = 200_000;
/** The editor's forms: a whole article, URL-encoded (up to 3 bytes a character) with its other fields. */
export const ARTICLE_FORM_MAX_BYTES = 3 * ARTICLE_BODY_MAX_BYTES + 64 * 1024;
export const ADMIN_ARTICLES_PAGE_SIZE = 50;
export const ARTICLE_TITLE_MAX = 120;
export const ARTICLE_SLUG_MAX = 80;
export const ARTICLE_EXCERPT_MAX = 300;
export const ARTICLE_TAGS_MAX = 8;
export const ARTICLE_TAG_MAX = 30;
export const ARTICLE_COVER_ALT_MAX = 200;
/** Search engines show about this much of a title and a description: the editor's hints. */
export const SEO_TITLE_HINT = 60;
export const SEO_DESCRIPTION_HINT = 155;
export const SEO_TITLE_MAX = 120;
export const SEO_DESCRIPTION_MAX = 300;
/** How often the editor saves a draft while the admin types (milliseconds after the last key). */
export const AUTOSAVE_DELAY_MS = 2_000;
/** A long article (this many sections or more) gets a table of contents. */
export const TOC_MIN_HEADINGS = 3;

export const ARTICLE_STATUSES = ["draft", "scheduled", "published"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
export const ARTICLE_STATUS_LABELS: Record<ArticleStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
};

/** Draft when it has no publication time, scheduled until that time, published from then on. */
export function articleStatus(publishedAt: Date | string | null, now: Date): ArticleStatus {
  if (publishedAt === null) return "draft";
  return new Date(publishedAt).getTime() > now.getTime() ? "scheduled" : "published";
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isArticleSlug(value: string): boolean {
  return value.length <= ARTICLE_SLUG_MAX && SLUG.test(value);
}

/** Lowercase ASCII words of `text` joined by hyphens, whole words up to `max` characters; "" when none. */
function slugWords(text: string, max: number): string {
  const words = text
    .slice(0, 2_000)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .replace(/&/g, " and ")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word.slice(0, max);
    if (next.length > max) break;
    slug = next;
  }
  return slug;
}

/** A slug from a title ("Covered vs. Open" -> "covered-vs-open"); "article" when it has no letters. */
export function slugify(title: string): string {
  return slugWords(title, ARTICLE_SLUG_MAX) || "article";
}

/** Tags as typed ("Winter, covered storage") -> normalised, unique tags ("winter", "covered-storage"). */
export function parseTags(text: string): string[] {
  const tags: string[] = [];
  for (const raw of text.slice(0, 1_000).split(",")) {
    const tag = slugWords(raw, ARTICLE_TAG_MAX);
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** One article in a list, as the blog pages hand it to `ArticleCard`. */
export interface ArticleCardData {
  slug: string;
  title: string;
  excerpt: string;
  tags: string[];
  coverImageId: string | null;
  coverAlt: string;
  coverWidth: number | null;
  coverHeight: number | null;
  published: string;
  publishedIso: string;
  readingMinutes: number;
  isDemo: boolean;
}

/** "covered-storage" -> "Covered storage". */
export function tagLabel(tag: string): string {
  const text = tag.replace(/-/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The public address of an article. */
export const articlePath = (slug: string) => `/blog/${slug}`;

/** The admins' editor of one article. */
export const articleEditPath = (id: string) => `/admin/blog/edit/${encodeURIComponent(id)}`;

/** Files of an article image: `/blog-images/{imageId}/w{width}.{format}`. */
export const BLOG_IMAGES_FOLDER = "blog-images";
const BLOG_IMAGE_FILE = /^w(320|640|960|1280)\.(avif|webp|jpg)$/;
const IMAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function blogImageUrl(imageId: string, width: 320 | 640 | 960 | 1280, format: "avif" | "webp" | "jpg"): string {
  return `/${BLOG_IMAGES_FOLDER}/${encodeURIComponent(imageId)}/w${width}.${format}`;
}

export function parseBlogImageFile(
  imageId: string,
  file: string,
): { width: 320 | 640 | 960 | 1280; format: "avif" | "webp" | "jpg" } | undefined {
  if (!IMAGE_ID.test(imageId)) return undefined;
  const match = BLOG_IMAGE_FILE.exec(file);
  if (!match) return undefined;
  return { width: Number(match[1]) as 320 | 640 | 960 | 1280, format: match[2] as "avif" | "webp" | "jpg" };
}

/**
 * What a save in the article editor answers (server/blog/admin-pages.ts) and the editor reads
 * (app/components/blog/article-editor-state.ts); `Mode` is the server's list of save modes.
 */
export type ArticleSaveAnswer<Mode extends string = string> =
  | {
      ok: true;
      mode: Mode;
      version: number;
      slug: string;
      status: ArticleStatus;
      publishedAt: string | null;
      savedAt: string;
      brokenLinks: string[];
      message: string;
    }
  | {
      ok: false;
      mode: Mode | null;
      fieldErrors: Partial<Record<string, string[]>>;
      formError?: string;
      /** Set when another admin saved first: the editor keeps the text and says so. */
      conflict?: boolean;
      values: Record<string, string>;
    };
