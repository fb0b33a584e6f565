import { useState } from "react";
import { Form } from "react-router";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";
import { Textarea } from "../ui/textarea";

/** The service's bounds on a reason (docs/product.md section 11): 3 to 500 characters. */
const REASON_MIN = 3;
const REASON_MAX = 500;

/**
 * A consequential admin decision that needs a reason (void an invoice, end a promotion): the
 * button opens a dialog whose form posts the intent, the hidden ids and the reason.
 */
export function ReasonDialog({
  label,
  srLabel,
  title,
  text,
  intent,
  fields,
  confirmLabel,
}: {
  label: string;
  /** What the trigger acts on, for screen readers (rows repeat the same button). */
  srLabel: string;
  title: string;
  text: string;
  intent: string;
  fields: Record<string, string>;
  confirmLabel: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="sm" aria-label={srLabel}>
          {label}
        </Button>
      }
      title={title}
      description={text}
    >
      <Form method="post" onSubmit={() => setOpen(false)}>
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field label="Reason" name="reason" hint="Required; kept in the audit trail.">
          {(control) => <Textarea {...control} rows={3} required minLength={REASON_MIN} maxLength={REASON_MAX} />}
        </Field>
        <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <SubmitButton variant="danger">{confirmLabel}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
