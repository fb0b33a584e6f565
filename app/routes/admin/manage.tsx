import { COVER_WANT_LABELS, RV_TYPE_LABELS } from "../../../domain/leads";
import Inbox from "lucide-react/icons/inbox";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ChangeList } from "../../components/moderation/change-list";
import { QueueDecision } from "../../components/moderation/decision-controls";
import { Badge } from "../../components/ui/badge";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { EmptyState } from "../../components/ui/empty-state";
import { buttonClasses } from "../../components/ui/button";
import { SubmitButton } from "../../components/ui/submit-button";
import { cn } from "../../lib/cn";
import { LISTING_REPORT_LABELS } from "../../../domain/work-queue";
import {
  LISTING_PROBLEM_KINDS,
  LISTING_PROBLEM_LABELS,
  type ListingProblemKind,
} from "../../../domain/listing-problems";
import { FormError } from "../../components/ui/field";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { manageQueueAction, manageQueuePage } from "../../../server/listings/admin-pages";
import type { Route } from "./+types/manage";
import { formatDateTime, formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Work queue", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Work queue" };

export async function loader({ request }: Route.LoaderArgs) {
  return manageQueuePage(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return manageQueueAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const manageHref = (locationId: string) => `/admin/manage/${encodeURIComponent(locationId)}`;

const COLUMNS: Column<Row>[] = [
  {
    key: "listing",
    header: "Listing",
    sortable: true,
    cell: (row) => (
      <span className="min-w-0 text-right md:text-left">
        <Link to={manageHref(row.locationId)} className="font-medium text-brand-700 hover:underline">
          {row.name}
        </Link>
        {row.place && <span className="block text-xs text-slate-600">{row.place}</span>}
        <Link to={`/location/${row.slug}`} className="block text-xs text-brand-700 hover:underline">
          Facility page
        </Link>
      </span>
    ),
  },
  {
    key: "owner",
    header: "Owner",
    cell: (row) => (
      <span className="min-w-0 text-right [overflow-wrap:anywhere] md:text-left">
        {row.owner ? (
          <>
            {row.owner.name && <span className="block break-normal">{row.owner.name}</span>}
            <span className="block text-xs text-slate-600">{row.owner.email}</span>
          </>
        ) : (
          <span className="text-slate-600">No owner</span>
        )}
        {row.submittedBy && row.submittedBy !== row.owner?.email && (
          <span className="block text-xs text-slate-600">sent by {row.submittedBy}</span>
        )}
      </span>
    ),
  },
  {
    key: "change",
    header: "Change",
    cell: (row) => <ChangeList lines={row.lines} className="min-w-0 text-left md:max-w-md" />,
  },
  {
    key: "submitted",
    header: "Submitted",
    sortable: true,
    cell: (row) => <span className="whitespace-nowrap">{formatDateTime(row.submittedAt)} UTC</span>,
  },
  {
    key: "decision",
    header: "Decision",
    cell: (row) => (
      <QueueDecision
        target={{ locationId: row.locationId, submittedAt: row.submittedAt, name: row.name }}
        pageHref={manageHref(row.locationId)}
      />
    ),
  },
];

/**
 * The administrators' work queue (docs/product.md sections 10 and 12): owners' waiting changes,
 * visitors' reports and the nightly check's data problems, one section each behind the tabs.
 */
const SECTIONS = [
  { id: "changes", label: "Owner changes" },
  { id: "reports", label: "Visitor reports" },
  { id: "problems", label: "Data problems" },
  { id: "leads", label: "Leads" },
  { id: "reviews", label: "Reviews" },
] as const;

/** Problems the row's dialog does not show (the reason's own message is shown in it). */
function otherErrors(fieldErrors: Record<string, string[]>): string | undefined {
  const messages = Object.entries(fieldErrors)
    .filter(([name]) => name !== "reason")
    .flatMap(([, list]) => list);
  return messages.length > 0 ? messages.join(" ") : undefined;
}

type Data = Route.ComponentProps["loaderData"];

export default function WorkQueue({ loaderData }: Route.ComponentProps) {
  const { section, counts } = loaderData;
  const form = useFormState();
  return (
    <>
      <PageHeader title="Work queue" description="What waits for an administrator, oldest first." />
      <nav aria-label="Work queue sections" className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex gap-4 overflow-x-auto">
          {SECTIONS.map((s) => {
            const current = s.id === section;
            return (
              <li key={s.id}>
                <Link
                  to={s.id === "changes" ? "/admin/manage" : `/admin/manage?section=${s.id}`}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "inline-flex items-center gap-2 border-b-2 px-1 pb-2 text-sm whitespace-nowrap",
                    current
                      ? "border-brand-600 font-semibold text-brand-700"
                      : "border-transparent text-slate-600 hover:text-slate-900",
                  )}
                >
                  {s.label}
                  <Badge tone={counts[s.id] > 0 ? "warning" : "neutral"}>{counts[s.id]}</Badge>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <FormError className="mt-4" message={form.formError ?? otherErrors(form.fieldErrors)} />
      {section === "changes" && <ChangesSection data={loaderData} />}
      {section === "reports" && <ReportsSection data={loaderData} />}
      {section === "problems" && <ProblemsSection data={loaderData} />}
      {section === "leads" && <LeadsSection data={loaderData} />}
      {section === "reviews" && <ReviewsSection data={loaderData} />}
    </>
  );
}

function ChangesSection({ data }: { data: Data }) {
  const { rows } = data;
  return (
    <section aria-labelledby="changes-h" className="mt-6">
      <h2 id="changes-h" className="text-lg font-semibold text-slate-900">
        Owners’ changes to review
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        New names, addresses and map positions wait here until approved; the facility page shows the published values
        meanwhile. The owner is emailed either way.
      </p>
      <ListTable
        caption="Owners’ changes waiting for review"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.locationId}
        paging={data}
        empty={
          <EmptyState
            className="mt-4"
            icon={<Inbox />}
            title="Nothing waiting for review"
            text="When an owner changes a listing’s name, address or map position, the change appears here."
          />
        }
      />
    </section>
  );
}

/** One click: a small form posting `intent` for one report or problem. */
function ItemButton({
  type,
  id,
  intent,
  label,
  variant = "secondary",
  hide,
  about,
}: {
  type: "report" | "problem";
  id: number;
  intent: "resolve" | "dismiss" | "hide-duplicate";
  label: string;
  variant?: "secondary" | "ghost" | "primary";
  hide?: string;
  /** The listing it acts on, read by screen readers after the label: 25 rows carry the same buttons. */
  about?: string;
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="id" value={id} />
      {hide && <input type="hidden" name="hide" value={hide} />}
      <SubmitButton name="intent" value={intent} variant={variant} size="sm">
        {label}
        {about && <span className="sr-only">: {about}</span>}
      </SubmitButton>
    </Form>
  );
}

function Pager({ data }: { data: Data }) {
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  if (pages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams({ section: data.section, page: String(page) });
    if (data.kind) params.set("kind", data.kind);
    return `/admin/manage?${params}`;
  };
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
      <span className="text-slate-600">
        Page {data.page} of {pages} ({formatNumber(data.total)} in all)
      </span>
      <span className="flex gap-2">
        {data.page > 1 && (
          <Link to={href(data.page - 1)} className={buttonClasses("secondary", "sm")}>
            Previous
          </Link>
        )}
        {data.page < pages && (
          <Link to={href(data.page + 1)} className={buttonClasses("secondary", "sm")}>
            Next
          </Link>
        )}
      </span>
    </nav>
  );
}

function ListingLink({ locationId, name, place }: { locationId: string; name: string; place?: string }) {
  return (
    <span className="min-w-0">
      <Link to={manageHref(locationId)} className="font-medium text-brand-700 hover:underline">
        {name}
      </Link>
      {place && <span className="block text-xs text-slate-600">{place}</span>}
    </span>
  );
}

function ReportsSection({ data }: { data: Data }) {
  return (
    <section aria-labelledby="reports-h" className="mt-6">
      <h2 id="reports-h" className="text-lg font-semibold text-slate-900">
        Visitors’ reports
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Sent with “Suggest an edit” on facility pages. Fix the listing, then mark the report resolved; dismiss a report
        that is wrong.
      </p>
      {data.reports.length === 0 ? (
        <EmptyState
          className="mt-4"
          icon={<Inbox />}
          title="No open reports"
          text="New reports from visitors appear here."
        />
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {data.reports.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start justify-between gap-3 p-4">
              <div className="min-w-0 flex-1">
                <ListingLink locationId={r.locationId} name={r.name} place={r.place} />
                <p className="mt-1 font-medium text-slate-800">{LISTING_REPORT_LABELS[r.kind]}</p>
                {r.message && <p className="mt-1 text-sm whitespace-pre-line text-slate-700">“{r.message}”</p>}
                <p className="mt-1 text-xs text-slate-600">
                  {formatDateTime(r.createdAt)} UTC{r.phone ? ` · listed phone ${r.phone}` : ""}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link to={`${manageHref(r.locationId)}/edit`} className={buttonClasses("secondary", "sm")}>
                  Edit listing
                </Link>
                <ItemButton type="report" id={r.id} intent="resolve" label="Resolved" variant="primary" />
                <ItemButton type="report" id={r.id} intent="dismiss" label="Dismiss" variant="ghost" />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager data={data} />
    </section>
  );
}

/**
 * Visitors' questions nobody on the owner side will read (docs/product.md section 14): to listings
 * nobody has claimed, or to an owner whose account was since deleted.
 */
function LeadsSection({ data }: { data: Data }) {
  return (
    <section aria-labelledby="leads-h" className="mt-6">
      <h2 id="leads-h" className="text-lg font-semibold text-slate-900">
        Leads to unclaimed listings
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Visitors asked these facilities about a space, and no owner here will read it: the listing has no owner, or the
        owner it was sent to deleted their account. Pass the question on (call the facility, or answer the visitor),
        then mark it handled.
      </p>
      {data.leads.length === 0 ? (
        <EmptyState
          className="mt-4"
          icon={<Inbox />}
          title="No leads waiting"
          text="Questions to unclaimed listings, and to owners who deleted their account, appear here."
        />
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {data.leads.map((l) => (
            <li key={l.id} className="flex flex-wrap items-start justify-between gap-3 p-4">
              <div className="min-w-0 flex-1">
                <ListingLink
                  locationId={l.locationId}
                  name={l.listingName}
                  place={l.listingPhone ? `Listed phone ${l.listingPhone}` : ""}
                />
                <p className="mt-1 font-medium text-slate-800">
                  {l.name ?? "A visitor"}: {RV_TYPE_LABELS[l.rvType]}, {l.rvLengthFeet} ft,{" "}
                  {COVER_WANT_LABELS[l.cover].toLowerCase()}
                  {l.moveIn ? `, from ${l.moveIn}` : ""}
                </p>
                <p className="mt-1 text-sm whitespace-pre-line text-slate-700">“{l.message}”</p>
                <p className="mt-1 text-xs text-slate-600">
                  {formatDateTime(l.createdAt)} UTC
                  {l.email ? (
                    <>
                      {" · "}
                      <a href={`mailto:${l.email}`} className="text-brand-700 underline">
                        {l.email}
                      </a>
                    </>
                  ) : null}
                  {l.phone && l.phoneTel ? (
                    <>
                      {" · "}
                      <a href={`tel:${l.phoneTel}`} className="text-brand-700 underline">
                        {l.phone}
                      </a>
                    </>
                  ) : null}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="leadId" value={l.id} />
                <SubmitButton name="intent" value="lead-handled" variant="secondary" size="sm">
                  Mark handled
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Pager data={data} />
    </section>
  );
}

/** The page's problems by kind, in the order the query gives (kind, then oldest first). */
function groupsOf<T extends { kind: ListingProblemKind }>(problems: readonly T[]) {
  const groups: { kind: ListingProblemKind; rows: T[] }[] = [];
  for (const problem of problems) {
    const last = groups[groups.length - 1];
    if (last?.kind === problem.kind) last.rows.push(problem);
    else groups.push({ kind: problem.kind, rows: [problem] });
  }
  return groups;
}

function ProblemsSection({ data }: { data: Data }) {
  const kinds = LISTING_PROBLEM_KINDS.filter((k) => (data.problemsByKind[k] ?? 0) > 0);
  return (
    <section aria-labelledby="problems-h" className="mt-6">
      <h2 id="problems-h" className="text-lg font-semibold text-slate-900">
        Data problems
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Found by the nightly check, grouped by kind. A fixed listing leaves the list at the next check, and an owner's
        or administrator's edit clears "Not updated for a year" at once; dismiss what is not a problem and it stays
        dismissed.
      </p>
      {kinds.length > 0 && (
        <nav aria-label="Kinds of problem" className="mt-3 flex flex-wrap gap-2 text-sm">
          <Link
            to="/admin/manage?section=problems"
            aria-current={data.kind === null ? "true" : undefined}
            className={cn(
              "rounded-full border px-3 py-1",
              data.kind === null ? "border-brand-500 text-brand-700" : "border-slate-300",
            )}
          >
            All ({data.counts.problems})
          </Link>
          {kinds.map((k) => (
            <Link
              key={k}
              to={`/admin/manage?section=problems&kind=${k}`}
              aria-current={data.kind === k ? "true" : undefined}
              className={cn(
                "rounded-full border px-3 py-1",
                data.kind === k ? "border-brand-500 text-brand-700" : "border-slate-300",
              )}
            >
              {LISTING_PROBLEM_LABELS[k]} ({data.problemsByKind[k]})
            </Link>
          ))}
        </nav>
      )}
      {data.problems.length === 0 ? (
        <EmptyState
          className="mt-4"
          icon={<Inbox />}
          title="No open data problems"
          text="The nightly check lists listings without coordinates, outside their state, without contact, closed, stale or likely duplicated."
        />
      ) : (
        <div className="mt-4 space-y-6">
          {groupsOf(data.problems).map((group) => (
            <section key={group.kind} aria-labelledby={`problems-${group.kind}-h`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 id={`problems-${group.kind}-h`} className="font-semibold text-slate-900">
                  {LISTING_PROBLEM_LABELS[group.kind]}{" "}
                  <span className="font-normal text-slate-600">
                    ({formatNumber(data.problemsByKind[group.kind] ?? 0)} open)
                  </span>
                </h3>
                {data.kind === null && (data.problemsByKind[group.kind] ?? 0) > group.rows.length && (
                  <Link
                    to={`/admin/manage?section=problems&kind=${group.kind}`}
                    className="text-sm text-brand-700 underline hover:no-underline"
                  >
                    Only “{LISTING_PROBLEM_LABELS[group.kind]}”
                  </Link>
                )}
              </div>
              <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
                {group.rows.map((p) => (
                  <li key={p.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
                    <div className="min-w-0 flex-1">
                      {p.other ? (
                        <div className="mt-1 grid gap-2 sm:grid-cols-2">
                          {[
                            { locationId: p.locationId, name: p.name, hidden: p.hidden },
                            { locationId: p.other.locationId, name: p.other.name, hidden: p.other.hidden },
                          ].map((l) => (
                            <div key={l.locationId} className="rounded-md border border-slate-200 p-2">
                              <ListingLink locationId={l.locationId} name={l.name} />
                              <span className="block text-xs break-all text-slate-600">{l.locationId}</span>
                              <div className="mt-2">
                                <ItemButton
                                  type="problem"
                                  id={p.id}
                                  intent="hide-duplicate"
                                  hide={l.locationId}
                                  label="Hide this one"
                                  about={l.name}
                                />
                              </div>
                            </div>
                          ))}
                        </div>
                      ) : (
                        <ListingLink locationId={p.locationId} name={p.name} place={p.place} />
                      )}
                      {p.detail && <p className="mt-1 text-sm text-slate-700">{p.detail}</p>}
                      <p className="mt-1 text-xs text-slate-600">Found {formatDateTime(p.foundAt)} UTC</p>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      {!p.other && (
                        <Link to={`${manageHref(p.locationId)}/edit`} className={buttonClasses("secondary", "sm")}>
                          Open editor<span className="sr-only"> of {p.name}</span>
                        </Link>
                      )}
                      <ItemButton
                        type="problem"
                        id={p.id}
                        intent="dismiss"
                        label={p.other ? "Not duplicates" : "Not a problem"}
                        about={p.other ? `${p.name} and ${p.other.name}` : p.name}
                        variant="ghost"
                      />
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <Pager data={data} />
    </section>
  );
}

/**
 * Reviews the checks held and published reviews someone reported (docs/product.md section 16).
 * Approve publishes a held review, or keeps a reported one and dismisses its reports; reject
 * (held only) and remove need a reason, which the author is emailed.
 */
function ReviewsSection({ data }: { data: Data }) {
  const form = useFormState();
  return (
    <section aria-labelledby="reviews-h" className="mt-6">
      <h2 id="reviews-h" className="text-lg font-semibold text-slate-900">
        Reviews to check
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Held reviews are not public until approved. Reported reviews stay up until you decide. Every decision is in the
        audit trail.
      </p>
      {data.reviews.length === 0 ? (
        <EmptyState
          className="mt-4"
          icon={<Inbox />}
          title="No reviews to check"
          text="Reviews the checks hold, and reviews visitors or owners report, appear here."
        />
      ) : (
        <ul className="mt-4 space-y-4">
          {data.reviews.map((r) => {
            const mine = form.value("reviewId") === String(r.id);
            return (
              <li key={r.id} className="rounded-lg border border-slate-200 bg-white p-4">
                <article aria-labelledby={`queue-review-${r.id}`}>
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <ListingLink locationId={r.listing.id} name={r.listing.name} />
                      <h3 id={`queue-review-${r.id}`} className="mt-1 font-semibold text-slate-900">
                        {r.stars}★ · {r.title}
                      </h3>
                      <p className="text-xs text-slate-600">
                        by{" "}
                        <Link
                          to={`/admin/users/${encodeURIComponent(r.authorId)}`}
                          className="text-brand-700 underline"
                        >
                          {r.authorName}
                        </Link>{" "}
                        · {formatDateTime(r.createdAt)} UTC
                      </p>
                    </div>
                    <Badge tone={r.status === "held" ? "warning" : "info"}>
                      {r.status === "held" ? "Held" : "Published, reported"}
                    </Badge>
                  </div>
                  <p className="mt-2 whitespace-pre-line text-sm text-slate-800">{r.body}</p>
                  {r.holdReasons.length > 0 && (
                    <p className="mt-2 text-sm text-amber-800">Held: {r.holdReasons.join("; ")}</p>
                  )}
                  {r.reports.length > 0 && (
                    <ul className="mt-2 space-y-1 text-sm text-slate-700" aria-label="Reports">
                      {r.reports.map((rep, i) => (
                        <li key={i}>
                          Reported{rep.byOwner ? " by the owner" : ""}: {rep.kind}
                          {rep.message && <> · “{rep.message}”</>}
                        </li>
                      ))}
                    </ul>
                  )}
                  <Form method="post" preventScrollReset className="mt-3 space-y-2">
                    <input type="hidden" name="reviewId" value={r.id} />
                    <input type="hidden" name="status" value={r.status} />
                    <label htmlFor={`reason-${r.id}`} className="block text-sm font-medium text-slate-800">
                      Reason (needed to reject or remove; the author is emailed it)
                    </label>
                    <textarea
                      id={`reason-${r.id}`}
                      name="reason"
                      rows={2}
                      maxLength={1000}
                      aria-invalid={mine && form.error("reason") ? true : undefined}
                      className="block w-full max-w-xl rounded-md border border-slate-300 px-3 py-2 text-sm"
                    />
                    {mine && form.error("reason") && <p className="text-sm text-red-700">{form.error("reason")![0]}</p>}
                    <div className="flex flex-wrap gap-2">
                      <SubmitButton name="intent" value="review-approve" size="sm">
                        {r.status === "held" ? "Approve" : "Keep it"}
                        <span className="sr-only">: {r.title}</span>
                      </SubmitButton>
                      {r.status === "held" && (
                        <SubmitButton name="intent" value="review-reject" size="sm" variant="secondary">
                          Reject
                          <span className="sr-only">: {r.title}</span>
                        </SubmitButton>
                      )}
                      <SubmitButton name="intent" value="review-remove" size="sm" variant="danger">
                        Remove
                        <span className="sr-only">: {r.title}</span>
                      </SubmitButton>
                    </div>
                  </Form>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <Pager data={data} />
    </section>
  );
}
