import { useActionData, useSearchParams } from "react-router";
import { AuthCard, SignInForm, type AuthActionData } from "../components/auth/auth-form";
import { originFrom, seo } from "../lib/meta";
import { signInAction, signInPageData } from "../../server/auth/pages";
import type { Route } from "./+types/business-login";

/** The owner console's home (/business/dashboard, its old address, redirects there). */
const DASHBOARD = "/owner";

export function meta({ matches, location }: Route.MetaArgs) {
  return [...seo({ title: "Business owner sign in", origin: originFrom(matches), path: location.pathname })];
}

export async function loader({ request }: Route.LoaderArgs) {
  return signInPageData(request, DASHBOARD);
}

export function action({ request }: Route.ActionArgs) {
  return signInAction(request, DASHBOARD);
}

/** Same accounts as /login; lands on the owner dashboard. */
export default function BusinessLogin({ loaderData }: Route.ComponentProps) {
  const data = useActionData<AuthActionData>();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? DASHBOARD;
  return (
    <AuthCard
      title="Business owner sign in"
      intro="Claim your facility, keep its details right and see how many RV owners find it."
    >
      <SignInForm
        data={data}
        notice={loaderData.flash?.text}
        redirectTo={redirectTo}
        signUpHref={`/signup?redirectTo=${encodeURIComponent(redirectTo)}`}
      />
    </AuthCard>
  );
}
