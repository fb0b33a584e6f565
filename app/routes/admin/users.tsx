import Users from "lucide-react/icons/users";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { EmptyState } from "../../components/ui/empty-state";
import { FilterSelect } from "../../components/ui/filter-select";
import { FilterSearch } from "../../components/ui/filter-search";
import { privatePageMeta } from "../../lib/meta";
import { ROLE_LABELS, roleLabel } from "../../../domain/users";
import { adminUsersPage } from "../../../server/users/pages";
import type { Route } from "./+types/users";
import { formatDate, formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Users", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Users" };

export async function loader({ request }: Route.LoaderArgs) {
  return adminUsersPage(request);
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];
const userHref = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

const COLUMNS: Column<Row>[] = [
  {
    key: "email",
    header: "Account",
    sortable: true,
    cell: (row) => (
      <span className="min-w-0 text-right md:text-left">
        <Link to={userHref(row.id)} className="font-medium [overflow-wrap:anywhere] text-brand-700 hover:underline">
          {row.email}
        </Link>
        {row.name && row.name !== row.email && <span className="block text-xs text-slate-600">{row.name}</span>}
      </span>
    ),
  },
  {
    key: "role",
    header: "Role",
    cell: (row) => (
      <span className="flex flex-wrap gap-1">
        <Badge tone={row.role === "admin" ? "brand" : "neutral"}>{roleLabel(row.role)}</Badge>
        {row.banned && <Badge tone="danger">Banned</Badge>}
        {!row.emailVerified && <Badge tone="warning">Unconfirmed</Badge>}
      </span>
    ),
  },
  { key: "listings", header: "Listings", align: "right", cell: (row) => row.listingCount },
  {
    key: "created",
    header: "Joined",
    sortable: true,
    firstDir: "desc",
    cell: (row) => formatDate(row.createdAt),
  },
  {
    key: "lastLogin",
    header: "Last sign-in",
    sortable: true,
    firstDir: "desc",
    cell: (row) => (row.lastLoginAt ? formatDate(row.lastLoginAt) : <span className="text-slate-500">Never</span>),
  },
];

const YES_NO = [
  { name: "verified", label: "Email", yes: "Confirmed", no: "Not confirmed" },
  { name: "banned", label: "Banned", yes: "Banned", no: "Not banned" },
  { name: "listings", label: "Listings", yes: "Owns listings", no: "Owns none" },
] as const;

/** Every account (docs/product.md section 12, "Accounts"), searchable and filtered in the URL. */
export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { rows, total, q, filters } = loaderData;
  const hasFilter = q !== "" || Object.values(filters).some((v) => v !== "all");
  return (
    <>
      <PageHeader
        title="Users"
        description={`${formatNumber(total)} account${total === 1 ? "" : "s"}${hasFilter ? " match these filters" : ""}`}
      />
      <Form method="get" role="search" aria-label="Filter accounts" className="mt-6 space-y-3">
        <div className="flex flex-wrap items-end gap-2">
          <FilterSearch
            id="users-q"
            value={q}
            placeholder="Email, name or account id"
            clearTo={hasFilter ? "/admin/users" : undefined}
          />
        </div>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <FilterSelect id="users-role" name="role" label="Role" value={filters.role}>
            <option value="all">Any role</option>
            {Object.entries(ROLE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </FilterSelect>
          {YES_NO.map((f) => (
            <FilterSelect key={f.name} id={`users-${f.name}`} name={f.name} label={f.label} value={filters[f.name]}>
              <option value="all">Any</option>
              <option value="yes">{f.yes}</option>
              <option value="no">{f.no}</option>
            </FilterSelect>
          ))}
        </div>
      </Form>
      <ListTable
        caption="Accounts"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.id}
        paging={loaderData}
        empty={
          <EmptyState
            icon={<Users />}
            title={q ? `No accounts match “${q}”` : "No accounts match these filters"}
            text="Try another search or clear the filters."
          />
        }
      />
    </>
  );
}
