import { Link } from "react-router";
import { AuthCard } from "../components/auth/auth-form";
import { privatePageMeta } from "../lib/meta";
import { verifyEmailPage } from "../../server/account/pages";
import { requestIdContext } from "../../server/http/request-context";
import type { Route } from "./+types/verify-email";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Confirm your email", args);
}

/** The link of the confirmation emails (docs/product.md section 10): a working link redirects with a message. */
export function loader({ request, context }: Route.LoaderArgs) {
  return verifyEmailPage(request, context.get(requestIdContext));
}

export default function VerifyEmail() {
  return (
    <AuthCard title="This link no longer works">
      <p className="text-slate-700">
        A confirmation link works for 24 hours, and an email-change link only until the change is made. Ask for a new
        one from your account settings.
      </p>
      <p className="mt-6">
        <Link to="/owner/settings" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Go to account settings
        </Link>
      </p>
    </AuthCard>
  );
}
