import { useActionData, useSearchParams } from "react-router";
import { AuthCard, SignInForm, type AuthActionData } from "../components/auth/auth-form";
import { originFrom, seo } from "../lib/meta";
import { redirectIfSignedIn, signInAction } from "../../server/auth/pages";
import type { Route } from "./+types/login";

export function meta({ matches, location }: Route.MetaArgs) {
  return [...seo({ title: "Sign in", origin: originFrom(matches), path: location.pathname })];
}

export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request, "/");
  return null;
}

export function action({ request }: Route.ActionArgs) {
  return signInAction(request, "/");
}

export default function Login() {
  const data = useActionData<AuthActionData>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo");
  return (
    <AuthCard title="Sign in" intro="Welcome back. Sign in to manage your listings and account.">
      <SignInForm
        data={data}
        redirectTo={redirectTo}
        signUpHref={redirectTo ? `/signup?redirectTo=${encodeURIComponent(redirectTo)}` : "/signup"}
      />
    </AuthCard>
  );
}
