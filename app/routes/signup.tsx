import { Link, useActionData, useSearchParams } from "react-router";
import {
  AuthCard,
  AuthForm,
  CredentialFields,
  Field,
  FormError,
  Notice,
  SubmitButton,
  type AuthActionData,
} from "../components/auth/auth-form";
import { originFrom, seo } from "../lib/meta";
import { redirectIfSignedIn, signUpAction } from "../../server/auth/pages";
import type { Route } from "./+types/signup";

export function meta({ matches, location }: Route.MetaArgs) {
  return [...seo({ title: "Create an account", origin: originFrom(matches), path: location.pathname })];
}

export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request, "/");
  return null;
}

export function action({ request }: Route.ActionArgs) {
  return signUpAction(request, "/");
}

type SignUpActionData = AuthActionData & { sent?: { email: string } };

/**
 * A sign-up that passes the checks answers "check your email", whether or not the address already
 * has an account (docs/product.md section 10): the new account confirms its address and then
 * signs in; the owner of a known address is told by email instead.
 */
export default function SignUp() {
  const data = useActionData<SignUpActionData>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo");
  const signInHref = redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login";
  if (data?.sent)
    return (
      <AuthCard title="Check your email">
        <Notice
          message={`We sent a message to ${data.sent.email}. Open the link in it to confirm your address, then sign in. If this address already has an account, the message tells you how to sign in or choose a new password. Check your spam folder if it does not arrive within a few minutes.`}
        />
        <p className="text-center text-sm text-slate-600">
          <Link to={signInHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Go to sign in
          </Link>
        </p>
      </AuthCard>
    );
  return (
    <AuthCard title="Create an account" intro="Save time on your next search and manage your facility's listing.">
      <FormError message={data?.formError} />
      <AuthForm data={data}>
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          defaultValue={data?.values?.name}
          error={data?.fieldErrors?.name}
        />
        <CredentialFields data={data} kind="new" />
        <div className="mt-6">
          <SubmitButton pendingText="Creating your account…">Create account</SubmitButton>
        </div>
      </AuthForm>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to={signInHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
