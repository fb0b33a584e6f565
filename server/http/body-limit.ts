import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { EVENTS_ENDPOINT, INGEST_LIMITS } from "../../domain/analytics-types";
import { ARTICLE_FORM_MAX_BYTES } from "../../domain/articles";
import { IMPORT_MAX_BYTES } from "../../domain/catalogue";
import { CLAIM_EVIDENCE_MAX_BYTES, CLAIM_EVIDENCE_MAX_FILES } from "../../domain/claims";
import { PHOTO_BATCH_FILES, PHOTO_MAX_BYTES } from "../../domain/listing-photos";
import { refuse } from "./request-rules";

/**
 * The largest request body each kind of route accepts, in bytes (docs/operations.md "Request
 * bodies and HTTP"). Every body is capped here, in Express, before better-auth and React Router
 * read it, so that no route can forget: a form action that calls `request.formData()` never sees
 * more than its route's cap.
 */
export const BODY_LIMITS = {
  /** Sign-in, sign-up and every other page form, and their `.data` submissions. */
  form: 16 * 1024,
  /** better-auth's endpoints take an empty or tiny JSON object. */
  auth: 8 * 1024,
  /** The analytics endpoint checks its own, larger limit again (server/analytics/endpoint.ts). */
  analytics: INGEST_LIMITS.maxBodyBytes,
  /** Stripe's webhook events (an invoice with its lines runs to tens of kB). */
  stripeWebhook: 512 * 1024,
  /** Any other API route. */
  other: 16 * 1024,
  /** A claim with its evidence: 3 files of 10 MB and the form's fields (server/http/upload.ts). */
  claimUpload: CLAIM_EVIDENCE_MAX_FILES * CLAIM_EVIDENCE_MAX_BYTES + 256 * 1024,
  /**
   * Listing photos: 10 files of 15 MB and the form's fields (docs/product.md section 10 "Photos");
   * the photo manager sends one file per request, so 30 photos take several requests.
   */
  photoUpload: PHOTO_BATCH_FILES * PHOTO_MAX_BYTES + 256 * 1024,
  /** A catalogue file imported from the browser (docs/product.md section 12, "Import and export"). */
  catalogueImport: IMPORT_MAX_BYTES + 256 * 1024,
  /** The article editor and its preview (docs/product.md section 13): a whole article's Markdown. */
  articleForm: ARTICLE_FORM_MAX_BYTES,
  /** One article image, as a listing photo. */
  articleImage: PHOTO_MAX_BYTES + 256 * 1024,
} as const;

/**
 * The pages whose forms carry files, matched on the whole path (and its `.data` twin, which
 * React Router posts to when JavaScript runs). Segments are split, never pattern-matched, so a
 * long path costs a linear scan.
 */
function isClaimForm(lower: string): boolean {
  const parts = lower.split("/");
  if (parts.length !== 4 || parts[0] !== "" || parts[1] !== "owner" || parts[2] !== "claim") return false;
  const id = parts[3]!.endsWith(".data") ? parts[3]!.slice(0, -5) : parts[3]!;
  return id.length > 0 && id.length <= 1000;
}

/** `/owner/locations/{id}/photos/upload`, the one address that takes listing photos. */
function isPhotoUpload(lower: string): boolean {
  const parts = lower.split("/");
  if (parts.length !== 6 || parts[0] !== "" || parts[1] !== "owner" || parts[2] !== "locations") return false;
  return parts[4] === "photos" && parts[5] === "upload" && parts[3]!.length > 0 && parts[3]!.length <= 1000;
}

/** Where the admin catalogue's import uploads its file (docs/api.md). */
export const CATALOGUE_IMPORT_PATH = "/admin/locations/import/upload";

/** Where Stripe posts its events (docs/api.md). */
export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

/** `/admin/blog/edit/{id}` (and `.data`), `/admin/blog/new` and `/admin/blog/preview`; or the image upload. */
function articleRoute(lower: string): "form" | "image" | null {
  const parts = lower.split("/");
  if (parts.length < 4 || parts[0] !== "" || parts[1] !== "admin" || parts[2] !== "blog") return null;
  if (parts.length === 4)
    return parts[3] === "preview" || parts[3] === "new" || parts[3] === "new.data" ? "form" : null;
  if (parts[3] !== "edit" || parts[4]!.length === 0 || parts[4]!.length > 1000) return null;
  if (parts.length === 5) return "form";
  if (parts.length === 6 && (parts[5] === "image" || parts[5] === "image.data")) return "image";
  return null;
}

export function bodyLimitFor(path: string): number {
  // Express and React Router match paths case-insensitively; a variant spelling gets the smaller cap.
  if (path === EVENTS_ENDPOINT) return BODY_LIMITS.analytics;
  if (path === STRIPE_WEBHOOK_PATH) return BODY_LIMITS.stripeWebhook;
  if (path === CATALOGUE_IMPORT_PATH) return BODY_LIMITS.catalogueImport;
  const lower = path.toLowerCase();
  if (lower.startsWith("/api/auth/")) return BODY_LIMITS.auth;
  if (lower.startsWith("/api/")) return BODY_LIMITS.other;
  if (isClaimForm(lower)) return BODY_LIMITS.claimUpload;
  if (isPhotoUpload(lower)) return BODY_LIMITS.photoUpload;
  const article = articleRoute(lower);
  if (article) return article === "image" ? BODY_LIMITS.articleImage : BODY_LIMITS.articleForm;
  return BODY_LIMITS.form;
}

const kB = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} kB`;

function tooLarge(req: Request, res: Response, cap: number): void {
  // The rest of the body is not read: the connection closes after this answer.
  res.setHeader("Connection", "close");
  refuse(req, res, 413, `The request body exceeds the ${kB(cap)} (${cap} bytes) this address accepts.`);
}

type Push = IncomingMessage["push"];

/**
 * Holds a chunked body back from every reader until it has arrived whole, counting its bytes as
 * the parser hands them over; past `cap` it stops accepting them. A body within the cap is then
 * released unchanged, so readers (React Router's stream over `req`, better-auth's) see either the
 * complete body or nothing. node:http delivers body bytes through the request's `push` (the
 * Readable contract), which is why the count sits there and not on a reader.
 */
function holdBody(req: IncomingMessage, cap: number, done: (within: boolean) => void): void {
  // Bytes that arrived with the headers are already buffered in the stream.
  let size = req.readableLength;
  if (req.complete) return done(size <= cap);
  if (size > cap) return done(false);
  const held: Buffer[] = [];
  const instance = req as unknown as { push: Push };
  instance.push = (chunk, encoding) => {
    if (chunk === null) {
      delete (instance as Partial<typeof instance>).push;
      for (const part of held) req.push(part);
      const more = req.push(null, encoding);
      done(true);
      return more;
    }
    size += (chunk as Buffer).length;
    if (size <= cap) {
      held.push(chunk as Buffer);
      return true;
    }
    held.length = 0;
    // Drop anything that still arrives; `false` also tells the parser to stop reading the socket.
    instance.push = () => false;
    done(false);
    return false;
  };
}

/** Express middleware: answers 413 for a body over its route's cap, announced or streamed. */
export function bodyLimit(limitFor: (path: string) => number = bodyLimitFor) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (declared === undefined && !chunked) return next();
    const cap = limitFor(req.path);
    if (declared !== undefined && Number(declared) > cap) return tooLarge(req, res, cap);
    // node:http reads exactly Content-Length bytes (and refuses a request that sends both
    // headers), so only a chunked body can grow past what was announced.
    if (!chunked) return next();
    holdBody(req, cap, (within) => (within ? next() : tooLarge(req, res, cap)));
  };
}
