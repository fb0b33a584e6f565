import { data } from "react-router";
import {
  ADMIN_ARTICLES_PAGE_SIZE,
  ARTICLE_BODY_MAX_BYTES,
  ARTICLE_STATUSES,
  articleStatus,
  articleEditPath,
  articlePath,
  parseTags,
  type ArticleSaveAnswer,
} from "../../domain/articles";
import { MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { PHOTO_MAX_BYTES, PHOTO_TEXT } from "../../domain/listing-photos";
import { clampPage, oneOf, parseTableParams } from "../../domain/table-params";
import type { SignedInViewer } from "../auth/viewer";
import { serverNow } from "../clock";
import { getDatabase } from "../db";
import { AppError, notFound } from "../errors";
import { redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { BODY_LIMITS } from "../http/body-limit";
import { flashRefusal, refusalOf } from "../http/refusal";
import { filesFrom, readUploadForm } from "../http/upload";
import { getImageStorage } from "../images";
import { addArticleImage, removeArticleCover } from "./images";
import { MarkdownRejectedError } from "./markdown";
import { ADMIN_ARTICLE_SORTS, adminArticles, articleById, type AdminArticleSort } from "./queries";
import {
  ARTICLE_MESSAGES,
  ArticleFieldError,
  SAVE_MODES,
  createArticle,
  deleteArticle,
  brokenDirectoryLinks,
  renderWithDirectoryLinks,
  restoreArticle,
  saveArticle,
  type ArticleInput,
  type Author,
  type SaveMode,
} from "./service";

/** The blog editor's loaders and actions (docs/product.md section 13, "Editor"). */

const MAX_ID_LENGTH = 100;
const authorOf = (viewer: SignedInViewer): Author => ({
  userId: viewer.userId,
  email: viewer.email,
  name: viewer.name?.trim() || viewer.email,
});
const text = (form: FormData, name: string, max: number) => {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
};

/** /admin/blog: search, status filter, sort and paging. */
export async function adminBlogPage(request: Request) {
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, MAX_TEXT_FILTER_LENGTH);
  const status = oneOf(params.get("status"), [...ARTICLE_STATUSES, "all", "deleted"] as const, "all");
  const table = parseTableParams<AdminArticleSort>(params, {
    sortable: ADMIN_ARTICLE_SORTS,
    defaultSort: "updated",
    defaultDir: "desc",
  });
  const db = getDatabase();
  const now = serverNow();
  const query = { q, status, sort: table.sort, dir: table.dir, pageSize: ADMIN_ARTICLES_PAGE_SIZE };
  let list = await adminArticles(db, { ...query, page: table.page }, now);
  const page = clampPage(table.page, list.total, ADMIN_ARTICLES_PAGE_SIZE);
  if (page !== table.page) list = await adminArticles(db, { ...query, page }, now);
  return {
    q,
    status,
    sort: table.sort as string,
    dir: table.dir,
    page,
    pageSize: ADMIN_ARTICLES_PAGE_SIZE,
    total: list.total,
    rows: list.rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      tags: r.tags,
      status: articleStatus(r.publishedAt, now),
      publishedAt: r.publishedAt?.toISOString() ?? null,
      updatedAt: r.updatedAt.toISOString(),
      savedByName: r.savedByName,
      deleted: r.deletedAt !== null,
      isDemo: r.isDemo,
    })),
  };
}

/** POST /admin/blog: delete (after the page's confirmation) or restore one article. */
export async function adminBlogAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const id = text(form, "id", MAX_ID_LENGTH);
  const back = text(form, "back", 2000);
  // Back to the list as it was, and never anywhere else.
  const here = back.startsWith("/admin/blog") && !back.startsWith("//") ? back : "/admin/blog";
  const db = getDatabase();
  const author = authorOf(viewer);
  try {
    if (intent === "delete") {
      const { title } = await deleteArticle(db, author, id, requestId);
      return redirectWithFlash(here, {
        kind: "success",
        text: `Deleted “${title}”. Its page is gone; restore it from the Deleted filter.`,
      });
    }
    if (intent === "restore") {
      const { title } = await restoreArticle(db, author, id, requestId);
      return redirectWithFlash(here, { kind: "success", text: `Restored “${title}”, as it was before.` });
    }
  } catch (error) {
    return flashRefusal(here, error, ["not_found"]);
  }
  throw new AppError("bad_request", 400, "Choose delete or restore.");
}

/** POST /admin/blog/new: a draft with the title typed, then its editor. */
export async function adminBlogNewAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const title = text(form, "title", 1000);
  try {
    const { id } = await createArticle(getDatabase(), authorOf(viewer), title, requestId);
    return redirectWithFlash(articleEditPath(id), { kind: "success", text: "Draft created. It saves as you type." });
  } catch (error) {
    if (error instanceof ArticleFieldError)
      return data({ ok: false as const, fieldErrors: error.fieldErrors, values: { title } }, { status: 400 });
    throw error;
  }
}

/** GET /admin/blog/edit/{id}: everything the editor shows. */
export async function adminBlogEditPage(id: string) {
  if (id.length > MAX_ID_LENGTH) throw notFound(ARTICLE_MESSAGES.notFound);
  const a = await articleById(getDatabase(), id);
  if (!a) throw notFound(ARTICLE_MESSAGES.notFound);
  const now = serverNow();
  const brokenLinks = await brokenDirectoryLinks(getDatabase(), a.body);
  return {
    article: {
      id: a.id,
      title: a.title,
      slug: a.slug,
      excerpt: a.excerpt,
      tags: a.tags.join(", "),
      body: a.body,
      html: a.bodyHtml,
      coverImageId: a.coverImageId,
      coverAlt: a.coverAlt,
      coverWidth: a.coverWidth,
      coverHeight: a.coverHeight,
      seoTitle: a.seoTitle,
      seoDescription: a.seoDescription,
      version: a.version,
      status: articleStatus(a.publishedAt, now),
      publishedAt: a.publishedAt?.toISOString() ?? null,
      updatedAt: a.updatedAt.toISOString(),
      savedByName: a.savedByName,
      deleted: a.deletedAt !== null,
      isDemo: a.isDemo,
      path: articlePath(a.slug),
    },
    brokenLinks,
    now: now.toISOString(),
  };
}

export type EditorAnswer = ArticleSaveAnswer<SaveMode>;

const SUCCESS: Record<SaveMode, (r: { slug: string; publishedAt: Date | null }) => string> = {
  autosave: () => "Draft saved.",
  save: () => "Changes saved.",
  publish: (r) => `Published at ${articlePath(r.slug)}.`,
  schedule: (r) => `Scheduled for ${r.publishedAt!.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
  unpublish: () => "Unpublished: the article is a draft again and its page is gone.",
};

function inputFrom(form: FormData): ArticleInput {
  return {
    title: text(form, "title", 1000),
    slug: text(form, "slug", 1000).trim().toLowerCase(),
    excerpt: text(form, "excerpt", 5000),
    tags: parseTags(text(form, "tags", 1000)),
    // One byte past the limit is enough for the check to name the problem.
    body: text(form, "body", ARTICLE_BODY_MAX_BYTES + 1).replace(/\r\n/g, "\n"),
    coverAlt: text(form, "coverAlt", 1000),
    seoTitle: text(form, "seoTitle", 1000),
    seoDescription: text(form, "seoDescription", 1000),
  };
}

/**
 * POST /admin/blog/edit/{id}: save, autosave, publish, schedule, unpublish, or remove the cover.
 * The editor's script posts with `js=1` and reads the answer; a form posted without script is
 * redirected back with a message on success, or shown again with its errors and every value kept.
 */
export async function adminBlogEditAction(
  request: Request,
  viewer: SignedInViewer,
  id: string,
  requestId: string | null,
) {
  if (id.length > MAX_ID_LENGTH) throw notFound(ARTICLE_MESSAGES.notFound);
  const form = await readForm(request);
  const intent = text(form, "intent", 40);
  const withScript = form.get("js") === "1";
  const db = getDatabase();
  const author = authorOf(viewer);
  if (intent === "cover-remove") {
    await removeArticleCover(db, author, id);
    return redirectWithFlash(articleEditPath(id), { kind: "success", text: "Cover image removed." });
  }
  const mode = (SAVE_MODES as readonly string[]).includes(intent) ? (intent as SaveMode) : null;
  const values: Record<string, string> = {};
  for (const name of [
    "title",
    "slug",
    "excerpt",
    "tags",
    "body",
    "coverAlt",
    "seoTitle",
    "seoDescription",
    "publishAt",
  ])
    values[name] = text(form, name, name === "body" ? ARTICLE_BODY_MAX_BYTES + 1 : 1000);
  const fail = (status: number, answer: Omit<Extract<EditorAnswer, { ok: false }>, "ok" | "values" | "mode">) =>
    data<EditorAnswer>({ ok: false, mode, values, ...answer }, { status });
  if (!mode) return fail(400, { fieldErrors: {}, formError: "Choose save, publish, schedule or unpublish." });
  const version = Number(text(form, "version", 20));
  if (!Number.isInteger(version) || version < 1)
    return fail(400, { fieldErrors: {}, formError: "The form is missing its version: reload the page." });
  const publishAtText = values.publishAt ?? "";
  // The editor sends the browser's local time converted to UTC (ISO); a form without script, the field's value as UTC.
  const publishAt = publishAtText
    ? new Date(/[zZ]|[+-]\d\d:\d\d$/.test(publishAtText) ? publishAtText : `${publishAtText}Z`)
    : null;
  try {
    const result = await saveArticle(db, {
      author,
      id,
      version,
      input: inputFrom(form),
      mode,
      publishAt,
      now: serverNow(),
      requestId,
    });
    const message = SUCCESS[mode](result);
    if (!withScript) return redirectWithFlash(articleEditPath(id), { kind: "success", text: message });
    return data<EditorAnswer>({
      ok: true,
      mode,
      version: result.version,
      slug: result.slug,
      status: result.status,
      publishedAt: result.publishedAt?.toISOString() ?? null,
      savedAt: result.savedAt.toISOString(),
      brokenLinks: result.brokenLinks,
      message,
    });
  } catch (error) {
    if (error instanceof ArticleFieldError)
      return fail(400, {
        fieldErrors: error.fieldErrors,
        formError: "Fix the fields marked below; nothing was saved.",
      });
    const refusal = refusalOf(error, ["conflict", "bad_request"]);
    if (refusal.code === "conflict") return fail(409, { fieldErrors: {}, formError: refusal.message, conflict: true });
    return fail(400, { fieldErrors: {}, formError: refusal.message });
  }
}

/** POST /admin/blog/preview: the body rendered exactly as the public page renders it. */
export async function adminBlogPreview(request: Request) {
  const form = await readForm(request);
  const body = text(form, "body", ARTICLE_BODY_MAX_BYTES + 1);
  try {
    const { rendered, brokenLinks } = await renderWithDirectoryLinks(getDatabase(), body);
    return { ok: true as const, html: rendered.html, readingMinutes: rendered.readingMinutes, brokenLinks };
  } catch (error) {
    if (error instanceof MarkdownRejectedError)
      return data({ ok: false as const, error: error.message }, { status: 400 });
    throw error;
  }
}

/** POST /admin/blog/edit/{id}/image: one image (`image`), as the cover (`cover=1`) or for the body. */
export async function adminBlogImageAction(
  request: Request,
  viewer: SignedInViewer,
  id: string,
  requestId: string | null,
) {
  if (id.length > MAX_ID_LENGTH) throw notFound(ARTICLE_MESSAGES.notFound);
  const back = articleEditPath(id);
  let form: FormData;
  try {
    form = await readUploadForm(request, {
      maxFiles: 1,
      maxFileBytes: 2 * PHOTO_MAX_BYTES,
      maxTotalBytes: BODY_LIMITS.articleImage,
    });
  } catch (error) {
    const refusal = refusalOf(error, ["too_large", "bad_request", "too_many_files"]);
    return data(
      { ok: false as const, error: refusal.code === "too_large" ? PHOTO_TEXT.requestTooLarge : refusal.message },
      { status: refusal.status },
    );
  }
  const withScript = form.get("js") === "1";
  const cover = form.get("cover") === "1";
  const [file] = await filesFrom(form, "image");
  const refuse = (status: number, message: string) =>
    withScript
      ? data({ ok: false as const, error: message }, { status })
      : redirectWithFlash(back, { kind: "error", text: message });
  if (!file) return refuse(400, "Choose an image to upload.");
  try {
    const image = await addArticleImage(getDatabase(), getImageStorage(), {
      actor: authorOf(viewer),
      articleId: id,
      file,
      cover,
      requestId,
    });
    const message = cover ? "Cover image set." : "Image uploaded: its Markdown is in the body where your cursor was.";
    if (!withScript) return redirectWithFlash(back, { kind: "success", text: message });
    return data({ ok: true as const, image, cover, message });
  } catch (error) {
    if (error instanceof ArticleFieldError) return refuse(400, Object.values(error.fieldErrors).flat().join(" "));
    if (error instanceof MarkdownRejectedError) return refuse(400, error.message);
    return refuse(404, refusalOf(error, ["not_found"]).message);
  }
}
