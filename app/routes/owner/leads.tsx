import Download from "lucide-react/icons/download";
import Inbox from "lucide-react/icons/inbox";
import Mail from "lucide-react/icons/mail";
import Phone from "lucide-react/icons/phone";
import { Form, Link, useLocation } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { FilterSelect } from "../../components/ui/filter-select";
import { Select } from "../../components/ui/select";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { Pagination } from "../../components/search/pagination";
import {
  COVER_WANT_LABELS,
  LEAD_LIMITS,
  LEAD_STATUSES,
  LEAD_STATUS_LABELS,
  OWNER_SET_STATUSES,
  RESERVATION_STATUS_LABELS,
  RV_TYPE_LABELS,
  type LeadStatus,
  type ReservationStatus,
} from "../../../domain/leads";
import { RESERVATION_NOTE_MAX } from "../../../domain/reservations";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { ownerLeadsAction, ownerLeadsPage } from "../../../server/leads/pages";
import type { Route } from "./+types/leads";
import { formatDateTime } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Leads", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Leads" };

export async function loader({ request, context }: Route.LoaderArgs) {
  return ownerLeadsPage(context.get(viewerContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return ownerLeadsAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
type Lead = Data["leads"][number];
const TONE: Record<LeadStatus, "info" | "neutral" | "success" | "danger" | "warning"> = {
  new: "info",
  replied: "neutral",
  won: "success",
  lost: "warning",
  withdrawn: "danger",
  handled: "neutral",
};

const RESERVATION_TONE: Record<ReservationStatus, "info" | "neutral" | "success" | "danger" | "warning"> = {
  pending: "warning",
  accepted: "success",
  declined: "neutral",
  expired: "danger",
};

/**
 * A reservation request's status and answer (docs/product.md section 17): the time left while it
 * is pending, Accept, and Decline behind a disclosure that asks first and takes an optional note.
 */
function ReservationAnswer({ lead, back, closed }: { lead: Lead; back: string; closed: boolean }) {
  const reservation = lead.reservation;
  if (!reservation) return null;
  const pending = reservation.status === "pending" && !closed;
  return (
    <section aria-label="Reservation request" className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
        <Badge tone={RESERVATION_TONE[reservation.status]}>{RESERVATION_STATUS_LABELS[reservation.status]}</Badge>
        {pending ? (
          <strong>{reservation.timeLeft}</strong>
        ) : reservation.answeredAt ? (
          <span>{formatDateTime(reservation.answeredAt)} UTC</span>
        ) : (
          <span>Expired {formatDateTime(reservation.expiresAt)} UTC</span>
        )}
      </p>
      {pending && (
        <div className="mt-3 flex flex-wrap items-start gap-2">
          <Form method="post">
            <input type="hidden" name="leadId" value={lead.id} />
            <input type="hidden" name="back" value={back} />
            <SubmitButton name="intent" value="accept">
              Accept
            </SubmitButton>
          </Form>
          <details className="min-w-0 flex-1">
            <summary className={buttonClasses("secondary", "md", "cursor-pointer list-none")}>Decline…</summary>
            <Form method="post" className="mt-2 space-y-2">
              <input type="hidden" name="leadId" value={lead.id} />
              <input type="hidden" name="back" value={back} />
              <label htmlFor={`note-${lead.id}`} className="block text-sm font-medium text-slate-800">
                A note to {lead.name ?? "the visitor"} (optional)
              </label>
              <Textarea id={`note-${lead.id}`} name="note" rows={2} maxLength={RESERVATION_NOTE_MAX} />
              <SubmitButton variant="danger" name="intent" value="decline">
                Decline the request
              </SubmitButton>
            </Form>
          </details>
        </div>
      )}
    </section>
  );
}

function LeadCard({ lead }: { lead: Lead }) {
  const { pathname, search } = useLocation();
  const back = `${pathname}${search}`;
  const closed = lead.status === "withdrawn" || !lead.email;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <article aria-labelledby={`lead-${lead.id}`}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id={`lead-${lead.id}`} className="text-lg font-semibold text-slate-900">
              {lead.reservation ? "Reservation request: " : ""}
              {lead.name ?? "A visitor (details deleted)"} · {lead.listingName}
            </h2>
            <p className="text-sm text-slate-600">{formatDateTime(lead.createdAt)} UTC</p>
          </div>
          <Badge tone={TONE[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
        </div>
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div>
            <dt className="inline font-medium text-slate-800">RV: </dt>
            <dd className="inline text-slate-700">
              {RV_TYPE_LABELS[lead.rvType]}, {lead.rvLengthFeet} ft
            </dd>
          </div>
          <div>
            <dt className="inline font-medium text-slate-800">Space: </dt>
            <dd className="inline text-slate-700">{COVER_WANT_LABELS[lead.cover]}</dd>
          </div>
          <div>
            <dt className="inline font-medium text-slate-800">Move-in: </dt>
            <dd className="inline text-slate-700">{lead.moveIn ?? "not given"}</dd>
          </div>
          {lead.email && (
            <div>
              <dt className="sr-only">Contact</dt>
              <dd className="flex flex-wrap gap-x-4">
                <a href={`mailto:${lead.email}`} className="inline-flex items-center gap-1 text-brand-700 underline">
                  <Mail className="size-4" aria-hidden="true" /> {lead.email}
                </a>
                {lead.phone && lead.phoneTel && (
                  <a href={`tel:${lead.phoneTel}`} className="inline-flex items-center gap-1 text-brand-700 underline">
                    <Phone className="size-4" aria-hidden="true" /> {lead.phone}
                  </a>
                )}
              </dd>
            </div>
          )}
        </dl>
        <ReservationAnswer lead={lead} back={back} closed={closed} />
        <blockquote className="mt-3 border-l-4 border-slate-200 pl-3 whitespace-pre-line text-slate-800">
          {lead.message}
        </blockquote>
        {lead.replies.length > 0 && (
          <ol className="mt-3 space-y-2" aria-label="Replies">
            {lead.replies.map((r, i) => (
              <li key={i} className="rounded-md bg-brand-50 p-3 text-sm">
                <p className="font-medium text-slate-800">
                  {r.authorName} replied, {formatDateTime(r.createdAt)} UTC
                </p>
                <p className="mt-1 whitespace-pre-line text-slate-700">{r.body}</p>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4 grid gap-4 md:grid-cols-[1fr_auto]">
          {closed ? (
            <p className="text-sm text-slate-600">
              {lead.status === "withdrawn"
                ? "The visitor withdrew this request."
                : "Contact details deleted after 180 days."}
            </p>
          ) : (
            // Keyed by the thread's length: a sent reply empties the box.
            <Form method="post" className="space-y-2" key={lead.replies.length}>
              <input type="hidden" name="intent" value="reply" />
              <input type="hidden" name="leadId" value={lead.id} />
              <input type="hidden" name="back" value={back} />
              <label htmlFor={`reply-${lead.id}`} className="block text-sm font-medium text-slate-800">
                Reply to {lead.name ?? "the visitor"} by email
              </label>
              <Textarea id={`reply-${lead.id}`} name="body" rows={3} required maxLength={LEAD_LIMITS.replyMax} />
              <SubmitButton variant="secondary" name="intent" value="reply">
                Send reply
              </SubmitButton>
            </Form>
          )}
          {lead.status !== "withdrawn" && (
            <Form method="post" className="flex items-end gap-2">
              <input type="hidden" name="leadId" value={lead.id} />
              <input type="hidden" name="back" value={back} />
              <div>
                <label htmlFor={`status-${lead.id}`} className="block text-sm font-medium text-slate-800">
                  Status
                </label>
                <Select
                  id={`status-${lead.id}`}
                  name="status"
                  defaultValue={lead.status}
                  key={lead.status}
                  className="mt-1"
                >
                  {OWNER_SET_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {LEAD_STATUS_LABELS[s]}
                    </option>
                  ))}
                </Select>
              </div>
              <SubmitButton variant="ghost" name="intent" value="status">
                Save
              </SubmitButton>
            </Form>
          )}
        </div>
      </article>
    </li>
  );
}

/** The owner's leads (docs/product.md section 14): newest first, with replies, status and CSV. */
export default function OwnerLeads({ loaderData }: Route.ComponentProps) {
  const { leads, listings, listing, status, kind, pendingReservations, page, pageSize, total } = loaderData;
  const query = new URLSearchParams();
  if (listing) query.set("listing", listing);
  if (status !== "all") query.set("status", status);
  if (kind !== "all") query.set("kind", kind);
  const kindHref = (k: typeof kind) => {
    const q = new URLSearchParams(query);
    q.delete("kind");
    if (k !== "all") q.set("kind", k);
    return `/owner/leads${q.size ? `?${q}` : ""}`;
  };
  const hrefFor = (p: number) => {
    const q = new URLSearchParams(query);
    if (p > 1) q.set("page", String(p));
    return `/owner/leads${q.size ? `?${q}` : ""}`;
  };
  return (
    <>
      <PageHeader
        title="Leads"
        description="Visitors' questions about a space at your facilities. Reply here or from your email."
        actions={
          leads.length > 0 ? (
            <a
              href={`/owner/leads.csv${query.size ? `?${query}` : ""}`}
              className={buttonClasses("secondary")}
              download
            >
              <Download className="size-4" aria-hidden="true" /> Download CSV
            </a>
          ) : undefined
        }
      />
      {listings.length > 0 && (
        <nav aria-label="Kind of lead" className="mt-6 flex flex-wrap gap-2">
          {(
            [
              ["all", "All leads"],
              ["question", "Questions"],
              ["reservation", "Reservation requests"],
            ] as const
          ).map(([k, text]) => (
            <Link
              key={k}
              to={kindHref(k)}
              aria-current={kind === k ? "page" : undefined}
              className={buttonClasses(kind === k ? "primary" : "secondary")}
            >
              {text}
              {k === "reservation" && pendingReservations > 0 && (
                <span className="rounded-full bg-white px-2 text-xs font-semibold text-brand-800">
                  {pendingReservations}
                  <span className="sr-only"> waiting for your answer</span>
                </span>
              )}
            </Link>
          ))}
        </nav>
      )}
      {listings.length > 0 && (
        <Form method="get" aria-label="Filter leads" className="mt-4 grid max-w-xl grid-cols-2 gap-2">
          {kind !== "all" && <input type="hidden" name="kind" value={kind} />}
          <FilterSelect id="leads-listing" name="listing" label="Listing" value={listing}>
            <option value="">All listings</option>
            {listings.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="leads-status" name="status" label="Status" value={status}>
            <option value="all">Any status</option>
            {LEAD_STATUSES.map((s) => (
              <option key={s} value={s}>
                {LEAD_STATUS_LABELS[s]}
              </option>
            ))}
          </FilterSelect>
          <noscript>
            <button type="submit" className={buttonClasses("secondary")}>
              Filter
            </button>
          </noscript>
        </Form>
      )}
      {leads.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<Inbox />}
          title={listings.length === 0 ? "No listings yet" : "No leads here yet"}
          text={
            listings.length === 0
              ? "Claim your facility's listing: visitors' questions about a space then reach you here."
              : "When a visitor asks about a space on your listing's page, the question appears here and in your email."
          }
          action={
            listings.length === 0 ? (
              <Link to="/owner/claim" className={buttonClasses("primary")}>
                Claim a listing
              </Link>
            ) : undefined
          }
        />
      ) : (
        <ul className="mt-6 space-y-4">
          {leads.map((lead) => (
            <LeadCard key={lead.id} lead={lead} />
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(total / pageSize))}
        pageSize={pageSize}
        total={total}
        hrefFor={hrefFor}
        noun="leads"
      />
    </>
  );
}
