import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import {
  ARTICLE_COVER_ALT_MAX,
  ARTICLE_EXCERPT_MAX,
  ARTICLE_SLUG_MAX,
  ARTICLE_TAG_MAX,
  ARTICLE_TAGS_MAX,
  ARTICLE_TITLE_MAX,
  SEO_DESCRIPTION_MAX,
  SEO_TITLE_MAX,
  articleStatus,
  isArticleSlug,
  slugify,
  type ArticleStatus,
} from "../../domain/articles";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Database } from "../db/client";
import { articleSlugRedirects, articles, listedLocation, locations, type ArticleRow } from "../db/schema";
import { AppError } from "../errors";
import { placeFromSlug } from "../geo/resolve-place";
import {
  bodySizeProblem,
  directoryLinksIn,
  renderArticleMarkdown,
  type DirectoryLink,
  type RenderedArticle,
} from "./markdown";

/**
 * Writing articles (docs/product.md section 13): create, save (by hand or autosave), publish,
 * schedule, unpublish, delete and restore. A save names the version it was loaded at; when
 * another admin saved since, it is refused with who and when, and nothing is overwritten. The
 * Markdown is rendered and sanitized here, once per save, with its links into the directory
 * checked: a draft may keep a broken one (the editor warns), a publication may not.
 */
const tx = (t: unknown) => t as Database;

export interface ArticleInput {
  title: string;
  slug: string;
  excerpt: string;
  tags: string[];
  body: string;
  coverAlt: string;
  seoTitle: string;
  seoDescription: string;
}

export const SAVE_MODES = ["autosave", "save", "publish", "schedule", "unpublish"] as const;
export type SaveMode = (typeof SAVE_MODES)[number];

export type ArticleFieldErrors = Partial<Record<keyof ArticleInput | "publishAt" | "cover", string[]>>;

/** A save refused for its fields; `fieldErrors` name each problem beside its field. */
export class ArticleFieldError extends Error {
  constructor(readonly fieldErrors: ArticleFieldErrors) {
    super(Object.values(fieldErrors).flat().join(" "));
  }
}

export const ARTICLE_MESSAGES = {
  notFound: "No such article: it may have been deleted.",
  conflict: (who: string, when: Date) =>
    `${who || "Another administrator"} saved this article at ${when.toISOString().slice(11, 16)} UTC, after you opened it. Your changes are not saved: copy them, reload the page, and apply them again.`,
  slugTaken: (slug: string) => `Another article uses the address /blog/${slug}. Choose another.`,
  brokenLinks: (paths: string[]) =>
    `${paths.length === 1 ? "This link goes" : "These links go"} nowhere in the directory: ${paths.join(", ")}. Fix or remove ${paths.length === 1 ? "it" : "them"} before publishing.`,
  publishPast: "Choose a time in the future to schedule, or publish now.",
  publishAtMissing: "Choose the date and time to publish at.",
  titleMissing: "Give the article a title.",
  bodyMissing: "Write the article before publishing it.",
} as const;

export function conflictError(row: Pick<ArticleRow, "savedByName" | "updatedAt" | "version">): AppError {
  return new AppError("conflict", 409, ARTICLE_MESSAGES.conflict(row.savedByName, row.updatedAt), {
    version: row.version,
  });
}

/** What is wrong with a title, if anything (a new draft checks only this). */
function titleProblems(title: string): string[] {
  const problems: string[] = [];
  if (!title.trim()) problems.push(ARTICLE_MESSAGES.titleMissing);
  if (title.length > ARTICLE_TITLE_MAX) problems.push(`Use at most ${ARTICLE_TITLE_MAX} characters.`);
  return problems;
}

/** The field problems of `input` that need no database; `mode` decides whether an empty body may pass. */
export function articleInputProblems(input: ArticleInput, mode: SaveMode): ArticleFieldErrors {
  const errors: ArticleFieldErrors = {};
  const add = (field: keyof ArticleFieldErrors, message: string) => (errors[field] ??= []).push(message);
  for (const problem of titleProblems(input.title)) add("title", problem);
  if (!isArticleSlug(input.slug))
    add(
      "slug",
      input.slug.length > ARTICLE_SLUG_MAX
        ? `Use at most ${ARTICLE_SLUG_MAX} characters.`
        : "Use lowercase letters, digits and single hyphens, like winter-rv-storage.",
    );
  if (input.excerpt.length > ARTICLE_EXCERPT_MAX) add("excerpt", `Use at most ${ARTICLE_EXCERPT_MAX} characters.`);
  if (input.tags.length > ARTICLE_TAGS_MAX) add("tags", `Use at most ${ARTICLE_TAGS_MAX} tags.`);
  if (input.tags.some((t) => t.length > ARTICLE_TAG_MAX))
    add("tags", `Keep each tag to ${ARTICLE_TAG_MAX} characters.`);
  if (input.coverAlt.length > ARTICLE_COVER_ALT_MAX)
    add("coverAlt", `Use at most ${ARTICLE_COVER_ALT_MAX} characters.`);
  if (input.seoTitle.length > SEO_TITLE_MAX) add("seoTitle", `Use at most ${SEO_TITLE_MAX} characters.`);
  if (input.seoDescription.length > SEO_DESCRIPTION_MAX)
    add("seoDescription", `Use at most ${SEO_DESCRIPTION_MAX} characters.`);
  const tooLarge = bodySizeProblem(input.body);
  if (tooLarge) add("body", tooLarge);
  if ((mode === "publish" || mode === "schedule") && !input.body.trim()) add("body", ARTICLE_MESSAGES.bodyMissing);
  return errors;
}

/** What each directory link of an article points at now; a path missing from the map goes nowhere. */
async function resolveDirectoryLinks(db: Database, paths: readonly string[]): Promise<Map<string, DirectoryLink>> {
  const found = new Map<string, DirectoryLink>();
  const listingSlugs: string[] = [];
  for (const path of paths.slice(0, 200)) {
    const [, section, slug = ""] = path.split("/");
    if (section === "rv-storage") {
      const place = slug === "" ? undefined : placeFromSlug(slug);
      if (place && place.slug === slug) {
        const name = place.city ? `${place.city}, ${place.state}` : place.stateName;
        found.set(path, { path, title: `RV storage in ${name}`, detail: `Compare storage facilities near ${name}` });
      }
    } else if (section === "location" && slug) listingSlugs.push(slug);
  }
  if (listingSlugs.length > 0) {
    const rows = await db
      .select({ slug: locations.slug, name: locations.name, city: locations.city, state: locations.state })
      .from(locations)
      .where(and(inArray(locations.slug, listingSlugs), listedLocation));
    for (const row of rows) {
      const path = `/location/${row.slug}`;
      found.set(path, {
        path,
        title: row.name,
        detail: [row.city, row.state].filter(Boolean).join(", ") || "RV storage facility",
      });
    }
  }
  return found;
}

/** The body's links into the directory, what each points at now, and those that go nowhere. */
async function checkDirectoryLinks(db: Database, body: string) {
  const paths = directoryLinksIn(body);
  const resolved = await resolveDirectoryLinks(db, paths);
  return { resolved, broken: paths.filter((p) => !resolved.has(p)) };
}

/** The links of `body` into the directory that go nowhere now (the editor lists them). */
export async function brokenDirectoryLinks(db: Database, body: string): Promise<string[]> {
  return (await checkDirectoryLinks(db, body)).broken;
}

/**
 * `body` rendered as the public page shows it, its directory links made cards where they resolve,
 * with those that do not. Throws MarkdownRejectedError for a body over the limit.
 */
export async function renderWithDirectoryLinks(
  db: Database,
  body: string,
): Promise<{ rendered: RenderedArticle; brokenLinks: string[] }> {
  const { resolved, broken } = await checkDirectoryLinks(db, body);
  return { rendered: renderArticleMarkdown(body, { resolveLink: (path) => resolved.get(path) }), brokenLinks: broken };
}

async function uniqueSlug(db: Database, wanted: string, exceptId?: string): Promise<string> {
  let base = wanted.slice(0, ARTICLE_SLUG_MAX - 4);
  while (base.endsWith("-")) base = base.slice(0, -1);
  if (!base) base = "article";
  for (let n = 1; n < 1000; n++) {
    const slug = n === 1 ? wanted : `${base}-${n}`;
    if (!(await slugTaken(db, slug, exceptId))) return slug;
  }
  return `${base}-${randomUUID().slice(0, 3)}`;
}

/** Whether `slug` is another article's address, now or as an old address that redirects. */
async function slugTaken(db: Database, slug: string, exceptId?: string): Promise<boolean> {
  const [current] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(exceptId ? and(eq(articles.slug, slug), ne(articles.id, exceptId)) : eq(articles.slug, slug))
    .limit(1);
  if (current) return true;
  const [old] = await db
    .select({ id: articleSlugRedirects.articleId })
    .from(articleSlugRedirects)
    .where(eq(articleSlugRedirects.slug, slug))
    .limit(1);
  return old !== undefined && old.id !== exceptId;
}

export interface Author extends AuditActor {
  name: string;
}

/** A new draft with `title` (and a free slug made from it); returns its id. */
export async function createArticle(
  db: Database,
  author: Author,
  title: string,
  requestId?: string | null,
): Promise<{ id: string; slug: string }> {
  const problems = titleProblems(title);
  if (problems.length > 0) throw new ArticleFieldError({ title: problems });
  const id = randomUUID();
  return db.transaction(async (t) => {
    const db = tx(t);
    const slug = await uniqueSlug(db, slugify(title));
    await db.insert(articles).values({
      id,
      slug,
      title: title.trim(),
      authorId: author.userId,
      authorName: author.name,
      savedBy: author.userId,
      savedByName: author.name,
    });
    await recordAudit(db, {
      actor: author,
      action: "article.create",
      subject: { type: "article", id },
      after: { title, slug },
      requestId,
    });
    return { id, slug };
  });
}

export interface SaveRequest {
  author: Author;
  id: string;
  /** The version the editor loaded (or last saved). */
  version: number;
  input: ArticleInput;
  mode: SaveMode;
  /** For "schedule": when to publish. */
  publishAt?: Date | null;
  now: Date;
  requestId?: string | null;
}

export interface SaveResult {
  version: number;
  slug: string;
  status: ArticleStatus;
  publishedAt: Date | null;
  /** Directory links that go nowhere (a draft keeps them; the editor says so). */
  brokenLinks: string[];
  savedAt: Date;
}

/**
 * Saves an article. Autosave only writes drafts (a published article changes when its editor
 * says so). Throws ArticleFieldError for fields to fix, AppError 404 / 409 otherwise; either way
 * nothing is written.
 */
export async function saveArticle(db: Database, request: SaveRequest): Promise<SaveResult> {
  const { author, id, input, mode, now } = request;
  const problems = articleInputProblems(input, mode);
  if (Object.keys(problems).length > 0) throw new ArticleFieldError(problems);
  // Rendering is the slow part: done before the transaction, so no lock waits on it. The body's
  // size was checked above, so it renders.
  const { rendered, brokenLinks } = await renderWithDirectoryLinks(db, input.body);
  if ((mode === "publish" || mode === "schedule") && brokenLinks.length > 0)
    throw new ArticleFieldError({ body: [ARTICLE_MESSAGES.brokenLinks(brokenLinks)] });
  if (mode === "schedule") {
    if (!request.publishAt || Number.isNaN(request.publishAt.getTime()))
      throw new ArticleFieldError({ publishAt: [ARTICLE_MESSAGES.publishAtMissing] });
    if (request.publishAt.getTime() <= now.getTime())
      throw new ArticleFieldError({ publishAt: [ARTICLE_MESSAGES.publishPast] });
  }

  return db.transaction(async (t) => {
    const db = tx(t);
    const [row] = await db.select().from(articles).where(eq(articles.id, id)).for("update");
    if (!row || row.deletedAt) throw new AppError("not_found", 404, ARTICLE_MESSAGES.notFound);
    if (row.version !== request.version) throw conflictError(row);
    const before = articleStatus(row.publishedAt, now);
    if (mode === "autosave" && before !== "draft")
      throw new AppError("bad_request", 400, "Only drafts save automatically: use Save changes.");
    if (input.slug !== row.slug && (await slugTaken(db, input.slug, id)))
      throw new ArticleFieldError({ slug: [ARTICLE_MESSAGES.slugTaken(input.slug)] });

    const publishedAt =
      mode === "publish"
        ? before === "published"
          ? row.publishedAt
          : now
        : mode === "schedule"
          ? request.publishAt!
          : mode === "unpublish"
            ? null
            : row.publishedAt;
    const status = articleStatus(publishedAt, now);
    if (input.slug !== row.slug) {
      // Once visitors could have seen the old address, it keeps answering with a redirect.
      if (before === "published" || row.publishedAt !== null)
        await db.insert(articleSlugRedirects).values({ slug: row.slug, articleId: id }).onConflictDoNothing();
      await db.delete(articleSlugRedirects).where(eq(articleSlugRedirects.slug, input.slug));
    }
    const version = row.version + 1;
    const [saved] = await db
      .update(articles)
      .set({
        title: input.title.trim(),
        slug: input.slug,
        excerpt: input.excerpt.trim(),
        tags: input.tags,
        body: input.body,
        bodyHtml: rendered.html,
        headings: rendered.headings,
        readingMinutes: rendered.readingMinutes,
        coverAlt: input.coverAlt.trim(),
        seoTitle: input.seoTitle.trim(),
        seoDescription: input.seoDescription.trim(),
        publishedAt,
        contentUpdatedAt: status === "draft" ? row.contentUpdatedAt : now,
        version,
        savedBy: author.userId,
        savedByName: author.name,
        updatedAt: now,
      })
      .where(eq(articles.id, id))
      .returning({ updatedAt: articles.updatedAt });
    if (mode !== "autosave")
      await recordAudit(db, {
        actor: author,
        action: `article.${mode}`,
        subject: { type: "article", id },
        before: { slug: row.slug, status: before, version: row.version },
        after: { slug: input.slug, status, version, publishedAt },
        requestId: request.requestId,
      });
    return { version, slug: input.slug, status, publishedAt, brokenLinks, savedAt: saved!.updatedAt };
  });
}

/**
 * Soft delete (restorable; its public page answers 404 at once) or restore. Deleting a deleted
 * article, or restoring one that is not, answers 404 and changes nothing.
 */
async function setDeleted(
  db: Database,
  actor: AuditActor,
  id: string,
  deleted: boolean,
  requestId?: string | null,
): Promise<{ title: string }> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const [row] = await db
      .update(articles)
      .set({ deletedAt: deleted ? sql`now()` : null, version: sql`${articles.version} + 1` })
      .where(and(eq(articles.id, id), deleted ? isNull(articles.deletedAt) : sql`${articles.deletedAt} is not null`))
      .returning({ title: articles.title });
    if (!row)
      throw new AppError(
        "not_found",
        404,
        deleted ? ARTICLE_MESSAGES.notFound : "This article is not deleted, or no longer exists.",
      );
    await recordAudit(db, {
      actor,
      action: deleted ? "article.delete" : "article.restore",
      subject: { type: "article", id },
      requestId,
    });
    return row;
  });
}

export const deleteArticle = (db: Database, actor: AuditActor, id: string, requestId?: string | null) =>
  setDeleted(db, actor, id, true, requestId);

export const restoreArticle = (db: Database, actor: AuditActor, id: string, requestId?: string | null) =>
  setDeleted(db, actor, id, false, requestId);
