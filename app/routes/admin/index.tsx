import BadgeDollarSign from "lucide-react/icons/badge-dollar-sign";
import CalendarClock from "lucide-react/icons/calendar-clock";
import ClipboardList from "lucide-react/icons/clipboard-list";
import Eye from "lucide-react/icons/eye";
import FileCheck2 from "lucide-react/icons/file-check-corner";
import Inbox from "lucide-react/icons/inbox";
import MessageSquareWarning from "lucide-react/icons/message-square-exclamation-point";
import Star from "lucide-react/icons/star";
import TriangleAlert from "lucide-react/icons/triangle-exclamation-point";
import UserPlus from "lucide-react/icons/user-plus";
import type { ComponentType, ReactNode } from "react";
import { Form, Link, useActionData, useLocation } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Field } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { SubmitButton } from "../../components/ui/submit-button";
import { privatePageMeta } from "../../lib/meta";
import { adminOverviewPage } from "../../../server/admin/pages";
import { viewerContext } from "../../../server/auth/console";
import { adminCachePurgeAction, cachePurgeFormData } from "../../../server/cache/admin";
import { PURGE_INPUT_MAX } from "../../../server/cache/purge-path";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/index";
import { formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Admin console", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Overview" };

export async function loader() {
  return { ...(await adminOverviewPage()), purge: cachePurgeFormData() };
}

/** The overview's one form: "Purge a page from the shared cache". */
export async function action({ request, context }: Route.ActionArgs) {
  return adminCachePurgeAction(request, context.get(viewerContext), context.get(requestIdContext));
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
          <span className="block text-2xl font-bold text-slate-900">{formatNumber(count)}</span>
          <span className="block text-sm text-slate-600">{children}</span>
        </span>
      </Link>
    </li>
  );
}

/** The admin overview (docs/product.md section 12): the queues that wait for someone, then the week's figures. */
export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const {
    pendingClaims,
    pendingChanges,
    openInvoices,
    openReports,
    listingsWithProblems,
    week,
    waitingLeads,
    reviewsToCheck,
    purge,
  } = loaderData;
  return (
    <>
      <PageHeader title="Admin console" description="Claims, listings, users and articles, in one place." />
      <h2 className="mt-6 text-lg font-semibold text-slate-900">Waiting for you</h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
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
        <QueueCard to="/admin/manage?section=leads" Icon={Inbox} count={waitingLeads}>
          {waitingLeads === 1 ? "lead to an unclaimed listing waits" : "leads to unclaimed listings wait"}
        </QueueCard>
        <QueueCard to="/admin/manage?section=reviews" Icon={Star} count={reviewsToCheck}>
          {reviewsToCheck === 1 ? "review waits" : "reviews wait"} for a check (held or reported)
        </QueueCard>
        <QueueCard to="/admin/promotions" Icon={BadgeDollarSign} count={openInvoices}>
          {openInvoices === 1 ? "invoice waits" : "invoices wait"} for payment
        </QueueCard>
        <QueueCard to="/admin/promotions" Icon={CalendarClock} count={week.promotionsDue}>
          {week.promotionsDue === 1 ? "promotion is" : "promotions are"} past due or end within a week
        </QueueCard>
      </ul>
      <h2 className="mt-8 text-lg font-semibold text-slate-900">This week</h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <QueueCard to="/admin/users" Icon={UserPlus} count={week.signUps}>
          {week.signUps === 1 ? "new account" : "new accounts"} in the last 7 days
        </QueueCard>
        <QueueCard to="/admin/analytics?days=7" Icon={Eye} count={week.pageViews}>
          {week.pageViews === 1 ? "page view" : "page views"} from {formatNumber(week.visitors)}{" "}
          {week.visitors === 1 ? "visitor" : "visitors"} in the last 7 days
        </QueueCard>
      </ul>
      <CachePurgeForm sharedCache={purge.sharedCache} origin={purge.origin} />
    </>
  );
}

/**
 * "Purge a page from the shared cache" (docs/product.md section 12): a facility page refreshes by
 * itself when its listing changes; this is for the rest (an article, a results page).
 */
function CachePurgeForm({ sharedCache, origin }: { sharedCache: boolean; origin: string }) {
  const answer = useActionData<typeof action>();
  const failed = answer && "ok" in answer && !answer.ok ? answer : undefined;
  const typed = failed?.values.path;
  // A new form after each submission: empty once a page is queued, the typed text after a refusal.
  const { key } = useLocation();
  return (
    <section aria-labelledby="cache-purge-heading" className="mt-8">
      <h2 id="cache-purge-heading" className="text-lg font-semibold text-slate-900">
        Purge a page from the shared cache
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        {sharedCache
          ? "Visitors who are not signed in get public pages from the shared cache, up to a minute old. A facility page is refreshed there as soon as its listing changes; refresh any other page here."
          : "No shared cache is configured (CACHE_PURGE_URL is unset): every visitor gets pages from the site itself, so there is nothing to purge."}
      </p>
      <Form key={key} method="post" className="mt-3 max-w-xl rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <input type="hidden" name="intent" value="purge-cache" />
        <Field
          label="Page"
          name="path"
          hint={`A path such as /blog or a full address on ${origin}.`}
          error={failed?.fieldErrors.path}
        >
          {(control) => (
            <Input
              {...control}
              required
              maxLength={PURGE_INPUT_MAX}
              defaultValue={typeof typed === "string" ? typed : undefined}
              placeholder="/location/…"
              autoComplete="off"
            />
          )}
        </Field>
        <SubmitButton variant="secondary">Purge this page</SubmitButton>
      </Form>
    </section>
  );
}
