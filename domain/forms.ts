/**
 * The shape a form's action answers (server/http/form-action.ts writes it, app/lib/forms.ts reads
 * it back in the page): both halves speak it, so it lives below both.
 */
export type FlashKind = "success" | "error" | "info";

/** One message carried across a redirect ("Listing saved") and shown once as a toast. */
export interface FlashMessage {
  kind: FlashKind;
  text: string;
}

/** What was typed, by field name, to fill the form again (never passwords or files). */
export type FormValues = Record<string, string | string[]>;
/** The schema's messages by field name (`address.city`, `sizes[0]` for nested names). */
export type FieldErrors = Record<string, string[]>;

export interface FormSuccess<Data> {
  ok: true;
  data: Data;
  values: FormValues;
}

export interface FormFailure {
  ok: false;
  fieldErrors: FieldErrors;
  /** A problem with the form as a whole, shown at its top. */
  formError?: string;
  values: FormValues;
}

export type FormSubmission<Data> = FormSuccess<Data> | FormFailure;

export function isFormFailure(value: unknown): value is FormFailure {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<FormFailure>;
  return candidate.ok === false && typeof candidate.fieldErrors === "object" && typeof candidate.values === "object";
}
