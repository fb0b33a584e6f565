import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { z } from "zod";
import type { FieldErrors, FlashMessage, FormFailure, FormSubmission, FormValues } from "../../domain/forms";
import { setFlash } from "./flash";

/**
 * The server half of the form pipeline (ADR 008): an action reads the form, parses it with the
 * form's zod schema, and either acts on `data` or answers `formFailure(result)`, which the page
 * renders as field errors beside the fields and the typed values back in them.
 *
 *   const result = parseFormSubmission(schema, await readForm(request));
 *   if (!result.ok) return formFailure(result);
 *   await saveListing(db, result.data);
 *   return redirectWithFlash("/owner/listings", { kind: "success", text: "Listing saved." });
 */

/** Never sent back to the browser: the browser has them, and a page (or log) must not. */
const SECRET_NAME = /pass(word|phrase)?|secret|token|otp|card|cvc|cvv|iban/i;
/** A value longer than this is cut before it is echoed (the schema has already refused it). */
export const MAX_ECHOED_LENGTH = 10_000;
const MAX_ECHOED_FIELDS = 200;

/**
 * Messages in plain words for schemas that give none of their own. A schema's own message always
 * wins; forms should still say what the field wants ("Enter the facility's name.").
 */
const plainWords: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "Fill in this field.";
      if (issue.expected === "number" || issue.expected === "int") return "Enter a number.";
      if (issue.expected === "date") return "Enter a valid date.";
      return "Enter a valid value.";
    case "too_small":
      if (issue.origin === "string") {
        return issue.minimum === 1 ? "Fill in this field." : `Use at least ${issue.minimum} characters.`;
      }
      if (issue.origin === "array" || issue.origin === "set") return `Choose at least ${issue.minimum}.`;
      return `Enter ${issue.minimum} or more.`;
    case "too_big":
      if (issue.origin === "string") return `Use at most ${issue.maximum} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${issue.maximum}.`;
      return `Enter ${issue.maximum} or less.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter a valid email address, like name@example.com.";
      if (issue.format === "url") return "Enter a full web address, starting with https://.";
      return "Check the format of this field.";
    case "invalid_value":
      return "Choose one of the options.";
    default:
      return undefined;
  }
};

export interface ParseFormOptions {
  /** More field names never to echo, beyond the ones that look like passwords or secrets. */
  hideFields?: readonly string[];
}

/**
 * Parses a form with Conform's zod v4 adapter: empty strings count as missing, numbers, booleans
 * (checkbox "on") and dates are coerced from their text, and nested names (`address.city`,
 * `sizes[0]`) become objects and arrays. Unknown fields are dropped by the schema.
 */
export function parseFormSubmission<Schema extends z.ZodType>(
  schema: Schema,
  formData: FormData | URLSearchParams,
  options: ParseFormOptions = {},
): FormSubmission<z.output<Schema>> {
  const submission = parseWithZod(withoutConformControls(formData), { schema, error: plainWords });
  const values = echoValues(schema, formData, options);
  if (submission.status === "success") return { ok: true, data: submission.value, values };
  // Conform files root-level (refine on the whole object) errors under "".
  const fieldErrors: FieldErrors = {};
  let formError: string | undefined;
  for (const [name, messages] of Object.entries(submission.error ?? {})) {
    if (!messages || messages.length === 0) continue;
    if (name === "") formError = messages.join(" ");
    else fieldErrors[name] = messages;
  }
  return { ok: false, fieldErrors, ...(formError ? { formError } : {}), values };
}

/**
 * Conform reads `__intent__` and `__state__` as instructions from its browser client, which we do
 * not load; a crafted `__intent__` would make it throw (a 500) or skip validation, so they go.
 */
function withoutConformControls(formData: FormData | URLSearchParams): FormData | URLSearchParams {
  if (!formData.has("__intent__") && !formData.has("__state__")) return formData;
  const copy = new FormData();
  for (const [name, value] of formData.entries())
    if (name !== "__intent__" && name !== "__state__") copy.append(name, value);
  return copy;
}

/** The submitted text values, limited to the schema's own fields when it is an object. */
function echoValues(schema: z.ZodType, formData: FormData | URLSearchParams, options: ParseFormOptions): FormValues {
  const known = schema instanceof z.ZodObject ? new Set(Object.keys(schema.shape)) : undefined;
  const hidden = new Set(options.hideFields ?? []);
  const values: FormValues = {};
  let count = 0;
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string") continue; // a File
    const top = name.split(/[.[]/, 1)[0] ?? name;
    if (name.startsWith("__") || SECRET_NAME.test(name) || hidden.has(name) || hidden.has(top)) continue;
    if (known && !known.has(top)) continue;
    if (++count > MAX_ECHOED_FIELDS) break;
    const text = value.length > MAX_ECHOED_LENGTH ? value.slice(0, MAX_ECHOED_LENGTH) : value;
    const previous = values[name];
    values[name] = previous === undefined ? text : [...(typeof previous === "string" ? [previous] : previous), text];
  }
  return values;
}

/**
 * The action's answer for a form that must be fixed: the errors and values, with a 400 status
 * (or 409, 422…). Also for a problem found after parsing ("that slug is taken"): pass the
 * successful result and the errors to add.
 */
export function formFailure(
  result: FormSubmission<unknown>,
  status = 400,
  extra: { formError?: string; fieldErrors?: FieldErrors; headers?: HeadersInit } = {},
) {
  const failure: FormFailure = {
    ok: false,
    fieldErrors: { ...(result.ok ? {} : result.fieldErrors), ...extra.fieldErrors },
    values: result.values,
  };
  const formError = extra.formError ?? (result.ok ? undefined : result.formError);
  if (formError) failure.formError = formError;
  return data(failure, { status, ...(extra.headers ? { headers: extra.headers } : {}) });
}

/** A redirect (303 by default: the browser then GETs the next page) carrying a flash message. */
export async function redirectWithFlash(
  url: string,
  message: FlashMessage,
  init: Omit<ResponseInit, "status"> & { status?: number } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setFlash(message));
  return redirect(url, { ...init, status: init.status ?? 303, headers });
}
