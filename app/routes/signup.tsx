import { Link, useActionData, useSearchParams } from "react-router";
import {
  AuthCard,
  AuthForm,
  CredentialFields,
  Field,
  FormError,
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

export default function SignUp() {
  const data = useActionData<AuthActionData>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo");
  const signInHref = redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login";
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
        <CredentialFields
          data={data}
          kind="new"
          emailError={
            data?.emailTaken ? (
              <>
                An account with this email already exists.{" "}
                <Link to={signInHref} className="font-medium underline underline-offset-2">
                  Sign in instead
                </Link>
                , or use another email.
              </>
            ) : undefined
          }
        />
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
