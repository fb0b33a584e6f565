import Star from "lucide-react/icons/star";
import { Form, Link, useNavigation } from "react-router";
import {
  REVIEW_LIMITS,
  REVIEW_REPORT_KINDS,
  REVIEW_REPORT_LABELS,
  REVIEW_SORT_LABELS,
  REVIEW_SORTS,
  SUB_RATING_LABELS,
  type FacilityReviewsData as FacilityReviews,
  type ReviewActionResult,
  type ReviewSort,
  type ShownReview,
} from "../../../domain/reviews";
import { formatDate, formatNumber } from "../../lib/format";
import { cn } from "../../lib/cn";
import { buttonClasses } from "../ui/button";

/**
 * The facility page's reviews (docs/product.md section 16): the combined rating with its two
 * sources told apart, the stars given here, the reviews written here first (sorted, paged, each
 * with "Helpful", "Report" and the owner's reply), then the imported ones. Sorting and paging are
 * links and the two buttons are plain forms: it all works before the page's script runs.
 */
export function ReviewsSection({
  slug,
  data,
  result,
}: {
  slug: string;
  data: FacilityReviews;
  result: ReviewActionResult | undefined;
}) {
  const { combined } = data;
  const here = `/location/${slug}`;
  const query = (sort: ReviewSort, page: number) => {
    const params = new URLSearchParams();
    if (sort !== "newest") params.set("reviews", sort);
    if (page > 1) params.set("rpage", String(page));
    const search = params.toString();
    return `${here}${search ? `?${search}` : ""}#reviews`;
  };
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="scroll-mt-20">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="reviews-heading" className="text-xl font-semibold">
          Reviews
        </h2>
        <Link to={`${here}/review`} className={buttonClasses("secondary", "md", "py-2")}>
          Write a review
        </Link>
      </div>
      {data.notice && (
        <p role="status" className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {data.notice === "published"
            ? "Thank you: your review is published."
            : data.notice === "held"
              ? "Thank you: your review waits for a check by our team before it is published. We email you when it is."
              : "Your review is deleted."}
        </p>
      )}
      <Summary combined={combined} distribution={data.distribution} />
      {data.items.length > 0 && (
        <>
          <nav aria-label="Sort reviews" className="mt-4 flex flex-wrap gap-2 text-sm">
            {REVIEW_SORTS.map((sort) => (
              <Link
                key={sort}
                to={query(sort, 1)}
                preventScrollReset
                aria-current={sort === data.sort ? "true" : undefined}
                className={cn(
                  "rounded-full border px-3 py-1",
                  sort === data.sort
                    ? "border-brand-600 bg-brand-50 font-medium text-brand-700"
                    : "border-slate-300 text-slate-700",
                )}
              >
                {REVIEW_SORT_LABELS[sort]}
              </Link>
            ))}
          </nav>
          <ul className="mt-4 space-y-4">
            {data.items.map((review) => (
              <ReviewItem
                key={review.id}
                review={review}
                result={result?.reviewId === review.id ? result : undefined}
              />
            ))}
          </ul>
          {data.pages > 1 && (
            <nav aria-label="Review pages" className="mt-4 flex items-center gap-3 text-sm">
              {data.page > 1 && (
                <Link to={query(data.sort, data.page - 1)} preventScrollReset className="text-brand-700 underline">
                  Newer page
                </Link>
              )}
              <span className="text-slate-600">
                Page {data.page} of {data.pages}
              </span>
              {data.page < data.pages && (
                <Link to={query(data.sort, data.page + 1)} preventScrollReset className="text-brand-700 underline">
                  Next page
                </Link>
              )}
            </nav>
          )}
        </>
      )}
      {data.imported.length > 0 && (
        <>
          <h3 className="mt-6 text-lg font-semibold">Imported reviews</h3>
          <ul className="mt-3 space-y-4">
            {data.imported.map((r, i) => (
              <li key={i} className="rounded-card border border-slate-200 p-4">
                <p className="font-medium">
                  {r.author}{" "}
                  <span className="text-sm font-normal text-slate-600">
                    · {r.rating}/5 · {r.relativeTime}
                  </span>
                </p>
                <p className="mt-1 text-slate-700">{r.text}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Summary({ combined, distribution }: { combined: FacilityReviews["combined"]; distribution: number[] }) {
  if (combined.rating === null)
    return <p className="mt-3 text-slate-600">No reviews yet. Stored here? Be the first to write one.</p>;
  const most = Math.max(1, ...distribution);
  return (
    <div className="mt-3 flex flex-wrap items-start gap-6">
      <p className="text-slate-700">
        <span className="text-3xl font-bold text-slate-900">{combined.rating.toFixed(1)}</span>{" "}
        <span>
          from {formatNumber(combined.count)} {combined.count === 1 ? "review" : "reviews"}:{" "}
          {formatNumber(combined.firstPartyCount)} on this site, {formatNumber(combined.importedCount)} imported
        </span>
      </p>
      {combined.firstPartyCount > 0 && (
        <table className="text-sm text-slate-700">
          <caption className="sr-only">Stars given on this site</caption>
          <tbody>
            {[5, 4, 3, 2, 1].map((stars) => {
              const n = distribution[stars - 1] ?? 0;
              return (
                <tr key={stars}>
                  <th scope="row" className="pr-2 text-left font-normal">
                    {stars} star{stars === 1 ? "" : "s"}
                  </th>
                  <td className="w-32 py-0.5">
                    <span className="block h-2 rounded bg-slate-100">
                      <span className="block h-2 rounded bg-amber-400" style={{ width: `${(n / most) * 100}%` }} />
                    </span>
                  </td>
                  <td className="pl-2 text-right tabular-nums">{formatNumber(n)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Stars({ stars }: { stars: number }) {
  return (
    <span className="inline-flex" role="img" aria-label={`${stars} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star
          key={i}
          aria-hidden="true"
          className={cn("size-4", i <= stars ? "fill-amber-400 text-amber-500" : "text-slate-300")}
        />
      ))}
    </span>
  );
}

function ReviewItem({ review, result }: { review: ShownReview; result: ReviewActionResult | undefined }) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData.get("reviewId") === String(review.id);
  const helpful = review.helpfulCount + (result?.review === "helpful" && result.counted ? 1 : 0);
  return (
    <li className="rounded-card border border-slate-200 p-4" aria-labelledby={`review-${review.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Stars stars={review.stars} />
        <h3 id={`review-${review.id}`} className="font-semibold">
          {review.title}
        </h3>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {review.authorName} · {formatDate(review.date)}
        {review.edited && " · edited"}
        {review.storedHere && (
          <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">
            Stored here
          </span>
        )}
      </p>
      <p className="text-sm text-slate-600">{review.stay}</p>
      {review.subRatings.length > 0 && (
        <p className="mt-1 text-sm text-slate-600">
          {review.subRatings.map((s) => `${SUB_RATING_LABELS[s.key]} ${s.stars}/5`).join(" · ")}
        </p>
      )}
      <p className="mt-2 whitespace-pre-line text-slate-700">{review.body}</p>
      {review.reply && (
        <div className="mt-3 rounded-md border-l-4 border-brand-500 bg-slate-50 p-3">
          <p className="text-sm font-medium">Response from the owner · {formatDate(review.reply.date)}</p>
          <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{review.reply.body}</p>
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-start gap-4 text-sm">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="helpful" />
          <input type="hidden" name="reviewId" value={review.id} />
          <button
            type="submit"
            disabled={busy("helpful") || result?.review === "helpful"}
            className="min-h-9 rounded-md border border-slate-300 px-3 text-slate-700 hover:bg-slate-50 disabled:opacity-70"
          >
            Helpful ({formatNumber(helpful)})
          </button>
        </Form>
        {result?.review === "reported" ? (
          <p role="status" className="text-emerald-800">
            Thank you: our team reads the review and decides.
          </p>
        ) : (
          <details open={result?.review === "error" && !result.message.includes("helpful") ? true : undefined}>
            <summary className="min-h-9 cursor-pointer py-2 text-slate-700 underline">Report</summary>
            <Form method="post" preventScrollReset className="mt-2 max-w-md space-y-2">
              <input type="hidden" name="intent" value="report-review" />
              <input type="hidden" name="reviewId" value={review.id} />
              <fieldset>
                <legend className="font-medium text-slate-800">Why should we look at this review?</legend>
                {REVIEW_REPORT_KINDS.map((kind) => (
                  <label key={kind} className="mt-1 flex items-center gap-2 text-slate-700">
                    <input type="radio" name="kind" value={kind} required className="accent-brand-500" />
                    {REVIEW_REPORT_LABELS[kind]}
                  </label>
                ))}
              </fieldset>
              <label className="block">
                <span className="font-medium text-slate-800">Details (optional)</span>
                <textarea
                  name="message"
                  rows={2}
                  maxLength={REVIEW_LIMITS.reasonMax}
                  className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
                />
              </label>
              <button type="submit" disabled={busy("report-review")} className={buttonClasses("secondary", "sm")}>
                {busy("report-review") ? "Sending…" : "Send report"}
              </button>
            </Form>
          </details>
        )}
      </div>
      {result?.review === "error" && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {result.message}
        </p>
      )}
      {result?.review === "helpful" && (
        <p role="status" className="mt-2 text-sm text-emerald-800">
          {result.counted ? "Thanks for your vote." : "You marked this review helpful already."}
        </p>
      )}
    </li>
  );
}
