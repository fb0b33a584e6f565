import Inbox from "lucide-react/icons/inbox";
import { Form, Link } from "react-router";
import { ClaimStatusBadge } from "../../components/claims/claim-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { EmptyState } from "../../components/ui/empty-state";
import { FilterSearch } from "../../components/ui/filter-search";
import { Select } from "../../components/ui/select";
import { CLAIM_STATUS_LABELS } from "../../../domain/claims";
import { privatePageMeta } from "../../lib/meta";
import { adminClaims } from "../../../server/claims/pages";
import type { Route } from "./+types/claims";
import { formatDate } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Claims", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Claims" };

export async function loader({ request }: Route.LoaderArgs) {
  return adminClaims(request);
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const COLUMNS: Column<Row>[] = [
  {
    key: "listing",
    header: "Listing",
    sortable: true,
    cell: (row) => (
      <Link to={`/admin/claims/${row.id}`} className="font-medium text-brand-700 hover:underline">
        {row.listingName}
        <span className="block text-xs font-normal text-slate-600">
          {[row.listingCity, row.listingState].filter(Boolean).join(", ")}
        </span>
      </Link>
    ),
  },
  {
    key: "claimant",
    header: "Claimant",
    cell: (row) => (
      <span>
        {row.claimantName}
        <span className="block text-xs text-slate-600">{row.businessEmail}</span>
      </span>
    ),
  },
  {
    key: "status",
    header: "Status",
    sortable: true,
    cell: (row) => (
      <span className="flex flex-wrap gap-1">
        <ClaimStatusBadge status={row.status} />
        {row.isTransfer && <span className="text-xs text-slate-600">transfer</span>}
      </span>
    ),
  },
  {
    key: "created",
    header: "Filed",
    sortable: true,
    firstDir: "desc",
    cell: (row) => formatDate(row.createdAt),
  },
];

export default function AdminClaims({ loaderData }: Route.ComponentProps) {
  const { rows, status, q, counts, statuses } = loaderData;
  return (
    <>
      <PageHeader
        title="Claims"
        description={`${counts.pending ?? 0} pending · ${counts.approved ?? 0} approved · ${counts.rejected ?? 0} rejected`}
      />
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="claims-status" className="block text-sm font-medium text-slate-700">
            Status
          </label>
          <Select id="claims-status" name="status" defaultValue={status} className="mt-1">
            {statuses.map((s) => (
              <option key={s} value={s}>
                {CLAIM_STATUS_LABELS[s]}
                {counts[s] !== undefined ? ` (${counts[s]})` : ""}
              </option>
            ))}
            <option value="all">All</option>
          </Select>
        </div>
        <FilterSearch id="claims-q" value={q} placeholder="Listing, city, listing id, claimant or email" />
      </Form>
      <ListTable
        caption="Claims"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.id}
        paging={loaderData}
        empty={
          <EmptyState
            icon={<Inbox />}
            title={q ? `No claims match “${q}”` : status === "pending" ? "No claims waiting" : "No claims here"}
            text={
              status === "pending" && !q
                ? "New claims appear here as soon as they are filed."
                : "Try another status or search."
            }
          />
        }
      />
    </>
  );
}
