import type { FieldErrors, FormSubmission } from "../../domain/forms";
import { isAppError, type AppError, type ErrorCode } from "../errors";
import { formFailure, redirectWithFlash } from "./form-action";

/**
 * Where a refusal becomes an answer. A service refuses with an AppError carrying a code
 * (server/errors.ts); by default the server's wrapper turns it into the HTTP answer, an error page
 * or `{ error }` JSON (server/http/app-errors.ts). An action that can say some refusals on its own
 * page names their codes here and gets them back; every other error is thrown on, to that same
 * HTTP answer. Codes decide, never a message's text.
 *
 *   try { await withdrawClaim(db, input); }
 *   catch (error) { return flashRefusal("/owner/claims", error, ["conflict"]); }
 *
 *   catch (error) { return formRefusal(result, error, ["bad_request", "conflict"]); }
 */
export function refusalOf(error: unknown, codes: readonly ErrorCode[]): AppError {
  if (isRefusal(error, codes)) return error;
  throw error;
}

/** Whether `error` is a refusal with one of `codes`, for an action that answers codes differently. */
export function isRefusal(error: unknown, codes: readonly ErrorCode[]): error is AppError {
  return isAppError(error, codes);
}

export interface FormRefusalOptions {
  /** The status to answer instead of the refusal's own (a 404 said beside a field is a 400). */
  status?: number;
  /** The field to say it beside, when the refusal does not name one (`details.field`). */
  field?: string;
}

/**
 * A refusal as the form's failure, with the typed values kept: beside its field when it names
 * one (`details.field`, or `options.field`), above the form otherwise; with its own status.
 */
export function formRefusal(
  result: FormSubmission<unknown>,
  error: unknown,
  codes: readonly ErrorCode[],
  options: FormRefusalOptions = {},
) {
  const refusal = refusalOf(error, codes);
  const named = refusal.details?.field;
  const field = options.field ?? (typeof named === "string" ? named : undefined);
  const fieldErrors: FieldErrors | undefined = field ? { [field]: [refusal.message] } : undefined;
  return formFailure(
    result,
    options.status ?? refusal.status,
    fieldErrors ? { fieldErrors } : { formError: refusal.message },
  );
}

/** A refusal as an error flash message on the page at `url` (a 303 there). */
export function flashRefusal(url: string, error: unknown, codes: readonly ErrorCode[]): Promise<Response> {
  const refusal = refusalOf(error, codes);
  return redirectWithFlash(url, { kind: "error", text: refusal.message });
}
