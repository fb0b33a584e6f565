import Star from "lucide-react/icons/star";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { EmptyState } from "../../components/ui/empty-state";
import { Select } from "../../components/ui/select";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { FormError } from "../../components/ui/field";
import { Pagination } from "../../components/search/pagination";
import { REVIEW_LIMITS, REVIEW_REPORT_KINDS, REVIEW_REPORT_LABELS } from "../../../domain/reviews";
import { privatePageMeta } from "../../lib/meta";
import { useFormState } from "../../lib/forms";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { ownerReviewsAction, ownerReviewsPage } from "../../../server/reviews/pages";
import type { Route } from "./+types/reviews";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Reviews", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Reviews" };

export async function loader({ request, context }: Route.LoaderArgs) {
  return ownerReviewsPage(context.get(viewerContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return ownerReviewsAction(context.get(viewerContext), request, context.get(requestIdContext));
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

function ReviewCard({ review }: { review: Row }) {
  const form = useFormState();
  const mine = form.value("reviewId") === String(review.id);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <article aria-labelledby={`review-${review.id}`}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id={`review-${review.id}`} className="text-lg font-semibold text-slate-900">
              {review.title}
            </h2>
            <p className="text-sm text-slate-600">
              <span aria-label={`${review.stars} out of 5 stars`}>{"★".repeat(review.stars)}</span> ·{" "}
              {review.authorName} · {review.dateText}
              {review.edited && " · edited"} ·{" "}
              <Link to={`/location/${review.listing.slug}#reviews`} className="text-brand-700 underline">
                {review.listing.name}
              </Link>
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {review.reply ? <Badge tone="neutral">Answered</Badge> : <Badge tone="info">Unanswered</Badge>}
            {review.storedHere && <Badge tone="success">Stored here</Badge>}
            {review.reportedByYou && <Badge tone="warning">Reported</Badge>}
          </div>
        </div>
        <p className="mt-1 text-sm text-slate-600">{review.stay}</p>
        {review.subRatings && <p className="text-sm text-slate-600">{review.subRatings}</p>}
        <p className="mt-3 whitespace-pre-line text-slate-800">{review.body}</p>
        <Form method="post" className="mt-4 space-y-2" key={review.reply?.body ?? "new"}>
          <input type="hidden" name="reviewId" value={review.id} />
          {mine && <FormError message={form.formError ?? form.error("body")?.[0]} />}
          <label htmlFor={`reply-${review.id}`} className="block text-sm font-medium text-slate-800">
            {review.reply ? "Your public reply" : "Reply publicly"}
          </label>
          <Textarea
            id={`reply-${review.id}`}
            name="body"
            rows={3}
            required
            maxLength={REVIEW_LIMITS.replyMax}
            defaultValue={(mine ? form.value("body") : undefined) ?? review.reply?.body ?? ""}
          />
          <SubmitButton variant="secondary" name="intent" value="reply">
            {review.reply ? "Update reply" : "Publish reply"}
          </SubmitButton>
        </Form>
        <div className="mt-4 flex flex-wrap items-start gap-6 text-sm">
          {!review.storedHere && (
            <Form method="post">
              <input type="hidden" name="reviewId" value={review.id} />
              <SubmitButton variant="ghost" size="sm" name="intent" value="confirm-stay">
                Confirm this customer stored here
              </SubmitButton>
            </Form>
          )}
          {!review.reportedByYou && (
            <details>
              <summary className="min-h-9 cursor-pointer py-2 text-slate-700 underline">Report this review</summary>
              <Form method="post" className="mt-2 max-w-md space-y-2">
                <input type="hidden" name="reviewId" value={review.id} />
                <label htmlFor={`kind-${review.id}`} className="block font-medium text-slate-800">
                  Reason
                </label>
                <Select id={`kind-${review.id}`} name="kind" required defaultValue="">
                  <option value="" disabled>
                    Choose a reason…
                  </option>
                  {REVIEW_REPORT_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {REVIEW_REPORT_LABELS[kind]}
                    </option>
                  ))}
                </Select>
                <label htmlFor={`details-${review.id}`} className="block font-medium text-slate-800">
                  Details for our team (optional)
                </label>
                <Textarea id={`details-${review.id}`} name="message" rows={2} maxLength={REVIEW_LIMITS.reasonMax} />
                <SubmitButton variant="secondary" size="sm" name="intent" value="owner-report">
                  Send report
                </SubmitButton>
              </Form>
            </details>
          )}
        </div>
      </article>
    </li>
  );
}

/**
 * Reviews of the owner's listings (docs/product.md section 16): unanswered first. An owner replies
 * once per review (and may edit it), confirms a stay, or reports a review; never deletes or hides one.
 */
export default function OwnerReviews({ loaderData }: Route.ComponentProps) {
  const { rows, total, unanswered, page, pageSize } = loaderData;
  return (
    <>
      <PageHeader
        title="Reviews"
        description={
          total === 0
            ? "What RV owners write about your facilities."
            : `${total} ${total === 1 ? "review" : "reviews"} of your listings, ${unanswered} unanswered. Your reply is public, under the review.`
        }
      />
      {rows.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<Star />}
          title="No reviews yet"
          text="When someone reviews one of your listings, it appears here and you get an email (you can turn it off in Settings)."
        />
      ) : (
        <ul className="mt-6 space-y-4">
          {rows.map((review) => (
            <ReviewCard key={review.id} review={review} />
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(total / pageSize))}
        pageSize={pageSize}
        total={total}
        hrefFor={(p) => `/owner/reviews${p > 1 ? `?page=${p}` : ""}`}
        noun="reviews"
      />
    </>
  );
}
