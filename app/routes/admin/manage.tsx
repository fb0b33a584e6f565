import { Inbox } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ChangeList } from "../../components/moderation/change-list";
import { QueueDecision } from "../../components/moderation/decision-controls";
import { Badge } from "../../components/ui/badge";
import { DataTable, type Column } from "../../components/ui/data-table";
import { EmptyState } from "../../components/ui/empty-state";
import { FormError } from "../../components/ui/field";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { manageQueueAction, manageQueuePage } from "../../../server/listings/admin-pages";
import type { Route } from "./+types/manage";

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
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
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
    cell: (row) => <span className="whitespace-nowrap">{dateTime.format(new Date(row.submittedAt))} UTC</span>,
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
 * The administrators' work queue (docs/product.md section 10). Each kind of work is one section,
 * named in the tabs above it; owners' waiting changes are the first, visitor reports and data
 * problems come later as more sections in the same list.
 */
const SECTIONS = [{ id: "changes", label: "Owner changes" }] as const;

/** Problems the row's dialog does not show (the reason's own message is shown in it). */
function otherErrors(fieldErrors: Record<string, string[]>): string | undefined {
  const messages = Object.entries(fieldErrors)
    .filter(([name]) => name !== "reason")
    .flatMap(([, list]) => list);
  return messages.length > 0 ? messages.join(" ") : undefined;
}

export default function WorkQueue({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageSize, sort, dir } = loaderData;
  const form = useFormState();
  const counts: Record<(typeof SECTIONS)[number]["id"], number> = { changes: total };
  return (
    <>
      <PageHeader title="Work queue" description="What waits for an administrator, oldest first." />
      <nav aria-label="Work queue sections" className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex gap-4 overflow-x-auto">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <Link
                to="/admin/manage"
                aria-current="page"
                className="inline-flex items-center gap-2 border-b-2 border-brand-600 px-1 pb-2 text-sm font-semibold text-brand-700"
              >
                {section.label}
                <Badge tone={counts[section.id] > 0 ? "warning" : "neutral"}>{counts[section.id]}</Badge>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="changes-h" className="mt-6">
        <h2 id="changes-h" className="text-lg font-semibold text-slate-900">
          Owners’ changes to review
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          New names, addresses and map positions wait here until approved; the facility page shows the published values
          meanwhile. The owner is emailed either way.
        </p>
        <FormError className="mt-4" message={form.formError ?? otherErrors(form.fieldErrors)} />
        <DataTable
          className="mt-4"
          caption="Owners’ changes waiting for review"
          columns={COLUMNS}
          rows={rows}
          rowKey={(row) => row.locationId}
          total={total}
          page={page}
          pageSize={pageSize}
          sort={sort}
          dir={dir}
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
    </>
  );
}
