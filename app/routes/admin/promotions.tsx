import Inbox from "lucide-react/icons/inbox";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ReasonDialog } from "../../components/promotions/reason-dialog";
import { InvoiceStatusBadge, PromotionStatusBadge } from "../../components/promotions/status-badges";
import { Button } from "../../components/ui/button";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { ConfirmDialog } from "../../components/ui/dialog";
import { EmptyState } from "../../components/ui/empty-state";
import { Field, FormError } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { FilterSearch } from "../../components/ui/filter-search";
import { Select } from "../../components/ui/select";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { cn } from "../../lib/cn";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { adminPromotionsAction, adminPromotionsPage } from "../../../server/promotions/admin-pages";
import type { Route } from "./+types/promotions";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Promotions", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Promotions" };

export async function loader({ request }: Route.LoaderArgs) {
  return adminPromotionsPage(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return adminPromotionsAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
type InvoiceRow = Data["invoices"][number];
type PromotionRow = Data["promotions"][number];

const INVOICE_STATUS_OPTIONS = [
  ["open", "Open"],
  ["paid", "Paid"],
  ["void", "Void"],
  ["all", "All"],
] as const;
const PROMOTION_STATUS_OPTIONS = [
  ["live", "Live (pending, active, past due)"],
  ["pending", "Waiting for payment"],
  ["active", "Active"],
  ["past_due", "Past due"],
  ["ended", "Ended"],
  ["void", "Void"],
  ["all", "All"],
] as const;

const listingLink = (row: { locationId: string; listingName: string }) => (
  <Link
    to={`/admin/manage/${encodeURIComponent(row.locationId)}`}
    className="font-medium text-brand-700 hover:underline"
  >
    {row.listingName}
  </Link>
);

const INVOICE_COLUMNS: Column<InvoiceRow>[] = [
  {
    key: "number",
    header: "Invoice",
    sortable: true,
    cell: (r) => (
      <Link to={`/owner/invoices/${encodeURIComponent(r.id)}`} className="font-medium text-brand-700 hover:underline">
        {r.number}
      </Link>
    ),
  },
  {
    key: "listing",
    header: "Listing",
    sortable: true,
    cell: (r) => (
      <span>
        {listingLink(r)}
        <span className="block text-xs text-slate-600">
          {r.tier}, {r.interval === "year" ? "yearly" : "monthly"} · {r.buyerEmail ?? "no buyer"}
        </span>
      </span>
    ),
  },
  {
    key: "amount",
    header: "Amount",
    sortable: true,
    align: "right",
    cell: (r) => <span className="tabular-nums">{r.amount}</span>,
  },
  {
    key: "status",
    header: "Status",
    sortable: true,
    cell: (r) => (
      <span className="flex flex-wrap items-center gap-1">
        <InvoiceStatusBadge status={r.status} />
        {r.overdue && <span className="text-xs font-medium text-red-700">overdue</span>}
        {r.status === "void" && r.voidReason && <span className="text-xs text-slate-600">{r.voidReason}</span>}
      </span>
    ),
  },
  { key: "issued", header: "Issued", sortable: true, firstDir: "desc", cell: (r) => r.issued },
  { key: "due", header: "Due", sortable: true, cell: (r) => (r.status === "paid" ? `paid ${r.paid}` : (r.due ?? "")) },
  {
    key: "actions",
    header: <span className="sr-only">Actions</span>,
    label: "Actions",
    cell: (r) =>
      r.status === "open" && r.provider === "invoice" ? (
        <span className="flex flex-wrap gap-2">
          <Form method="post" id={`paid-${r.id}`} className="hidden">
            <input type="hidden" name="intent" value="paid" />
            <input type="hidden" name="invoiceId" value={r.id} />
          </Form>
          <ConfirmDialog
            trigger={
              <Button size="sm" aria-label={`Mark ${r.number} paid`}>
                Mark paid
              </Button>
            }
            title={`Mark ${r.number} paid?`}
            text={`Record ${r.amount} received for ${r.listingName}. ${r.tier} starts now (or the period extends) and the owner is emailed a receipt.`}
            confirmLabel="Mark paid"
            form={`paid-${r.id}`}
          />
          <ReasonDialog
            label="Void"
            srLabel={`Void ${r.number}`}
            title={`Void ${r.number}?`}
            text={`Nothing is owed on a void invoice. ${r.promotionStatus === "pending" ? "The owner's pending request is cancelled with it." : ""}`}
            intent="void"
            fields={{ invoiceId: r.id }}
            confirmLabel="Void invoice"
          />
        </span>
      ) : null,
  },
];

const PROMOTION_COLUMNS: Column<PromotionRow>[] = [
  {
    key: "listing",
    header: "Listing",
    sortable: true,
    cell: (r) => (
      <span>
        {listingLink(r)}
        <span className="block text-xs text-slate-600">{r.buyerEmail ?? "granted by an administrator"}</span>
      </span>
    ),
  },
  {
    key: "tier",
    header: "Plan",
    sortable: true,
    cell: (r) => `${r.tier}, ${r.interval === "year" ? "yearly" : "monthly"} (${r.provider})`,
  },
  {
    key: "status",
    header: "Status",
    sortable: true,
    cell: (r) => (
      <span className="flex flex-wrap items-center gap-1">
        <PromotionStatusBadge status={r.status} cancelled={r.cancelAtPeriodEnd} />
        {r.endReason && <span className="text-xs text-slate-600">{r.endReason}</span>}
      </span>
    ),
  },
  { key: "ends", header: "Period", sortable: true, cell: (r) => (r.start ? `${r.start} to ${r.end}` : "not started") },
  { key: "created", header: "Requested", sortable: true, firstDir: "desc", cell: (r) => r.created },
  {
    key: "actions",
    header: <span className="sr-only">Actions</span>,
    label: "Actions",
    cell: (r) =>
      r.live ? (
        <ReasonDialog
          label="End"
          srLabel={`End the promotion of ${r.listingName}`}
          title={`End ${r.tier} for ${r.listingName} now?`}
          text="The listing returns to its previous plan at once, its open invoices are voided and the owner is emailed."
          intent="end"
          fields={{ promotionId: r.id }}
          confirmLabel="End promotion"
        />
      ) : null,
  },
];

export default function AdminPromotions({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  const tab = (view: "invoices" | "promotions", label: string) => (
    <Link
      to={`/admin/promotions?view=${view}`}
      aria-current={d.view === view ? "page" : undefined}
      className={cn(
        "rounded-md px-3 py-2 text-sm font-medium",
        d.view === view ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100",
      )}
    >
      {label}
    </Link>
  );
  const filtered = d.q !== "" || (d.view === "invoices" ? d.status !== "open" : d.status !== "live");
  const empty = (title: string, text: string) => (
    <EmptyState
      className="mt-4"
      icon={<Inbox />}
      title={title}
      text={filtered ? "Try another status or search." : text}
    />
  );
  return (
    <>
      <PageHeader
        title="Promotions"
        description={`${d.counts.openInvoices} open invoices · ${d.counts.livePromotions} live promotions`}
      />
      <nav aria-label="Promotions views" className="mt-4 flex gap-2 border-b border-slate-200 pb-2">
        {tab("invoices", `Invoices (${d.counts.openInvoices} open)`)}
        {tab("promotions", `Promotions (${d.counts.livePromotions} live)`)}
      </nav>

      <Form method="get" role="search" className="mt-4 flex flex-wrap items-end gap-2">
        <input type="hidden" name="view" value={d.view} />
        <FilterSelect
          id="f-status"
          label="Status"
          name="status"
          value={d.status}
          options={d.view === "invoices" ? INVOICE_STATUS_OPTIONS : PROMOTION_STATUS_OPTIONS}
        />
        {d.view === "promotions" && (
          <>
            <FilterSelect
              id="f-provider"
              label="Paid by"
              name="provider"
              value={d.provider}
              options={[
                ["all", "Any"],
                ["invoice", "Invoice"],
                ["stripe", "Card (Stripe)"],
                ["admin", "Granted"],
              ]}
            />
            <FilterSelect
              id="f-tier"
              label="Plan"
              name="tier"
              value={d.tier}
              options={[["all", "Any"], ...d.plans.map((p) => [p.tier, p.name] as const)]}
            />
          </>
        )}
        <FilterSearch
          id="f-q"
          value={d.q}
          placeholder={d.view === "invoices" ? "Invoice number, listing, id or email" : "Listing, id or email"}
        />
      </Form>

      {d.view === "invoices" ? (
        <ListTable
          paging={d}
          rowKey={(r) => r.id}
          caption="Invoices"
          columns={INVOICE_COLUMNS}
          rows={d.invoices}
          empty={empty(
            filtered ? "No invoices match" : "No open invoices",
            "Invoices appear here when owners request them.",
          )}
        />
      ) : (
        <ListTable
          paging={d}
          rowKey={(r) => r.id}
          caption="Promotions"
          columns={PROMOTION_COLUMNS}
          rows={d.promotions}
          empty={empty(filtered ? "No promotions match" : "No live promotions", "Paid and granted plans appear here.")}
        />
      )}
      <GrantForm plans={d.plans} grantKey={d.grantKey} />
    </>
  );
}

function FilterSelect({
  id,
  label,
  name,
  value,
  options,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <Select id={id} name={name} defaultValue={value} className="mt-1">
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** Give a listing a plan without payment, for a reason (a partner, a refund, a correction). */
function GrantForm({ plans, grantKey }: { plans: Data["plans"]; grantKey: string }) {
  const form = useFormState();
  const mine = form.value("intent") === "grant";
  return (
    <details
      className="mt-8 rounded-lg border border-slate-200 bg-white p-4"
      open={(mine && !!form.formError) || undefined}
    >
      <summary className="cursor-pointer font-semibold text-slate-900">Grant a promotion</summary>
      <Form method="post" className="mt-4 max-w-xl">
        <input type="hidden" name="intent" value="grant" />
        <input type="hidden" name="key" value={grantKey} />
        {mine && <FormError message={form.formError} className="mb-3" />}
        <Field
          label="Listing id"
          name="locationId"
          hint="The id shown on the listing's admin page."
          error={mine ? form.error("locationId") : undefined}
        >
          {(control) => (
            <Input {...control} required maxLength={200} defaultValue={mine ? form.value("locationId") : ""} />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Plan" name="tier" error={mine ? form.error("tier") : undefined}>
            {(control) => (
              <Select {...control} defaultValue={mine ? form.value("tier") : "Preferred"}>
                {plans.map((p) => (
                  <option key={p.tier} value={p.tier}>
                    {p.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="For" name="interval" error={mine ? form.error("interval") : undefined}>
            {(control) => (
              <Select {...control} defaultValue={mine ? form.value("interval") : "month"}>
                <option value="month">One month</option>
                <option value="year">One year</option>
              </Select>
            )}
          </Field>
        </div>
        <Field
          label="Reason"
          name="reason"
          hint="Required; kept in the audit trail."
          error={mine ? form.error("reason") : undefined}
        >
          {(control) => (
            <Textarea
              {...control}
              rows={2}
              required
              minLength={3}
              maxLength={500}
              defaultValue={mine ? form.value("reason") : ""}
            />
          )}
        </Field>
        <SubmitButton>Grant</SubmitButton>
      </Form>
    </details>
  );
}
