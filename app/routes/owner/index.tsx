import { Link } from "react-router";
import BarChart3 from "lucide-react/icons/chart-column";
import Building2 from "lucide-react/icons/building-complex";
import FileCheck2 from "lucide-react/icons/file-check-corner";
import Megaphone from "lucide-react/icons/megaphone";
import Settings from "lucide-react/icons/settings";
import { ClaimStatusBadge } from "../../components/claims/claim-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { myClaims } from "../../../server/claims/pages";
import { ownerBilling } from "../../../server/promotions/pages";
import { InvoiceStatusBadge, PromotionStatusBadge, TierBadge } from "../../components/promotions/status-badges";
import type { Route } from "./+types/index";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Owner dashboard", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Dashboard" };

/** The owner layout's middleware has run the owner guard; its viewer is in the context. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const [{ listings, invoices }, { claims }] = await Promise.all([ownerBilling(viewer), myClaims(viewer)]);
  // Open claims, and decisions of the last 30 days: what the person may still act on.
  const recent = Date.now() - 30 * 86_400_000;
  const openClaims = claims
    .filter((c) => c.status === "pending" || (c.decidedAt && new Date(c.decidedAt).getTime() > recent))
    .slice(0, 5)
    .map(({ id, status, listingName, locationId, decisionReason }) => ({
      id,
      status,
      listingName,
      locationId,
      decisionReason,
    }));
  return { name: viewer.name, email: viewer.email, isAdmin: viewer.isAdmin, listings, invoices, claims: openClaims };
}

const ACTIONS = [
  { to: "/owner/claim", label: "Claim a listing", text: "Find your facility and prove it is yours.", Icon: FileCheck2 },
  { to: "/owner/locations/analytics", label: "Analytics", text: "Views, calls and website visits.", Icon: BarChart3 },
  { to: "/owner/promote", label: "Promote", text: "Appear first as a Preferred Partner.", Icon: Megaphone },
  { to: "/owner/settings", label: "Settings", text: "Your account and notifications.", Icon: Settings },
];

export default function OwnerDashboard({ loaderData }: Route.ComponentProps) {
  const { name, email, listings, invoices, isAdmin, claims } = loaderData;
  return (
    <>
      <PageHeader
        title={`Welcome, ${name || email}`}
        description={`Signed in as ${email}${isAdmin ? " (admin)" : ""}.`}
      />

      <h2 className="mt-10 text-xl font-semibold text-slate-900">Your listings</h2>
      {listings.length === 0 ? (
        <EmptyState
          className="mt-3"
          icon={<Building2 />}
          title="You do not manage any listing yet"
          text={
            claims.some((c) => c.status === "pending")
              ? "Your claim is being reviewed: the listing appears here once it is approved."
              : "Claim your facility's listing to update it, see its analytics and promote it."
          }
          action={
            <Link to="/owner/claim" className={buttonClasses("primary")}>
              Claim your facility
            </Link>
          }
        />
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {listings.map((l) => (
            <li key={l.placeId} className="flex flex-wrap items-center justify-between gap-2 p-4">
              <div className="flex items-center gap-3">
                <Building2 aria-hidden className="size-5 text-slate-500" />
                <div>
                  <Link to={`/location/${l.slug}`} className="font-medium text-brand-700 hover:underline">
                    {l.name}
                  </Link>
                  <p className="text-sm text-slate-600">{[l.city, l.state].filter(Boolean).join(", ")}</p>
                  <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <TierBadge tier={l.tier} />
                    {l.live && <PromotionStatusBadge status={l.live.status} cancelled={l.live.cancelAtPeriodEnd} />}
                    <span>{l.live ? l.live.statusText : "No paid plan"}</span>
                  </p>
                </div>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link to={`/owner/locations/${l.placeId}/update`} className={buttonClasses("secondary", "sm")}>
                  Update listing<span className="sr-only"> {l.name}</span>
                </Link>
                <Link
                  to={`/owner/promote?listing=${encodeURIComponent(l.placeId)}`}
                  className={buttonClasses(l.live ? "ghost" : "primary", "sm")}
                >
                  {l.live ? "Manage plan" : "Promote"}
                  <span className="sr-only"> {l.name}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      {claims.length > 0 && (
        <>
          <div className="mt-10 flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-xl font-semibold text-slate-900">Your claims</h2>
            <Link to="/owner/claims" className="text-sm font-medium text-brand-700 hover:underline">
              All claims
            </Link>
          </div>
          <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {claims.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{c.listingName}</p>
                  {c.status === "rejected" && c.decisionReason && (
                    <p className="text-sm text-slate-600">Reason: {c.decisionReason}</p>
                  )}
                </div>
                <ClaimStatusBadge status={c.status} />
              </li>
            ))}
          </ul>
        </>
      )}

      {invoices.length > 0 && (
        <section aria-labelledby="invoices-title">
          <h2 id="invoices-title" className="mt-10 text-xl font-semibold text-slate-900">
            Invoices and receipts
          </h2>
          <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {invoices.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 p-4 text-sm">
                <div className="min-w-0">
                  <Link
                    to={`/owner/invoices/${encodeURIComponent(i.id)}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {i.number}
                  </Link>
                  <p className="text-slate-600">
                    {i.tier} for {i.listingName} · issued {i.issued}
                    {i.status === "open" && i.due ? ` · due ${i.due}` : ""}
                    {i.paid ? ` · paid ${i.paid}` : ""}
                  </p>
                </div>
                <span className="flex items-center gap-3">
                  <span className="font-medium tabular-nums">{i.amount}</span>
                  <InvoiceStatusBadge status={i.status} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <h2 className="mt-10 text-xl font-semibold text-slate-900">Next steps</h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {ACTIONS.map(({ to, label, text, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-300 hover:shadow-sm"
            >
              <Icon aria-hidden className="mt-0.5 size-5 text-brand-600" />
              <span>
                <span className="block font-medium text-slate-900">{label}</span>
                <span className="block text-sm text-slate-600">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
