import { Form, Link } from "react-router";
import { REVIEW_DETAILS_MAX, REVIEW_REPORT_KINDS, REVIEW_REPORT_LABELS } from "../../../domain/review-labels";
import type { FacilityReviewsData as FacilityReviews, ReviewActionResult, ShownReview } from "../../../domain/reviews";
import { formatNumber } from "../../lib/format";
import { buttonClasses } from "../ui/button";
import { ReportDisclosure } from "./report-disclosure";

/*
 * Class names are joined by hand here, not with `cn`: its class merger would add ~8 kB to the
 * facility page's budget for two conditional classes.
 */

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
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="scroll-mt-20">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="reviews-heading" className="text-xl font-semibold">
          Reviews
        </h2>
        <Link to={`/location/${slug}/review`} className={buttonClasses("secondary", "md", "py-2")}>
          Write a review
        </Link>
      </div>
      {data.notice && (
        <p role="status" className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {data.notice}
        </p>
      )}
      <Summary data={data} />
      {data.items.length > 0 && (
        <>
          <nav aria-label="Sort reviews" className="mt-4 flex flex-wrap gap-2 text-sm">
            {data.sorts.map((sort) => (
              <Link
                key={sort.href}
                to={sort.href}
                preventScrollReset
                aria-current={sort.current ? "true" : undefined}
                className={`rounded-full border px-3 py-1 ${
                  sort.current
                    ? "border-brand-600 bg-brand-50 font-medium text-brand-700"
                    : "border-slate-300 text-slate-700"
                }`}
              >
                {sort.label}
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
              {data.newerHref && (
                <Link to={data.newerHref} preventScrollReset className="text-brand-700 underline">
                  Newer page
                </Link>
              )}
              <span className="text-slate-600">
                Page {data.page} of {data.pages}
              </span>
              {data.nextHref && (
                <Link to={data.nextHref} preventScrollReset className="text-brand-700 underline">
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

function Summary({ data }: { data: FacilityReviews }) {
  if (data.combined.rating === null || !data.summary)
    return <p className="mt-3 text-slate-600">No reviews yet. Stored here? Be the first to write one.</p>;
  return (
    <div className="mt-3 flex flex-wrap items-start gap-6">
      <p className="text-slate-700">
        <span className="text-3xl font-bold text-slate-900">{data.combined.rating.toFixed(1)}</span> {data.summary}
      </p>
      {data.bars.length > 0 && (
        <table className="text-sm text-slate-700">
          <caption className="sr-only">Stars given on this site</caption>
          <tbody>
            {data.bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row" className="pr-2 text-left font-normal">
                  {bar.label}
                </th>
                <td className="w-32 py-0.5">
                  <span className="block h-2 rounded bg-slate-100">
                    <span className="block h-2 rounded bg-amber-400" style={{ width: bar.width }} />
                  </span>
                </td>
                <td className="pl-2 text-right tabular-nums">{bar.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Stars as text ("★★★★☆"), named for screen readers. */
function Stars({ stars }: { stars: number }) {
  return (
    <span role="img" aria-label={`${stars} out of 5 stars`} className="tracking-tight text-amber-500">
      {"★".repeat(stars)}
      <span className="text-slate-300">{"★".repeat(5 - stars)}</span>
    </span>
  );
}

function ReviewItem({ review, result }: { review: ShownReview; result: ReviewActionResult | undefined }) {
  return (
    <li className="rounded-card border border-slate-200 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Stars stars={review.stars} />
        <h3 className="font-semibold">{review.title}</h3>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {review.authorName} · {review.dateText}
        {review.edited && " · edited"}
        {review.storedHere && (
          <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">
            Stored here
          </span>
        )}
      </p>
      <p className="text-sm text-slate-600">{review.stay}</p>
      {review.subRatings && <p className="mt-1 text-sm text-slate-600">{review.subRatings}</p>}
      <p className="mt-2 whitespace-pre-line text-slate-700">{review.body}</p>
      {review.reply && (
        <div className="mt-3 rounded-md border-l-4 border-brand-500 bg-slate-50 p-3">
          <p className="text-sm font-medium">Response from the owner · {review.reply.dateText}</p>
          <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{review.reply.body}</p>
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-start gap-4 text-sm">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="helpful" />
          <input type="hidden" name="reviewId" value={review.id} />
          <button type="submit" disabled={result?.review === "helpful"} className={buttonClasses("secondary", "sm")}>
            Helpful ({formatNumber(review.helpfulCount)})
          </button>
        </Form>
        {result?.review !== "reported" && (
          <ReportDisclosure
            summary="Report"
            legend="Why should we look at this review?"
            intent="report-review"
            reviewId={review.id}
            kinds={REVIEW_REPORT_KINDS}
            labels={REVIEW_REPORT_LABELS}
            maxLength={REVIEW_DETAILS_MAX}
          />
        )}
      </div>
      {result && (
        <p
          role={result.review === "error" ? "alert" : "status"}
          className={`mt-2 text-sm ${result.review === "error" ? "text-red-700" : "text-emerald-800"}`}
        >
          {result.message}
        </p>
      )}
    </li>
  );
}
