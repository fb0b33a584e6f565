import { Form, useNavigation } from "react-router";
import { Button } from "../ui/button";
import { Textarea } from "../ui/textarea";

/**
 * A disclosure with a short report form: a reason among `kinds`, optional details, and a button.
 * It needs no JavaScript: the details element opens by itself and the form posts to the page,
 * which answers with the same page and a message. The facility page's "Suggest an edit" and each
 * review's "Report" are one of these.
 */
export function ReportDisclosure<Kind extends string>({
  summary,
  legend,
  intent,
  reviewId,
  kinds,
  labels,
  maxLength,
  open,
  error,
  values,
}: {
  summary: string;
  legend: string;
  intent: string;
  /** The review reported, for a review's "Report". */
  reviewId?: number;
  kinds: readonly Kind[];
  labels: Record<Kind, string>;
  maxLength: number;
  open?: boolean;
  error?: string;
  values?: { kind?: string; message?: string };
}) {
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData.get("reviewId") === (reviewId === undefined ? null : String(reviewId));
  return (
    <details className="pt-1 text-sm" open={open || undefined}>
      <summary className="min-h-9 cursor-pointer py-2 text-slate-700 underline">{summary}</summary>
      <Form method="post" preventScrollReset className="mt-2 max-w-md space-y-2">
        <input type="hidden" name="intent" value={intent} />
        {reviewId !== undefined && <input type="hidden" name="reviewId" value={reviewId} />}
        <fieldset>
          <legend className="font-medium text-slate-800">{legend}</legend>
          {kinds.map((kind) => (
            <label key={kind} className="mt-1 flex items-center gap-2 text-slate-700">
              <input
                type="radio"
                name="kind"
                value={kind}
                required
                defaultChecked={values?.kind === kind}
                className="accent-brand-500"
              />
              {labels[kind]}
            </label>
          ))}
        </fieldset>
        <label className="block">
          <span className="font-medium text-slate-800">Details (optional)</span>
          <Textarea
            name="message"
            rows={3}
            maxLength={maxLength}
            defaultValue={values?.message ?? ""}
            className="mt-1 text-sm"
          />
        </label>
        {error && (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" variant="secondary" size="sm" disabled={sending}>
          {sending ? "Sending…" : "Send report"}
        </Button>
      </Form>
    </details>
  );
}
