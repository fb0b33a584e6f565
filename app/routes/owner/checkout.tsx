import Check from "lucide-react/icons/check";
import CreditCard from "lucide-react/icons/credit-card";
import FileText from "lucide-react/icons/file-text";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { PromotionStatusBadge } from "../../components/promotions/status-badges";
import { buttonClasses } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { SubmitButton } from "../../components/ui/submit-button";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { checkoutAction, checkoutPage } from "../../../server/promotions/pages";
import type { Route } from "./+types/checkout";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Checkout", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Checkout" };

export async function loader({ request, context }: Route.LoaderArgs) {
  return checkoutPage(request, context.get(viewerContext));
}

export async function action({ request, context }: Route.ActionArgs) {
  return checkoutAction(request, context.get(viewerContext), context.get(requestIdContext));
}

export default function Checkout({ loaderData }: Route.ComponentProps) {
  const { promotion, listing, openInvoice, dueDays } = loaderData;
  const form = useFormState();
  const live = promotion.status === "pending";
  const byInvoice = promotion.provider === "invoice";
  return (
    <>
      <PageHeader title="Checkout" description={`Promote ${listing.name} to ${promotion.planName}.`} />
      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <section aria-labelledby="summary-title" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="summary-title" className="font-semibold text-slate-900">
            Summary
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-600">Listing</dt>
            <dd className="font-medium text-slate-900">{listing.name}</dd>
            <dt className="text-slate-600">Plan</dt>
            <dd>{promotion.planName}</dd>
            <dt className="text-slate-600">Billing</dt>
            <dd>{promotion.intervalText}</dd>
            <dt className="text-slate-600">Amount</dt>
            <dd className="text-base font-semibold text-slate-900">{promotion.amount}</dd>
            <dt className="text-slate-600">Status</dt>
            <dd>
              <PromotionStatusBadge status={promotion.status} />
            </dd>
          </dl>
          <ul className="mt-4 space-y-1 text-sm text-slate-700">
            {promotion.features.map((f) => (
              <li key={f} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                {f}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="pay-title" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="pay-title" className="font-semibold text-slate-900">
            Payment
          </h2>
          {!live ? (
            <>
              <p className="mt-2 text-sm text-slate-700">
                This request was cancelled{promotion.endReason ? ` (${promotion.endReason})` : ""}. Nothing is owed.
              </p>
              <Link
                to={`/owner/promote?listing=${encodeURIComponent(promotion.locationId)}`}
                className={buttonClasses("primary", "sm", "mt-3")}
              >
                Choose a plan
              </Link>
            </>
          ) : openInvoice ? (
            <>
              <p className="mt-2 text-sm text-slate-700">
                Invoice {openInvoice.number} was sent to you. The plan starts when its payment is recorded.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Link
                  to={`/owner/invoices/${encodeURIComponent(openInvoice.id)}`}
                  className={buttonClasses("primary", "sm")}
                >
                  <FileText className="size-4" aria-hidden="true" /> View invoice {openInvoice.number}
                </Link>
              </div>
            </>
          ) : (
            <Form method="post" className="mt-2">
              <input type="hidden" name="intent" value="pay" />
              <FormError message={form.formError} className="mb-3" />
              <p className="text-sm text-slate-700">
                {byInvoice
                  ? `We email you an invoice for ${promotion.amount} with payment instructions, due in ${dueDays} days. The plan starts as soon as the payment is recorded.`
                  : `You pay ${promotion.amount} by card on Stripe's secure page and come back here. Cancel any time; the plan runs to the end of its period.`}
              </p>
              <SubmitButton className="mt-4 w-full">
                {byInvoice ? (
                  <>
                    <FileText className="size-4" aria-hidden="true" /> Request invoice
                  </>
                ) : (
                  <>
                    <CreditCard className="size-4" aria-hidden="true" /> Pay {promotion.amount.split(" ")[0]} by card
                  </>
                )}
              </SubmitButton>
            </Form>
          )}
          {live && (
            <p className="mt-3 text-sm">
              <Link
                to={`/owner/promote?listing=${encodeURIComponent(promotion.locationId)}`}
                className="text-brand-700 hover:underline"
              >
                Choose another plan
              </Link>
            </p>
          )}
        </section>
      </div>
    </>
  );
}
