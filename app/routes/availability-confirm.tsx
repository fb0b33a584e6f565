import { Form, Link } from "react-router";
import type { Route } from "./+types/availability-confirm";
import { Button, buttonClasses } from "../components/ui/button";
import { getDatabase } from "../../server/db";
import { readForm } from "../../server/http/form";
import { requestIdContext } from "../../server/http/request-context";
import { confirmByLink, confirmLinkState } from "../../server/listings/availability-reminders";

export function meta() {
  return [{ title: "Confirm your availability" }, { name: "robots", content: "noindex" }];
}

const tokenOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 2000) : "");

export async function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const state = await confirmLinkState(getDatabase(), token);
  return { token, state: state.ok ? { ok: true as const, listing: state.listing } : state };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const done = await confirmByLink(getDatabase(), tokenOf(form.get("token")), context.get(requestIdContext));
  return done.ok
    ? { confirmed: true as const, listing: done.listing }
    : { confirmed: false as const, reason: done.reason };
}

const NOT_WORKING = {
  invalid:
    "This link does not work: it may be incomplete, or the listing changed hands. Copy the whole link from the email, or sign in to update your availability.",
  expired: "This link has expired. Sign in to confirm or update your availability.",
} as const;

/**
 * The link in an owner's reminder (docs/product.md section 17): confirm the listing's availability
 * as it is, without signing in. It asks first, so a mail scanner following the link changes nothing.
 */
export default function ConfirmAvailability({ loaderData, actionData }: Route.ComponentProps) {
  const { state, token } = loaderData;
  const failed = actionData && !actionData.confirmed ? actionData.reason : !state.ok ? state.reason : null;
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">Confirm your availability</h1>
      {actionData?.confirmed ? (
        <p role="status" className="mt-4 text-slate-700">
          Thank you: {actionData.listing.name} shows its availability as updated today.{" "}
          <Link to={`/location/${actionData.listing.slug}`} className="text-brand-700 underline">
            See the page
          </Link>
        </p>
      ) : failed ? (
        <>
          <p role="alert" className="mt-4 text-slate-700">
            {NOT_WORKING[failed]}
          </p>
          <Link to="/business/login" className={buttonClasses("secondary", "md", "mt-6")}>
            Sign in
          </Link>
        </>
      ) : state.ok ? (
        <>
          <p className="mt-4 text-slate-700">
            Is the availability of {state.listing.name} still correct? Confirming dates every size’s status today;
            nothing else changes.
          </p>
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <input type="hidden" name="token" value={token} />
            <Button type="submit">Yes, it is still correct</Button>
            <Link to="/business/login" className={buttonClasses("secondary")}>
              Something changed: sign in
            </Link>
          </Form>
        </>
      ) : null}
    </div>
  );
}
