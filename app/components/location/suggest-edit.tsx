import { Form, useNavigation } from "react-router";
import { LISTING_REPORT_KINDS, LISTING_REPORT_LABELS, REPORT_MESSAGE_MAX } from "../../../domain/work-queue";
import { Button } from "../ui/button";
import { Textarea } from "../ui/textarea";

export type SuggestEditResult =
  | { report: "sent" }
  | { report: "error"; message: string; fieldErrors?: Record<string, string[]>; values?: Record<string, string> };

/**
 * "Suggest an edit" (docs/product.md section 12): a disclosure under the facility's contact card
 * with a short form. It needs no JavaScript: the details element opens by itself and the form
 * posts to the page, which answers with the same page and a message.
 */
export function SuggestEdit({ result }: { result: SuggestEditResult | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "report";
  if (result?.report === "sent")
    return (
      <p role="status" className="pt-2 text-sm text-emerald-800">
        Thank you: your report reached our team, and the listing’s owner is told.
      </p>
    );
  const failed = result?.report === "error" ? result : undefined;
  return (
    <details className="pt-1 text-sm" open={failed !== undefined}>
      <summary className="cursor-pointer text-slate-700 underline">Suggest an edit</summary>
      <Form method="post" preventScrollReset className="mt-2 space-y-2">
        <input type="hidden" name="intent" value="report" />
        <fieldset>
          <legend className="font-medium text-slate-800">What is wrong?</legend>
          {LISTING_REPORT_KINDS.map((kind) => (
            <label key={kind} className="mt-1 flex items-center gap-2 text-slate-700">
              <input
                type="radio"
                name="kind"
                value={kind}
                required
                defaultChecked={failed?.values?.kind === kind}
                className="accent-brand-500"
              />
              {LISTING_REPORT_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        <label className="block">
          <span className="font-medium text-slate-800">Details (optional)</span>
          <Textarea
            name="message"
            rows={3}
            maxLength={REPORT_MESSAGE_MAX}
            defaultValue={failed?.values?.message ?? ""}
            className="mt-1 text-sm"
          />
        </label>
        {failed && (
          <p role="alert" className="text-red-700">
            {failed.message}
          </p>
        )}
        <Button type="submit" variant="secondary" size="sm" disabled={sending}>
          {sending ? "Sending…" : "Send report"}
        </Button>
      </Form>
    </details>
  );
}
