import { LISTING_REPORT_KINDS, LISTING_REPORT_LABELS, REPORT_MESSAGE_MAX } from "../../../domain/work-queue";
import { ReportDisclosure } from "./report-disclosure";

export type SuggestEditResult =
  | { report: "sent" }
  | { report: "error"; message: string; fieldErrors?: Record<string, string[]>; values?: Record<string, string> };

/**
 * "Suggest an edit" (docs/product.md section 12): a disclosure under the facility's contact card
 * with a short form; it works without JavaScript.
 */
export function SuggestEdit({ result }: { result: SuggestEditResult | undefined }) {
  if (result?.report === "sent")
    return (
      <p role="status" className="pt-2 text-sm text-emerald-800">
        Thank you: your report reached our team, and the listing’s owner is told.
      </p>
    );
  const failed = result?.report === "error" ? result : undefined;
  return (
    <ReportDisclosure
      summary="Suggest an edit"
      legend="What is wrong?"
      intent="report"
      kinds={LISTING_REPORT_KINDS}
      labels={LISTING_REPORT_LABELS}
      maxLength={REPORT_MESSAGE_MAX}
      open={failed !== undefined}
      error={failed?.message}
      values={failed?.values}
    />
  );
}
