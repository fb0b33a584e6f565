import { Form, Link } from "react-router";
import type { Route } from "./+types/leads-withdraw";
import { Button, buttonClasses } from "../components/ui/button";
import { withdrawLeadAction, withdrawLeadPage } from "../../server/leads/pages";

export function meta() {
  return [{ title: "Withdraw your question" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  return withdrawLeadPage(request);
}

export async function action({ request }: Route.ActionArgs) {
  return withdrawLeadAction(request);
}

/**
 * The link in a visitor's receipt (docs/product.md section 14): withdraw the question and have the
 * contact details deleted. It asks first, so a mail scanner following the link changes nothing.
 */
export default function WithdrawLead({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, token } = loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">Withdraw your question</h1>
      {actionData?.withdrawn || lead?.withdrawn ? (
        <p role="status" className="mt-4 text-slate-700">
          Your question is withdrawn and your name, email and phone are deleted from our site. If the facility already
          answered, they still have your email.
        </p>
      ) : !lead ? (
        <p className="mt-4 text-slate-700">
          This link is not valid: it may be incomplete, or the request was removed. Copy the whole link from the email.
        </p>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            You asked {lead.listing} about a space on {lead.sent}. Withdraw it? Your name, email and phone are deleted
            from our site at once.
          </p>
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <input type="hidden" name="token" value={token} />
            <Button type="submit" variant="danger">
              Withdraw my question
            </Button>
            <Link to="/" className={buttonClasses("secondary")}>
              Keep it
            </Link>
          </Form>
        </>
      )}
    </div>
  );
}
