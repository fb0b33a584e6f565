import ArrowLeft from "lucide-react/icons/arrow-left";
import { Form, Link } from "react-router";
import type { Route } from "./+types/location-review";
import { REVIEW_LIMITS, STORED_KIND_LABELS, STORED_KINDS, SUB_RATING_LABELS, SUB_RATINGS } from "../../domain/reviews";
import { Field, FormError } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { Select } from "../components/ui/select";
import { Textarea } from "../components/ui/textarea";
import { SubmitButton } from "../components/ui/submit-button";
import { ConfirmDialog } from "../components/ui/dialog";
import { Button } from "../components/ui/button";
import { useFormState } from "../lib/forms";
import { reviewFormAction, reviewFormPage } from "../../server/reviews/pages";

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Review ${data.listing.name}` : "Write a review" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return reviewFormPage(request, params.slug);
}

export async function action({ request, params }: Route.ActionArgs) {
  return reviewFormAction(request, params.slug);
}

const STATUS_TEXT = {
  held: "Your review waits for a check by our team. It is not public yet; we email you when it is decided.",
  published: "Your review is published. Changes you save are checked again.",
  rejected: "Your review was not published.",
  removed: "An administrator removed your review.",
} as const;

/**
 * Writing or editing one's review of a facility (docs/product.md section 16). A plain form: it
 * works before the page's script runs, and the server checks everything again.
 */
export default function ReviewForm({ loaderData }: Route.ComponentProps) {
  const { listing, review, months, canWrite } = loaderData;
  const form = useFormState({ intent: "save" });
  const value = (name: string, fallback: string | number | null | undefined) =>
    form.value(name) ?? (fallback === null || fallback === undefined ? "" : String(fallback));
  const back = `/location/${listing.slug}`;
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <Link
        to={`${back}#reviews`}
        className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700"
      >
        <ArrowLeft className="size-4" aria-hidden="true" /> Back to {listing.name}
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">
        {review ? "Your review of " : "Review "}
        {listing.name}
      </h1>
      {review && (
        <p role="status" className="mt-3 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {STATUS_TEXT[review.status]}
          {review.decisionReason && (review.status === "rejected" || review.status === "removed") && (
            <> The reason: {review.decisionReason}</>
          )}
        </p>
      )}
      {!canWrite ? (
        <p className="mt-4 text-slate-700">
          Confirm your email address ({loaderData.email}) first: open the link we emailed you, then come back to write
          your review. No email? Send a new link from your{" "}
          <Link to="/owner/settings" className="text-brand-700 underline">
            settings
          </Link>
          .
        </p>
      ) : review?.status === "removed" ? null : (
        <Form method="post" className="mt-6" noValidate>
          <input type="hidden" name="intent" value="save" />
          <FormError message={form.formError} />
          <fieldset className="mb-4">
            <legend className="mb-1 text-sm font-medium text-slate-800">Your rating</legend>
            <div className="flex flex-wrap gap-2">
              {[1, 2, 3, 4, 5].map((n) => (
                <label
                  key={n}
                  className="flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name="stars"
                    value={n}
                    defaultChecked={value("stars", review?.stars) === String(n)}
                    className="accent-brand-500"
                  />
                  {n} {n === 1 ? "star" : "stars"}
                </label>
              ))}
            </div>
            {form.error("stars") && <p className="mt-1 text-sm text-red-700">{form.error("stars")![0]}</p>}
          </fieldset>
          <Field label="Title" name="title" error={form.error("title")}>
            {(control) => (
              <Input {...control} maxLength={REVIEW_LIMITS.titleMax} defaultValue={value("title", review?.title)} />
            )}
          </Field>
          <Field
            label="Your review"
            name="body"
            hint={`What was it like to store here? ${REVIEW_LIMITS.textMin} to ${REVIEW_LIMITS.textMax.toLocaleString("en-US")} characters. Links and phone numbers are checked by our team first.`}
            error={form.error("body")}
          >
            {(control) => (
              <Textarea
                {...control}
                rows={6}
                maxLength={REVIEW_LIMITS.textMax}
                defaultValue={value("body", review?.body)}
              />
            )}
          </Field>
          <div className="grid gap-x-4 sm:grid-cols-3">
            <Field label="Month of your stay" name="stayMonth" error={form.error("stayMonth")}>
              {(control) => (
                <Select {...control} defaultValue={value("stayMonth", review?.stayMonth ?? months[0]?.value)}>
                  {months.map((m) => (
                    <option key={m.value} value={m.value}>
                      {m.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="What you stored" name="storedKind" error={form.error("storedKind")}>
              {(control) => (
                <Select {...control} defaultValue={value("storedKind", review?.storedKind)}>
                  <option value="">Choose…</option>
                  {STORED_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {STORED_KIND_LABELS[kind]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Its length (feet)" name="lengthFeet" error={form.error("lengthFeet")}>
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={REVIEW_LIMITS.lengthMinFeet}
                  max={REVIEW_LIMITS.lengthMaxFeet}
                  defaultValue={value("lengthFeet", review?.lengthFeet)}
                />
              )}
            </Field>
          </div>
          <fieldset className="mb-4">
            <legend className="mb-1 text-sm font-medium text-slate-800">More ratings (optional)</legend>
            <div className="grid gap-x-4 sm:grid-cols-2">
              {SUB_RATINGS.map((key) => (
                <Field key={key} label={SUB_RATING_LABELS[key]} name={key} error={form.error(key)}>
                  {(control) => (
                    <Select {...control} defaultValue={value(key, review?.[key])}>
                      <option value="">No rating</option>
                      {[5, 4, 3, 2, 1].map((n) => (
                        <option key={n} value={n}>
                          {n} {n === 1 ? "star" : "stars"}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-3">
            <SubmitButton>{review ? "Save changes" : "Publish review"}</SubmitButton>
            <Link to={`${back}#reviews`} className="inline-flex min-h-11 items-center px-2 text-slate-700 underline">
              Cancel
            </Link>
          </div>
        </Form>
      )}
      {review && (
        <div className="mt-10 border-t border-slate-200 pt-6">
          <h2 className="text-lg font-semibold">Delete your review</h2>
          <p className="mt-1 text-sm text-slate-600">
            It leaves the facility page and the rating at once, with its votes and the owner’s reply. This cannot be
            undone.
          </p>
          <Form method="post" id="delete-review" className="mt-3">
            <input type="hidden" name="intent" value="delete" />
            <noscript>
              <Button type="submit" variant="danger">
                Delete my review
              </Button>
            </noscript>
          </Form>
          <ConfirmDialog
            trigger={
              <Button variant="danger" className="mt-3">
                Delete my review
              </Button>
            }
            title="Delete your review?"
            text={`Your review of ${listing.name} is deleted for good.`}
            confirmLabel="Delete review"
            tone="danger"
            form="delete-review"
          />
        </div>
      )}
    </div>
  );
}
