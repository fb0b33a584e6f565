import CircleCheck from "lucide-react/icons/circle-check";
import Clock from "lucide-react/icons/clock";
import FileText from "lucide-react/icons/file-text";
import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { checkoutSuccessPage } from "../../../server/promotions/pages";
import type { Route } from "./+types/checkout-success";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data?.promotion.status === "active" ? "Your plan is active" : "Checkout", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Checkout" };

/** Reading this page changes nothing, so reloading it or opening it twice is safe. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return checkoutSuccessPage(request, context.get(viewerContext));
}

export default function CheckoutSuccess({ loaderData }: Route.ComponentProps) {
  const { promotion, listing, invoice, email, paymentInstructions } = loaderData;
  const active = promotion.status === "active" || promotion.status === "past_due";
  const pending = promotion.status === "pending";
  return (
    <>
      <PageHeader
        title={active ? `${promotion.planName} is active` : pending ? "Almost done" : "This plan is not active"}
        description={listing.name}
      />
      <section
        aria-live="polite"
        className="mt-6 flex max-w-2xl items-start gap-3 rounded-lg border border-slate-200 bg-white p-4"
      >
        {active ? (
          <CircleCheck className="mt-0.5 size-6 shrink-0 text-emerald-600" aria-hidden="true" />
        ) : (
          <Clock className="mt-0.5 size-6 shrink-0 text-amber-600" aria-hidden="true" />
        )}
        <div className="text-sm text-slate-700">
          {active ? (
            <p>
              {listing.name} is {promotion.planName} from {promotion.periodStart} until {promotion.periodEnd}
              {promotion.cancelAtPeriodEnd ? ", then it ends." : "."} It now appears ahead of nearby free listings
              {promotion.tier === "Basic" ? "." : " with the 'Preferred Partner' badge."}
            </p>
          ) : pending && invoice ? (
            <>
              <p>
                Invoice <strong>{invoice.number}</strong> for <strong>{invoice.amount}</strong> was emailed to{" "}
                <span className="break-all">{email}</span>
                {invoice.due ? `, due ${invoice.due}` : ""}. {promotion.planName} starts as soon as the payment is
                recorded; you will get an email.
              </p>
              <p className="mt-2 whitespace-pre-line">{paymentInstructions}</p>
            </>
          ) : pending ? (
            <p>
              We have not received the payment yet. If you just paid, it can take a minute to confirm: reload this page.
            </p>
          ) : (
            <p>This request was cancelled{promotion.endReason ? ` (${promotion.endReason})` : ""}. Nothing is owed.</p>
          )}
          <div className="mt-4 flex flex-wrap gap-2">
            {invoice && (
              <Link to={`/owner/invoices/${encodeURIComponent(invoice.id)}`} className={buttonClasses("primary", "sm")}>
                <FileText className="size-4" aria-hidden="true" /> View and print the invoice
              </Link>
            )}
            {active && listing.slug && (
              <Link to={`/location/${listing.slug}`} className={buttonClasses("primary", "sm")}>
                See your listing
              </Link>
            )}
            <Link to="/owner" className={buttonClasses("secondary", "sm")}>
              Back to the dashboard
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
