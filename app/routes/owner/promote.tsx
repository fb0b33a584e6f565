import Building2 from "lucide-react/icons/building-complex";
import Check from "lucide-react/icons/check";
import Megaphone from "lucide-react/icons/megaphone";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { PromotionStatusBadge, TierBadge } from "../../components/promotions/status-badges";
import { Button, buttonClasses } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { EmptyState } from "../../components/ui/empty-state";
import { FormError } from "../../components/ui/field";
import { SubmitButton } from "../../components/ui/submit-button";
import { cn } from "../../lib/cn";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { promoteAction, promotePage } from "../../../server/promotions/pages";
import type { Route } from "./+types/promote";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Promote your listing", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Promote" };

export async function loader({ request, context }: Route.LoaderArgs) {
  return promotePage(request, context.get(viewerContext));
}

export async function action({ request, context }: Route.ActionArgs) {
  return promoteAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
type Listing = NonNullable<Data["selected"]>;

const FREE_FEATURES = ["Listed by distance after paid listings", "Details and photos you keep up to date"];

export default function Promote({ loaderData }: Route.ComponentProps) {
  const { listings, selected, plans, provider } = loaderData;
  return (
    <>
      <PageHeader
        title="Promote your listing"
        description="Paid plans put your facility ahead of nearby free listings when RV owners search by distance. Prices in US dollars."
      />
      {listings.length === 0 && !selected ? (
        <EmptyState
          className="mt-6"
          icon={<Building2 />}
          title="Claim your listing first"
          text="You can promote a facility once its listing is yours."
          action={
            <Link to="/owner/claim" className={buttonClasses("primary")}>
              Claim your listing
            </Link>
          }
        />
      ) : (
        <>
          {listings.length > 1 && <ListingChooser listings={listings} selectedId={selected?.placeId ?? null} />}
          {selected ? (
            <PlanPicker
              key={selected.placeId}
              listing={selected}
              plans={plans}
              provider={provider}
              formKey={loaderData.key}
            />
          ) : (
            <p className="mt-6 text-slate-700">Choose a listing above to see its plans.</p>
          )}
        </>
      )}
    </>
  );
}

function ListingChooser({ listings, selectedId }: { listings: Data["listings"]; selectedId: string | null }) {
  return (
    <section aria-labelledby="choose-listing" className="mt-6">
      <h2 id="choose-listing" className="text-lg font-semibold text-slate-900">
        Choose a listing
      </h2>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2">
        {listings.map((l) => {
          const current = l.placeId === selectedId;
          return (
            <li key={l.placeId}>
              <Link
                to={`/owner/promote?listing=${encodeURIComponent(l.placeId)}`}
                aria-current={current ? "true" : undefined}
                className={cn(
                  "flex h-full flex-col gap-1 rounded-lg border bg-white p-3 hover:border-brand-300",
                  current ? "border-brand-500 ring-2 ring-brand-200" : "border-slate-200",
                )}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="font-medium text-slate-900">{l.name}</span>
                  <TierBadge tier={l.tier} />
                </span>
                <span className="text-sm text-slate-600">
                  {l.live ? l.live.statusText : [l.city, l.state].filter(Boolean).join(", ") || "Free listing"}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function PlanPicker({
  listing,
  plans,
  provider,
  formKey,
}: {
  listing: Listing;
  plans: Data["plans"];
  provider: Data["provider"];
  formKey: string;
}) {
  const form = useFormState();
  const { live } = listing;
  const changing = live !== null;
  const locked = live?.provider === "admin" || live?.cancelAtPeriodEnd === true;
  const interval = form.value("interval") || live?.interval || "month";
  return (
    <>
      <section
        aria-labelledby="current-plan"
        className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:flex sm:items-center sm:justify-between sm:gap-4"
      >
        <div>
          <h2 id="current-plan" className="font-semibold text-slate-900">
            {listing.name}
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <span>Current plan:</span> <TierBadge tier={listing.tier} />
            {live && <PromotionStatusBadge status={live.status} cancelled={live.cancelAtPeriodEnd} />}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {live
              ? `${live.tier}, ${live.interval === "year" ? "yearly" : "monthly"}. ${live.statusText}.`
              : "Free: listed by distance after paid listings."}
          </p>
          {live?.next && <p className="mt-1 text-sm font-medium text-brand-700">Scheduled change: {live.next}.</p>}
        </div>
        {live && (
          <div className="mt-3 flex flex-wrap gap-2 sm:mt-0">
            {live.status === "pending" && (
              <Link
                to={`/owner/checkout?promotion=${encodeURIComponent(live.id)}`}
                className={buttonClasses("primary", "sm")}
              >
                Continue to checkout
              </Link>
            )}
            {live.status !== "pending" && listing.openInvoice && (
              <Link
                to={`/owner/invoices/${encodeURIComponent(listing.openInvoice.id)}`}
                className={buttonClasses("primary", "sm")}
              >
                Invoice {listing.openInvoice.number}: {listing.openInvoice.amount}
                {listing.openInvoice.due ? `, due ${listing.openInvoice.due}` : ""}
              </Link>
            )}
            {live.provider === "invoice" &&
              live.status !== "pending" &&
              !live.cancelAtPeriodEnd &&
              !listing.openInvoice && (
                <Form method="post">
                  <input type="hidden" name="intent" value="renew" />
                  <input type="hidden" name="promotionId" value={live.id} />
                  <SubmitButton size="sm">Renew: send the next invoice</SubmitButton>
                </Form>
              )}
            {live.provider === "stripe" && live.status !== "pending" && (
              <Form method="post">
                <input type="hidden" name="intent" value="portal" />
                <input type="hidden" name="promotionId" value={live.id} />
                <SubmitButton size="sm" variant="secondary">
                  Card and receipts
                </SubmitButton>
              </Form>
            )}
            {live.provider !== "admin" && !live.cancelAtPeriodEnd && (
              <>
                <Form method="post" id="cancel-plan" className="hidden">
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="promotionId" value={live.id} />
                </Form>
                <ConfirmDialog
                  trigger={
                    <Button variant="secondary" size="sm">
                      {live.status === "pending" ? "Cancel request" : "Cancel plan"}
                    </Button>
                  }
                  title={
                    live.status === "pending" ? "Cancel this request?" : `Cancel ${live.tier} at the end of the period?`
                  }
                  text={
                    live.status === "pending"
                      ? "The request and its invoice are cancelled. Nothing is owed."
                      : `${listing.name} keeps ${live.tier} until ${live.periodEnd}, then returns to its previous plan. You are not billed again.`
                  }
                  confirmLabel={live.status === "pending" ? "Cancel request" : "Cancel plan"}
                  cancelLabel="Keep it"
                  tone="danger"
                  form="cancel-plan"
                />
              </>
            )}
          </div>
        )}
      </section>

      <Form method="post" className="mt-6" aria-labelledby="plans-title">
        <h2 id="plans-title" className="text-lg font-semibold text-slate-900">
          {changing ? "Change plan" : "Choose a plan"}
        </h2>
        <FormError message={form.formError} className="mt-2" />
        {changing ? (
          <>
            <input type="hidden" name="intent" value="change" />
            <input type="hidden" name="promotionId" value={live.id} />
          </>
        ) : (
          <>
            <input type="hidden" name="intent" value="request" />
            <input type="hidden" name="locationId" value={listing.placeId} />
            <input type="hidden" name="key" value={formKey} />
          </>
        )}
        {locked ? (
          <p className="mt-2 text-sm text-slate-700">
            {live?.provider === "admin"
              ? "This plan was granted by the directory; to change it, contact us."
              : "This plan is cancelled. You can choose a new plan once it has ended."}
          </p>
        ) : (
          <fieldset className="mt-3">
            <legend className="text-sm font-medium text-slate-800">Billing</legend>
            <div className="mt-1 inline-flex rounded-md border border-slate-300 bg-white p-1">
              {(["month", "year"] as const).map((value) => (
                <label
                  key={value}
                  className="cursor-pointer rounded px-3 py-1.5 text-sm font-medium text-slate-700 has-checked:bg-brand-600 has-checked:text-white has-focus-visible:ring-2 has-focus-visible:ring-brand-300"
                >
                  <input
                    type="radio"
                    name="interval"
                    value={value}
                    defaultChecked={interval === value}
                    className="sr-only"
                  />
                  {value === "month" ? "Monthly" : "Yearly"}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <ul className="mt-4 grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-4">
            <PlanHeading name="Free" current={listing.tier === "Free"} />
            <p className="mt-2 text-2xl font-bold text-slate-900">$0</p>
            <FeatureList features={FREE_FEATURES} />
          </li>
          {plans.map((plan) => {
            const current = listing.tier === plan.tier || live?.tier === plan.tier;
            return (
              <li
                key={plan.tier}
                className={cn(
                  "flex flex-col rounded-lg border bg-white p-4",
                  plan.tier === "Preferred" ? "border-amber-400 ring-1 ring-amber-200" : "border-slate-200",
                )}
              >
                <PlanHeading name={plan.name} current={current} />
                <p className="mt-2">
                  <span className="text-2xl font-bold text-slate-900">{plan.month}</span>
                  <span className="text-sm text-slate-600"> / month</span>
                </p>
                <p className="text-sm text-slate-600">
                  or {plan.year} / year{plan.yearSaving ? ` (${plan.yearSaving})` : ""}
                </p>
                <FeatureList features={plan.features} />
                {!locked && (
                  <SubmitButton
                    name="tier"
                    value={plan.tier}
                    variant={plan.tier === "Preferred" ? "primary" : "secondary"}
                    className="mt-4 w-full"
                  >
                    {changing
                      ? current
                        ? `Keep ${plan.name}, change billing`
                        : `Switch to ${plan.name}`
                      : `Choose ${plan.name}`}
                  </SubmitButton>
                )}
              </li>
            );
          })}
        </ul>
        {!locked && (
          <p className="mt-4 text-sm text-slate-600">
            {provider === "stripe"
              ? changing
                ? "A change applies at once; the card on file is charged or credited for the difference."
                : "Next: a summary, then payment by card on Stripe's secure page. Cancel any time; the plan runs to the end of its period."
              : changing
                ? live?.status === "pending"
                  ? "Your request changes to the new plan; you get a new invoice at checkout."
                  : `The new plan starts with your next period on ${live?.periodEnd}; its invoice is for the new plan.`
                : "Next: a summary, then we email you an invoice with payment instructions. The plan starts when the payment is recorded."}
          </p>
        )}
      </Form>
    </>
  );
}

function PlanHeading({ name, current }: { name: string; current: boolean }) {
  return (
    <h3 className="flex items-center justify-between gap-2 font-semibold text-slate-900">
      <span className="inline-flex items-center gap-2">
        {name !== "Free" && <Megaphone className="size-4 text-brand-600" aria-hidden="true" />}
        {name}
      </span>
      {current && <span className="text-xs font-medium text-emerald-700">Current plan</span>}
    </h3>
  );
}

function FeatureList({ features }: { features: readonly string[] }) {
  return (
    <ul className="mt-3 flex-1 space-y-1 text-sm text-slate-700">
      {features.map((f) => (
        <li key={f} className="flex gap-2">
          <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
          {f}
        </li>
      ))}
    </ul>
  );
}
