import { data, redirect } from "react-router";
import { readForm } from "../http/form";
import { signIn, signUp, type FormResult } from "./forms";
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

export async function signUpAction(request: Request, fallback: string) {
  const form = await readForm(request);
  const target = redirectTarget(form, fallback);
  return answer(await signUp(request, form), target);
}
