import Check from "lucide-react/icons/check";
import X from "lucide-react/icons/x";
import { useState } from "react";
import { Form, Link } from "react-router";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";
import { Textarea } from "../ui/textarea";
import { useFormState } from "../../lib/forms";

/** Matches MAX_DECISION_REASON in server/listings/admin-pages.ts. */
const MAX_REASON = 1000;

interface DecisionTarget {
  locationId: string;
  /** The waiting change's submission time: a change replaced since is refused (409). */
  submittedAt: string;
  name: string;
}

/**
 * Approve (one click, an optional note) and Reject (a reason, asked in a dialog) for one waiting
 * change in a list (docs/product.md section 10). Without JavaScript, Reject is a link to the
 * listing's moderation page, whose form asks for the reason in the page.
 */
export function QueueDecision({ target, pageHref }: { target: DecisionTarget; pageHref: string }) {
  const [open, setOpen] = useState(false);
  const form = useFormState();
  const mine = form.value("locationId") === target.locationId;
  const reasonError = mine && form.value("intent") === "reject" ? form.error("reason") : undefined;
  // A reason the server refused (only blanks, say) opens the dialog again with the message.
  const errorText = reasonError?.join(" ") ?? "";
  const [shownError, setShownError] = useState(errorText);
  if (errorText !== shownError) {
    setShownError(errorText);
    if (errorText) setOpen(true);
  }
  const hidden = (
    <>
      <input type="hidden" name="locationId" value={target.locationId} />
      <input type="hidden" name="submittedAt" value={target.submittedAt} />
    </>
  );
  return (
    <div className="flex flex-col gap-2 md:min-w-52">
      <Form method="post" className="flex flex-col gap-2">
        {hidden}
        <input type="hidden" name="intent" value="approve" />
        <details className="text-sm">
          <summary className="cursor-pointer text-brand-700">Add a note</summary>
          <label className="mt-1 block">
            <span className="sr-only">Note to the owner about {target.name} (optional)</span>
            <Textarea name="reason" rows={2} maxLength={MAX_REASON} placeholder="Optional, emailed to the owner" />
          </label>
        </details>
        <div className="flex flex-wrap gap-2">
          <SubmitButton size="sm" aria-label={`Approve the change to ${target.name}`}>
            <Check className="size-4" aria-hidden="true" /> Approve
          </SubmitButton>
          <Link
            to={pageHref}
            className="btn btn-sm btn-danger"
            aria-label={`Reject the change to ${target.name}`}
            onClick={(event) => {
              event.preventDefault();
              setOpen(true);
            }}
          >
            <X className="size-4" aria-hidden="true" /> Reject
          </Link>
        </div>
      </Form>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Reject the change to ${target.name}?`}
        description="The published values stay. The owner is emailed your reason and sees it in their listing's history."
      >
        <Form method="post" onSubmit={() => setOpen(false)}>
          {hidden}
          <input type="hidden" name="intent" value="reject" />
          <Field
            label="Reason"
            name="reason"
            hint="Required. Say what is wrong, so the owner can fix it."
            error={reasonError}
          >
            {(control) => <Textarea {...control} rows={3} required maxLength={MAX_REASON} />}
          </Field>
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <SubmitButton variant="danger">Reject the change</SubmitButton>
          </div>
        </Form>
      </Dialog>
    </div>
  );
}
