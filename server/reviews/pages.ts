/**
 * The loader and action bodies of the review screens (docs/product.md section 16): the reviews
 * section of the facility page (read, "helpful", "Report"), the author's form at
 * /location/{slug}/review, the owners' /owner/reviews and the work queue's "Reviews" section.
 */
import { data, redirect } from "react-router";
import {
  listingRating,
  REVIEW_LIMITS,
  REVIEW_NOTICES,
  REVIEW_SORT_LABELS,
  REVIEW_SORTS,
  REVIEWS_PAGE_SIZE,
  reviewsHref,
  STORED_KIND_LABELS,
  stayMonthLabel,
  stayMonths,
  SUB_RATING_LABELS,
  SUB_RATINGS,
  type FacilityReviewsData,
  type ReviewSort,
  type ShownReview,
} from "../../domain/reviews";
import { clampPage } from "../../domain/table-params";
import { actorOf } from "../auth/actor";
import { loginPathFor, requireUser } from "../auth/guards";
import { resolveAuthSecret } from "../auth/secret";
import { getViewer, isSignedIn, type SignedInViewer } from "../auth/viewer";
import { serverNow } from "../clock";
import { getConfig } from "../config";
import { getDatabase } from "../db";
import type { LocationRow } from "../db/schema";
import { isAppError } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { clientIp } from "../http/rate-limit";
import { flashRefusal, isRefusal } from "../http/refusal";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { listedLocationBySlug } from "../locations/pages";
import { decisionSchema, replySchema, reportSchema, reviewIdField, reviewInputOf, reviewSchema } from "./form";
import {
  publishedReviews,
  reviewByAuthor,
  reviewQueue,
  reviewQueueCount,
  reviewsForOwner,
  starDistribution,
  type PublishedReview,
} from "./queries";
import {
  confirmStay,
  decideReview,
  holdReasonLabels,
  reportKindLabel,
  deleteReview,
  editReview,
  replyToReview,
  reportReview,
  voteHelpful,
  writeReview,
  addressHash,
  assertOwnsReview,
  mayWriteReviews,
} from "./service";
import { z } from "zod";

export const REVIEW_RATE_LIMITS = {
  perAccount: { name: "review-account", windowMs: 24 * 60 * 60_000, max: REVIEW_LIMITS.perAccountPerDay },
  perAddress: { name: "review-ip", windowMs: 24 * 60 * 60_000, max: REVIEW_LIMITS.perAddressPerDay },
  reports: { name: "review-report-ip", windowMs: 60 * 60_000, max: REVIEW_LIMITS.reportsPerAddressPerHour },
} as const;

const isoDate = (d: Date | null) => (d ? d.toISOString() : null);
const dayFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
/** "Nov 28, 2026", in UTC as every page shows dates. */
const formatDate = (d: Date) => dayFormat.format(d);

/** A published review as the pages show it. */
function shownReview(row: PublishedReview): ShownReview {
  return {
    id: row.id,
    authorName: row.authorName,
    stars: row.stars,
    title: row.title,
    body: row.body,
    stay: `${STORED_KIND_LABELS[row.storedKind]}, ${row.lengthFeet} ft · stayed ${stayMonthLabel(row.stayMonth)}`,
    subRatings: SUB_RATINGS.flatMap((key) =>
      row[key] === null ? [] : [`${SUB_RATING_LABELS[key]} ${row[key]}/5`],
    ).join(" · "),
    helpfulCount: row.helpfulCount,
    date: isoDate(row.publishedAt ?? row.createdAt)!,
    dateText: formatDate(row.publishedAt ?? row.createdAt),
    edited: row.editedAt !== null,
    storedHere: row.storedHere === true,
    reply: row.replyBody ? { body: row.replyBody, dateText: formatDate(row.replyAt ?? row.createdAt) } : null,
  };
}

const sortOf = (value: string | null): ReviewSort =>
  (REVIEW_SORTS as readonly string[]).includes(value ?? "") ? (value as ReviewSort) : "newest";

/**
 * The facility page's reviews: the combined rating with its two sources, the distribution of the
 * first-party stars and one page of them (`?reviews=` sort, `?rpage=`), and the imported ones.
 * No query at all while the listing has no published review here.
 */
export async function facilityReviews(location: LocationRow, url: URL): Promise<FacilityReviewsData> {
  const combined = listingRating(location);
  const sort = sortOf(url.searchParams.get("reviews"));
  const pages = Math.max(1, Math.ceil(location.reviewCount / REVIEWS_PAGE_SIZE));
  const rawPage = Number(url.searchParams.get("rpage") ?? "1");
  const page = Number.isInteger(rawPage) && rawPage >= 1 ? Math.min(rawPage, pages) : 1;
  const db = getDatabase();
  const [distribution, rows] =
    location.reviewCount > 0
      ? await Promise.all([
          starDistribution(db, location.placeId),
          publishedReviews(db, location.placeId, { sort, page }),
        ])
      : [[0, 0, 0, 0, 0], []];
  const notice = url.searchParams.get("review") ?? "";
  const most = Math.max(1, ...distribution);
  const count = (n: number) => n.toLocaleString("en-US");
  return {
    combined,
    distribution,
    summary:
      combined.rating === null
        ? null
        : `from ${count(combined.count)} ${combined.count === 1 ? "review" : "reviews"}: ${count(combined.firstPartyCount)} on this site, ${count(combined.importedCount)} imported`,
    bars:
      combined.firstPartyCount === 0
        ? []
        : [5, 4, 3, 2, 1].map((stars) => ({
            label: `${stars} star${stars === 1 ? "" : "s"}`,
            count: count(distribution[stars - 1] ?? 0),
            width: `${((distribution[stars - 1] ?? 0) / most) * 100}%`,
          })),
    sorts: REVIEW_SORTS.map((each) => ({
      label: REVIEW_SORT_LABELS[each],
      href: reviewsHref(location.slug, each, 1),
      current: each === sort,
    })),
    page,
    pages,
    newerHref: page > 1 ? reviewsHref(location.slug, sort, page - 1) : null,
    nextHref: page < pages ? reviewsHref(location.slug, sort, page + 1) : null,
    items: rows.map(shownReview),
    imported: location.reviews.slice(0, 3),
    notice: Object.hasOwn(REVIEW_NOTICES, notice) ? REVIEW_NOTICES[notice]! : null,
  };
}

export type FacilityReviews = FacilityReviewsData;

const reviewFailure = (status: number, reviewId: number | null, message: string, headers?: HeadersInit) =>
  data({ review: "error" as const, reviewId, message }, { status, headers });

/**
 * The facility page's POSTs `intent=helpful` and `intent=report-review`, about a review of that
 * page's listing (`locationId`): a review of another listing is answered as unknown (404).
 */
export async function facilityReviewAction(request: Request, form: FormData, locationId: string) {
  const intent = form.get("intent");
  const idResult = reviewIdField.safeParse(form.get("reviewId"));
  const reviewId = idResult.success ? idResult.data : null;
  const db = getDatabase();
  if (intent === "helpful") {
    const viewer = await getViewer(request, { fresh: true });
    // Signed out: sign in and come back to the page (the vote is not kept; one click more).
    if (!isSignedIn(viewer)) throw redirect(loginPathFor(new URL(request.url)));
    if (reviewId === null) return reviewFailure(400, null, "Reload the page and try again.");
    try {
      const counted = await voteHelpful(db, { userId: viewer.userId, reviewId, locationId });
      const message = counted ? "Thanks for your vote." : "You marked this review helpful already.";
      return { review: "helpful" as const, reviewId, message };
    } catch (error) {
      if (isRefusal(error, ["not_found", "forbidden"])) return reviewFailure(error.status, reviewId, error.message);
      throw error;
    }
  }
  const parsed = parseFormSubmission(reportSchema, form);
  if (!parsed.ok) {
    const message = parsed.formError ?? Object.values(parsed.fieldErrors).flat()[0] ?? "Check the report.";
    return reviewFailure(400, reviewId, message);
  }
  const hit = await createSharedRateLimiter(db, REVIEW_RATE_LIMITS.reports).hit(clientIp(request));
  if (!hit.ok)
    return reviewFailure(429, reviewId, "You have sent several reports already. Please try again later.", {
      "Retry-After": String(hit.retryAfterSeconds),
    });
  const viewer = await getViewer(request);
  try {
    await reportReview(db, {
      reviewId: parsed.data.reviewId,
      kind: parsed.data.kind,
      message: parsed.data.message,
      reporterId: isSignedIn(viewer) ? viewer.userId : null,
      locationId,
    });
  } catch (error) {
    if (isRefusal(error, ["not_found"])) return reviewFailure(404, reviewId, error.message);
    throw error;
  }
  return {
    review: "reported" as const,
    reviewId: parsed.data.reviewId,
    message: "Thank you: our team reads the review and decides.",
  };
}

/**
 * /location/{slug}/review: the signed-in author's form, empty or with their review to edit. An
 * account that cannot write yet (email not confirmed) is told why instead of getting a form that
 * fails.
 */
export async function reviewFormPage(request: Request, slug: string) {
  const viewer = await requireUser(request);
  const location = await listedLocationBySlug(slug);
  const db = getDatabase();
  const own = await reviewByAuthor(db, location.placeId, viewer.userId);
  const canWrite = await mayWriteReviews(db, viewer.userId);
  return {
    listing: { name: location.name, slug: location.slug, city: location.city, state: location.state },
    canWrite,
    email: viewer.email,
    months: stayMonths(serverNow()).map((value) => ({ value, label: stayMonthLabel(value) })),
    review: own
      ? {
          id: own.id,
          status: own.status,
          decisionReason: own.decisionReason,
          stars: own.stars,
          title: own.title,
          body: own.body,
          stayMonth: own.stayMonth,
          storedKind: own.storedKind,
          lengthFeet: own.lengthFeet,
          security: own.security,
          access: own.access,
          value: own.value,
          cleanliness: own.cleanliness,
          edited: own.editedAt !== null,
        }
      : null,
  };
}

/** The review form's POST: `intent=save` writes or edits, `intent=delete` deletes. */
export async function reviewFormAction(request: Request, slug: string) {
  const viewer = await requireUser(request);
  const location = await listedLocationBySlug(slug);
  const form = await readForm(request);
  const db = getDatabase();
  const back = (notice: string) => `/location/${location.slug}?review=${notice}#reviews`;
  const own = await reviewByAuthor(db, location.placeId, viewer.userId);
  if (form.get("intent") === "delete") {
    if (!own) throw redirect(back("deleted"), 303);
    try {
      await deleteReview(db, { author: { userId: viewer.userId }, reviewId: own.id });
    } catch (error) {
      if (isRefusal(error, ["not_found"])) throw redirect(back("deleted"), 303);
      throw error;
    }
    throw redirect(back("deleted"), 303);
  }
  const parsed = parseFormSubmission(reviewSchema(serverNow()), form);
  if (!parsed.ok) return formFailure(parsed);
  const ip = clientIp(request);
  const ipHash = addressHash(ip, resolveAuthSecret(getConfig()));
  if (!own) {
    for (const [limit, key] of [
      [REVIEW_RATE_LIMITS.perAccount, viewer.userId],
      [REVIEW_RATE_LIMITS.perAddress, ip],
    ] as const) {
      const hit = await createSharedRateLimiter(db, limit).hit(key);
      if (!hit.ok)
        return formFailure(parsed, 429, {
          formError: "You have written several reviews today already. Please try again tomorrow.",
          headers: { "Retry-After": String(hit.retryAfterSeconds) },
        });
    }
  }
  try {
    const input = { author: { userId: viewer.userId }, review: reviewInputOf(parsed.data), ipHash };
    const written = own
      ? await editReview(db, { ...input, reviewId: own.id })
      : await writeReview(db, { ...input, locationId: location.placeId });
    throw redirect(back(written.status === "published" ? "published" : "held"), 303);
  } catch (error) {
    if (isRefusal(error, ["forbidden", "conflict", "not_found"]))
      return formFailure(parsed, error.status, { formError: error.message });
    throw error;
  }
}

/* ---------- /owner/reviews ---------- */

export const OWNER_REVIEWS_PAGE_SIZE = 20;
const MAX_OWNER_REVIEWS_PAGE = 10_000;
const OWNER_REVIEWS_PATH = "/owner/reviews";

export async function ownerReviewsPage(viewer: SignedInViewer, request: Request) {
  const params = new URL(request.url).searchParams;
  const db = getDatabase();
  const requested = Number(params.get("page") ?? "1");
  // Capped before the first query: a page number like 3e303 would overflow the database's offset
  // (found by the fuzz suite); a page past the last is then brought back to the last.
  let page = Number.isSafeInteger(requested) && requested >= 1 ? Math.min(requested, MAX_OWNER_REVIEWS_PAGE) : 1;
  let result = await reviewsForOwner(db, viewer.userId, { page, pageSize: OWNER_REVIEWS_PAGE_SIZE });
  const clamped = clampPage(page, result.total, OWNER_REVIEWS_PAGE_SIZE);
  if (clamped !== page) {
    page = clamped;
    result = await reviewsForOwner(db, viewer.userId, { page, pageSize: OWNER_REVIEWS_PAGE_SIZE });
  }
  return {
    total: result.total,
    unanswered: result.unanswered,
    page,
    pageSize: OWNER_REVIEWS_PAGE_SIZE,
    rows: result.rows.map((row) => ({
      ...shownReview(row),
      listing: { id: row.locationId, name: row.listingName, slug: row.listingSlug },
      stayConfirmed: row.stayConfirmed === true,
      reportedByYou: row.openReport === true,
    })),
  };
}

const ownerReportSchema = reportSchema.extend({ intent: z.literal("owner-report") });
const confirmSchema = z.object({ intent: z.literal("confirm-stay"), reviewId: reviewIdField });

/** /owner/reviews POSTs: a reply (written or edited), a report, the "stored here" confirmation. */
export async function ownerReviewsAction(viewer: SignedInViewer, request: Request, requestId: string | null) {
  const url = new URL(request.url);
  const here = `${OWNER_REVIEWS_PATH}${url.search}`;
  const form = await readForm(request);
  const intent = form.get("intent");
  const db = getDatabase();
  const actor = actorOf(viewer);
  try {
    if (intent === "reply") {
      const parsed = parseFormSubmission(replySchema, form);
      if (!parsed.ok) return formFailure(parsed);
      const done = await replyToReview(db, {
        actor,
        reviewId: parsed.data.reviewId,
        body: parsed.data.body,
        requestId,
      });
      return redirectWithFlash(here, {
        kind: "success",
        text: done === "written" ? "Your reply is published under the review." : "Your reply is updated.",
      });
    }
    if (intent === "owner-report") {
      const parsed = parseFormSubmission(ownerReportSchema, form);
      if (!parsed.ok) return formFailure(parsed);
      // Only the owner of the review's listing reports from here (the facility page takes anyone's).
      await assertOwnsReview(db, viewer.userId, parsed.data.reviewId);
      await reportReview(db, {
        reviewId: parsed.data.reviewId,
        kind: parsed.data.kind,
        message: parsed.data.message,
        reporterId: viewer.userId,
      });
      return redirectWithFlash(here, {
        kind: "success",
        text: "Reported: an administrator reads the review and decides. It stays up until then.",
      });
    }
    if (intent === "confirm-stay") {
      const parsed = parseFormSubmission(confirmSchema, form);
      if (!parsed.ok) return formFailure(parsed);
      await confirmStay(db, { actor, reviewId: parsed.data.reviewId, requestId });
      return redirectWithFlash(here, { kind: "success", text: "Confirmed: the review shows “Stored here”." });
    }
  } catch (error) {
    // A review of someone else's listing is answered as if it did not exist (the 404 page).
    if (isRefusal(error, ["not_found"])) throw error;
    return flashRefusal(here, error, ["forbidden", "conflict"]);
  }
  return redirectWithFlash(here, { kind: "error", text: "Unknown action. Reload the page and try again." });
}

/* ---------- the work queue's "Reviews" section ---------- */

export async function reviewQueueSection(page: number, pageSize: number) {
  const db = getDatabase();
  const total = await reviewQueueCount(db);
  const current = clampPage(page, total, pageSize);
  const rows = await reviewQueue(db, { page: current, pageSize });
  return {
    total,
    page: current,
    reviews: rows.map((row) => ({
      id: row.id,
      status: row.status as "held" | "published",
      stars: row.stars,
      title: row.title,
      body: row.body,
      authorName: row.authorName,
      authorId: row.authorId,
      holdReasons: holdReasonLabels(row.holdReasons),
      createdAt: row.createdAt.toISOString(),
      listing: { id: row.locationId, name: row.listingName, slug: row.listingSlug },
      reports: row.reports.map((r) => ({
        kind: reportKindLabel(r.kind),
        message: r.message,
        byOwner: r.byOwner,
        createdAt: r.createdAt.toISOString(),
      })),
    })),
  };
}

export const reviewQueueCountOf = () => reviewQueueCount(getDatabase());

/** A decision from the queue: back to the queue with a toast; a missing reason answers the form. */
export async function reviewDecisionAction(
  form: FormData,
  viewer: SignedInViewer,
  back: string,
  requestId: string | null,
) {
  const parsed = parseFormSubmission(decisionSchema, form);
  if (!parsed.ok) return formFailure(parsed);
  const decision =
    parsed.data.intent === "review-approve" ? "approve" : parsed.data.intent === "review-reject" ? "reject" : "remove";
  try {
    const { status } = await decideReview(getDatabase(), {
      actor: actorOf(viewer),
      reviewId: parsed.data.reviewId,
      decision,
      reason: parsed.data.reason,
      expectedStatus: parsed.data.status,
      requestId,
    });
    const text =
      status === "published"
        ? parsed.data.status === "held"
          ? "Approved: the review is published and counts in the rating."
          : "Kept: the review stays published and its reports are dismissed."
        : status === "rejected"
          ? "Rejected: the author is emailed your reason and may change the review."
          : "Removed: the review is gone from the facility page and the rating. The author is emailed your reason.";
    return redirectWithFlash(back, { kind: "success", text });
  } catch (error) {
    if (isAppError(error, ["bad_request"])) return formFailure(parsed, 400, { formError: error.message });
    return flashRefusal(back, error, ["conflict", "not_found"]);
  }
}
