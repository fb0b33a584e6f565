import CircleAlert from "lucide-react/icons/circle-exclamation-point";
import { useId, type ReactNode } from "react";
import { clsx } from "clsx";

/** What a control needs to be named by its label and described by its hint and error. */
export interface FieldControlProps {
  id: string;
  name: string;
  invalid: boolean;
  "aria-describedby"?: string;
}

/** A field's messages: one string, or the list a schema gave (each is shown). */
export type FieldMessages = string | readonly string[] | undefined;

function messages(error: FieldMessages): readonly string[] {
  if (!error) return [];
  return typeof error === "string" ? [error] : error.filter(Boolean);
}

/**
 * A label, a control, a hint and the error, wired together: the control gets the id the label
 * points at, `aria-describedby` naming the hint and the error, and `invalid` when there is an
 * error. The control is rendered by `children`, so any primitive fits:
 *
 *   <Field label="Name" name="name" error={fieldErrors.name}>
 *     {(control) => <Input {...control} defaultValue={values.name} />}
 *   </Field>
 */
export function Field({
  label,
  name,
  hint,
  error,
  id: givenId,
  className,
  children,
}: {
  label: ReactNode;
  name: string;
  hint?: ReactNode;
  error?: FieldMessages;
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const errors = messages(error);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={clsx("mb-4", className)}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, name, invalid: errors.length > 0, "aria-describedby": describedBy })}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {errorId && <FieldErrorText id={errorId} errors={errors} />}
    </div>
  );
}

function FieldErrorText({ id, errors }: { id: string; errors: readonly string[] }) {
  return (
    <div id={id} className="mt-1 text-sm text-red-700">
      {errors.map((message) => (
        <p key={message} className="flex items-start gap-1">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{message}</span>
        </p>
      ))}
    </div>
  );
}

/** A problem with the form as a whole (not one field), shown at its top and announced. */
export function FormError({ message, className }: { message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className={clsx(
        "mb-4 flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800",
        className,
      )}
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>{message}</p>
    </div>
  );
}
