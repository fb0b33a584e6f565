import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { BLOG_IMAGES_FOLDER, blogImageUrl, parseBlogImageFile } from "../../domain/articles";
import { IMAGE_CONTENT_TYPES } from "../../domain/images";
import { PHOTO_TEXT } from "../../domain/listing-photos";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Database } from "../db/client";
import { articleImages, articles } from "../db/schema";
import { AppError } from "../errors";
import { renderQueueFor } from "../images/demo-photos";
import { ImageRejectedError, processImage, type ImageVariant } from "../images/pipeline";
import { RenderQueueFullError } from "../images/render-queue";
import { storedImageResponse } from "../images/serve";
import type { ImageStorage } from "../images/storage";
import { photoFileProblem, type PhotoFile } from "../listings/photos";
import { DEMO_ARTICLES, DEMO_COVER_PREFIX, demoCoverId, demoCoverSvg } from "./demo-articles";
import { ArticleFieldError, ARTICLE_MESSAGES } from "./service";

/**
 * Article images (docs/product.md section 13): uploaded through the photo pipeline (the same
 * checks, sizes and formats as listing photos) and stored as `blog-images/{id}/w{width}.{format}`.
 * A cover upload sets the article's cover; a body image answers the Markdown to insert.
 */
const tx = (t: unknown) => t as Database;

const keyOf = (imageId: string, width: number, format: string) =>
  `${BLOG_IMAGES_FOLDER}/${imageId}/w${width}.${format}`;

async function storeVariants(storage: ImageStorage, imageId: string, variants: readonly ImageVariant[]) {
  for (const v of variants) await storage.put(keyOf(imageId, v.width, v.format), v.bytes);
}

/** The pixel size of the widest variant: the image's size on the page and in Markdown. */
function sizeOf(variants: readonly ImageVariant[]): { width: number; height: number } {
  const widest = variants.reduce((a, b) => (b.outputWidth > a.outputWidth ? b : a));
  return { width: widest.outputWidth, height: widest.outputHeight };
}

export interface StoredArticleImage {
  id: string;
  width: number;
  height: number;
  /** The widest JPEG, for Markdown: `![alt](url)`. */
  url: string;
}

/** Processes and stores one image for article `articleId`; `cover` also makes it the article's cover. */
export async function addArticleImage(
  db: Database,
  storage: ImageStorage,
  request: { actor: AuditActor; articleId: string; file: PhotoFile; cover: boolean; requestId?: string | null },
): Promise<StoredArticleImage> {
  const field = request.cover ? "cover" : "body";
  const { actor, articleId, file } = request;
  const [article] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.id, articleId), isNull(articles.deletedAt)));
  if (!article) throw new AppError("not_found", 404, ARTICLE_MESSAGES.notFound);
  const problem = await photoFileProblem(file);
  if (problem) throw new ArticleFieldError({ [field]: [problem] });
  let variants: ImageVariant[];
  let size: { width: number; height: number };
  try {
    const processed = await renderQueueFor(storage).run(`article:${randomUUID()}`, () => processImage(file.bytes));
    variants = processed.variants;
    size = sizeOf(variants);
  } catch (error) {
    if (error instanceof RenderQueueFullError) throw new ArticleFieldError({ [field]: [PHOTO_TEXT.busy(file.name)] });
    if (error instanceof ImageRejectedError)
      throw new ArticleFieldError({ [field]: [PHOTO_TEXT.unreadable(file.name, error.message)] });
    throw error;
  }
  const id = randomUUID();
  await storeVariants(storage, id, variants);
  try {
    await db.transaction(async (t) => {
      const db = tx(t);
      await db.insert(articleImages).values({ id, articleId, ...size, uploadedBy: actor.userId });
      if (request.cover)
        await db
          .update(articles)
          .set({ coverImageId: id, coverWidth: size.width, coverHeight: size.height })
          .where(eq(articles.id, articleId));
      await recordAudit(db, {
        actor,
        action: request.cover ? "article.cover" : "article.image",
        subject: { type: "article", id: articleId },
        after: { imageId: id },
        requestId: request.requestId,
      });
    });
  } catch (error) {
    await storage.remove(`${BLOG_IMAGES_FOLDER}/${id}`).catch(() => 0);
    throw error;
  }
  return { id, ...size, url: blogImageUrl(id, 1280, "jpg") };
}

/** Takes the cover off an article (its files stay, for the revision a visitor may have cached). */
export async function removeArticleCover(db: Database, actor: AuditActor, articleId: string): Promise<void> {
  await db.transaction(async (t) => {
    const db = tx(t);
    const [row] = await db
      .update(articles)
      .set({ coverImageId: null, coverWidth: null, coverHeight: null })
      .where(and(eq(articles.id, articleId), isNull(articles.deletedAt)))
      .returning({ id: articles.id });
    if (!row) throw new AppError("not_found", 404, ARTICLE_MESSAGES.notFound);
    await recordAudit(db, { actor, action: "article.cover_remove", subject: { type: "article", id: articleId } });
  });
}

/** GET /blog-images/{imageId}/{file}. */
export async function serveBlogImage(
  request: Request,
  params: { imageId?: string; file?: string },
  storage: ImageStorage,
): Promise<Response> {
  const imageId = params.imageId ?? "";
  const file = parseBlogImageFile(imageId, params.file ?? "");
  const missing = (text: string) =>
    new Response(text, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  if (!file) return missing("Unknown image");
  const key = keyOf(imageId, file.width, file.format);
  let object = await storage.get(key);
  if (!object) {
    try {
      if (await drawDemoCover(storage, imageId)) object = await storage.get(key);
    } catch (error) {
      if (error instanceof RenderQueueFullError)
        return new Response(error.message, {
          status: 503,
          headers: { "Retry-After": String(error.retryAfterSeconds), "Cache-Control": "no-store" },
        });
      throw error;
    }
  }
  if (!object) return missing("Image not found");
  return storedImageResponse(request, object, IMAGE_CONTENT_TYPES[file.format]);
}

/** Draws and stores a demo article's cover when `imageId` names one; false otherwise. */
export async function drawDemoCover(storage: ImageStorage, imageId: string): Promise<boolean> {
  if (!imageId.startsWith(DEMO_COVER_PREFIX)) return false;
  const article = DEMO_ARTICLES.find((a) => demoCoverId(a.slug) === imageId);
  if (!article) return false;
  await renderQueueFor(storage).run(`cover:${imageId}`, () => storeDemoCover(storage, imageId, demoCoverSvg(article)));
  return true;
}

/** Stores a demo cover drawn from SVG. */
async function storeDemoCover(storage: ImageStorage, imageId: string, svg: string) {
  const processed = await processImage(Buffer.from(svg));
  await storeVariants(storage, imageId, processed.variants);
  return sizeOf(processed.variants);
}
