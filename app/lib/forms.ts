/**
 * The browser half of the form pipeline (the server half is server/http/form-action.ts, the shape
 * an action answers is domain/forms.ts): hooks that read an answer back. A form is a plain
 * `<Form method="post">`: without JavaScript the browser posts it, the action answers the errors
 * and the values, and the page renders them; with JavaScript React Router does the same without a
 * reload.
 */
import { useActionData, useFormAction, useNavigation } from "react-router";
import { isFormFailure, type FieldErrors, type FormValues } from "../../domain/forms";

export interface FormState {
  fieldErrors: FieldErrors;
  formError: string | undefined;
  values: FormValues;
  /** The first value typed into `name` (for `defaultValue`). */
  value(name: string): string | undefined;
  /** Every value of `name` (checkbox groups, multiple selects). */
  valuesOf(name: string): string[];
  /** The messages for `name`, for `<Field error={…}>`. */
  error(name: string): string[] | undefined;
}

/**
 * The form state in an action's answer (or a fetcher's `data`). `intent` picks one form's answer
 * on a page with several that post to the same action: each sends a hidden `intent` field that its
 * schema keeps, and only the answer echoing the same intent is taken.
 */
export function formStateOf(data: unknown, { intent }: { intent?: string | readonly string[] } = {}): FormState {
  const sent = isFormFailure(data) ? data.values.intent : undefined;
  const mine =
    intent === undefined ||
    (typeof sent === "string" && (typeof intent === "string" ? sent === intent : intent.includes(sent)));
  const failure = isFormFailure(data) && mine ? data : undefined;
  const fieldErrors = failure?.fieldErrors ?? {};
  const values = failure?.values ?? {};
  const valuesOf = (name: string): string[] => {
    const value = values[name];
    return value === undefined ? [] : typeof value === "string" ? [value] : value;
  };
  return {
    fieldErrors,
    formError: failure?.formError,
    values,
    value: (name) => valuesOf(name)[0],
    valuesOf,
    error: (name) => {
      const messages = fieldErrors[name];
      return messages && messages.length > 0 ? messages : undefined;
    },
  };
}

/** The form state of the route's last action answer. */
export function useFormState(options?: { intent?: string | readonly string[] }): FormState {
  return formStateOf(useActionData(), options);
}

export interface PendingFormMatch {
  /** The form's `action`; like `<Form>`, none means the current route. */
  action?: string;
  method?: "post" | "put" | "patch" | "delete";
  /** A submit button's name and value: only the button that was pressed shows pending. */
  name?: string;
  value?: string;
}

/** What `useNavigation()` says about a submission in flight (the part the match needs). */
export interface PendingNavigation {
  state: "idle" | "loading" | "submitting";
  formMethod?: string;
  formAction?: string;
  formData?: FormData;
}

/** Whether `navigation` is the post of the form at `formAction` (and of the named button). */
export function isSubmissionOf(
  navigation: PendingNavigation,
  formAction: string,
  { method = "post", name, value }: Omit<PendingFormMatch, "action"> = {},
): boolean {
  if (navigation.state === "idle" || !navigation.formMethod) return false;
  if (navigation.formMethod.toLowerCase() !== method || navigation.formAction !== formAction) return false;
  return name === undefined || navigation.formData?.get(name) === (value ?? "");
}

/**
 * True while *this* form's post is in flight, including the loading of the page it redirects to;
 * another form on the page, or a link being followed, does not count.
 */
export function useIsSubmitting({ action, ...match }: PendingFormMatch = {}): boolean {
  const navigation = useNavigation();
  const formAction = useFormAction(action);
  return isSubmissionOf(navigation, formAction, match);
}
