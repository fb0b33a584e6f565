import {
  BadgeDollarSign,
  ClipboardList,
  Construction,
  FileCheck2,
  MessageSquareWarning,
  TriangleAlert,
} from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { privatePageMeta } from "../../lib/meta";
import { pendingClaimCount } from "../../../server/claims/queries";
import { getDatabase } from "../../../server/db";
import { pendingChangeCount } from "../../../server/listings/queries";
import { promotionCounts } from "../../../server/promotions/admin-queries";
import { queueCounts } from "../../../server/catalogue/reports";
import type { Route } from "./+types/index";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Admin console", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Overview" };

export async function loader() {
  const db = getDatabase();
  const [pendingClaims, pendingChanges, promotions, queue] = await Promise.all([
    pendingClaimCount(db),
    pendingChangeCount(db),
    promotionCounts(db),
    queueCounts(db),
  ]);
  return {
    pendingClaims,
    pendingChanges,
    openInvoices: promotions.openInvoices,
    openReports: queue.reports,
    listingsWithProblems: queue.listingsWithProblems,
  };
}

/** One queue on the overview: how many items wait, linking to the screen that works them off. */
function QueueCard({
  to,
  Icon,
  count,
  children,
}: {
  to: string;
  Icon: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  count: number;
  children: ReactNode;
}) {
  return (
    <li>
      <Link
        to={to}
        className="flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-300 hover:shadow-sm"
      >
        <Icon aria-hidden className="mt-0.5 size-5 text-brand-600" />
        <span>
          <span className="block text-2xl font-bold text-slate-900">{count}</span>
          <span className="block text-sm text-slate-600">{children}</span>
        </span>
      </Link>
    </li>
  );
}

/** The admin overview: the queues that wait for someone; more figures come with the admin screens. */
export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { pendingClaims, pendingChanges, openInvoices, openReports, listingsWithProblems } = loaderData;
  return (
    <>
      <PageHeader title="Admin console" description="Claims, listings, users and articles, in one place." />
      <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <QueueCard to="/admin/claims" Icon={FileCheck2} count={pendingClaims}>
          {pendingClaims === 1 ? "claim waits" : "claims wait"} for a decision
        </QueueCard>
        <QueueCard to="/admin/manage" Icon={ClipboardList} count={pendingChanges}>
          {pendingChanges === 1 ? "owner's change waits" : "owners' changes wait"} for review
        </QueueCard>
        <QueueCard to="/admin/manage?section=reports" Icon={MessageSquareWarning} count={openReports}>
          {openReports === 1 ? "visitor report waits" : "visitor reports wait"}
        </QueueCard>
        <QueueCard to="/admin/manage?section=problems" Icon={TriangleAlert} count={listingsWithProblems}>
          {listingsWithProblems === 1 ? "listing has" : "listings have"} data problems
        </QueueCard>
        <QueueCard to="/admin/promotions" Icon={BadgeDollarSign} count={openInvoices}>
          {openInvoices === 1 ? "invoice waits" : "invoices wait"} for payment
        </QueueCard>
      </ul>
      <div className="mt-6 flex items-start gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
        <Construction aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-500" />
        <p>Traffic, sign-ups and search demand are under Analytics. Use the menu to reach each part of the console.</p>
      </div>
    </>
  );
}
