import { useActionData, useSearchParams } from "react-router";
import { AuthCard, SignInForm, type AuthActionData } from "../components/auth/auth-form";
import { originFrom, seo } from "../lib/meta";
import { signInAction, signInPageData } from "../../server/auth/pages";
import type { Route } from "./+types/login";

export function meta({ matches, location }: Route.MetaArgs) {
  return [...seo({ title: "Sign in", origin: originFrom(matches), path: location.pathname })];
}

export async function loader({ request }: Route.LoaderArgs) {
  return signInPageData(request, "/");
}

export function action({ request }: Route.ActionArgs) {
  return signInAction(request, "/");
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const data = useActionData<AuthActionData>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo");
  return (
    <AuthCard title="Sign in" intro="Welcome back. Sign in to manage your listings and account.">
      <SignInForm
        data={data}
        notice={loaderData.flash?.text}
        redirectTo={redirectTo}
        signUpHref={redirectTo ? `/signup?redirectTo=${encodeURIComponent(redirectTo)}` : "/signup"}
      />
    </AuthCard>
  );
}
