import { data, redirect } from "react-router";
import { getDatabase } from "../db";
import { readFlash } from "../http/flash";
import { readForm } from "../http/form";
import { redirectWithFlash } from "../http/form-action";
import { signIn, signUp, type FormResult } from "./forms";
import { RECOVERY_MESSAGES, requestPasswordReset, resetPassword, resetTokenOwner } from "./recovery";
import { safeRedirect } from "./redirect";
import { getViewer, isSignedIn } from "./viewer";

/**
 * The loader and action bodies of the sign-in and sign-up pages, so the route modules stay thin.
 * A signed-in visitor opening a sign-in page goes straight on to where they were heading.
 */
export async function redirectIfSignedIn(request: Request, fallback: string): Promise<void> {
  const viewer = await getViewer(request, { fresh: true });
  if (!isSignedIn(viewer)) return;
  throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), fallback));
}

function answer(result: FormResult, target: string) {
  if (result.ok) return redirect(target, { headers: result.headers });
  const { formError, fieldErrors, values } = result;
  return data({ formError, fieldErrors, values }, { status: result.status });
}

/** Where the form sends the person on success: `redirectTo` when it stays on this site. */
function redirectTarget(form: FormData, fallback: string): string {
  const value = form.get("redirectTo");
  return safeRedirect(typeof value === "string" ? value : null, fallback);
}

export async function signInAction(request: Request, fallback: string) {
  const form = await readForm(request);
  const target = redirectTarget(form, fallback);
  return answer(await signIn(request, form), target);
}

/**
 * /signup answers "check your email" on the page itself, identically for an address with an
 * account and one without (no cookie, no redirect); `redirectTo` travels in the confirmation link.
 */
export async function signUpAction(request: Request, fallback: string) {
  const form = await readForm(request);
  const target = redirectTarget(form, fallback);
  const result = await signUp(request, form, { redirectTo: target === "/" ? undefined : target });
  if (result.ok) return data({ sent: { email: result.email } });
  const { formError, fieldErrors, values } = result;
  return data({ formError, fieldErrors, values }, { status: result.status });
}

/** The message a redirect left for a sign-in page ("Your password is changed"), read once. */
export async function signInPageData(request: Request, fallback: string) {
  await redirectIfSignedIn(request, fallback);
  const { flash, headers } = await readFlash(request);
  return data({ flash }, { headers });
}

export async function forgotPasswordAction(request: Request) {
  return requestPasswordReset(getDatabase(), request, await readForm(request));
}

/** /reset-password?token=…: whether the link still works, so a spent one says so before typing. */
export async function resetPasswordPageData(request: Request) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: (await resetTokenOwner(token)) !== null };
}

export async function resetPasswordAction(request: Request, requestId: string | null) {
  const result = await resetPassword(getDatabase(), request, await readForm(request), requestId);
  if ("ok" in result) return redirectWithFlash("/login", { kind: "success", text: RECOVERY_MESSAGES.done });
  return result;
}
