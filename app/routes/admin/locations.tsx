import Download from "lucide-react/icons/download";
import MapPin from "lucide-react/icons/map-pin";
import Upload from "lucide-react/icons/upload";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { Button, buttonClasses } from "../../components/ui/button";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { ConfirmDialog } from "../../components/ui/dialog";
import { EmptyState } from "../../components/ui/empty-state";
import { FormError } from "../../components/ui/field";
import { FilterSelect } from "../../components/ui/filter-select";
import { FilterSearch } from "../../components/ui/filter-search";
import { Select } from "../../components/ui/select";
import { BULK_ACTION_LABELS } from "../../../domain/catalogue";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { catalogueAction, cataloguePageData } from "../../../server/catalogue/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/locations";
import { formatDate, formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Locations", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Locations" };

export async function loader({ request }: Route.LoaderArgs) {
  return cataloguePageData(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return catalogueAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];
type BulkAction = keyof typeof BULK_ACTION_LABELS;

const BULK_FORM = "catalogue-bulk";
const NONE: ReadonlySet<string> = new Set();
const editHref = (id: string) => `/admin/manage/${encodeURIComponent(id)}`;

const YES_NO_FILTERS = [
  { name: "owned", label: "Owner", yes: "Owned", no: "No owner" },
  { name: "demo", label: "Demo data", yes: "Demo only", no: "Real only" },
  { name: "photos", label: "Photos", yes: "Has photos", no: "No photos" },
  { name: "problems", label: "Data problems", yes: "Has problems", no: "No problems" },
] as const;

const VISIBILITY_LABELS = {
  active: "Listed and hidden",
  listed: "Listed",
  hidden: "Hidden",
  deleted: "Deleted",
  all: "All, deleted too",
} as const;

function Status({ row }: { row: Row }) {
  if (row.deleted) return <Badge tone="danger">Deleted</Badge>;
  if (row.hidden) return <Badge tone="warning">Hidden</Badge>;
  return <Badge tone="success">Listed</Badge>;
}

/** What the confirmation says an action will do, counted. */
function consequence(action: BulkAction, n: number, tier: string): string {
  const them = n === 1 ? "it" : "them";
  switch (action) {
    case "hide":
      return `Visitors will no longer find ${them} in search, the sitemap or ${n === 1 ? "its page" : "their pages"}. Owners keep ${them} in their console. You can show ${them} again.`;
    case "show":
      return `${n === 1 ? "It" : "They"} will be back in search and on ${n === 1 ? "its page" : "their pages"} within a second.`;
    case "delete":
      return `${n === 1 ? "Its page" : "Their pages"} will answer “removed”, and owners lose ${them} from their console. You can restore ${them} from the “Deleted” filter.`;
    case "restore":
      return `${n === 1 ? "It comes" : "They come"} back as ${n === 1 ? "it was" : "they were"} before the delete.`;
    case "tier":
      return `${n === 1 ? "Its" : "Their"} tier becomes ${tier}, which places ${them} in search accordingly. A promotion ending later sets the tier again.`;
  }
}

export default function AdminLocations({ loaderData }: Route.ComponentProps) {
  const { filters, rows, total, states, tiers, exportQuery } = loaderData;
  const form = useFormState();
  const navigation = useNavigation();
  const [bulkAction, setBulkAction] = useState<BulkAction>("hide");
  const [tier, setTier] = useState<string>("Free");
  // A new page of rows (filter, sort, page, or the action's own redirect) starts with nothing ticked:
  // the selection belongs to the rows it was made on.
  const rowKey = rows.map((r) => r.placeId).join("|");
  const [selection, setSelection] = useState<{ rows: string; ids: Set<string> }>({ rows: rowKey, ids: new Set() });
  const selected = selection.rows === rowKey ? selection.ids : NONE;
  const setSelected = (ids: Set<string>) => setSelection({ rows: rowKey, ids });

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.placeId));
  const count = selected.size;
  const exportHref = (format: string) =>
    `/admin/locations/export?${new URLSearchParams([...new URLSearchParams(exportQuery), ["format", format]])}`;

  const columns: Column<Row>[] = [
    {
      key: "select",
      header: (
        <input
          type="checkbox"
          aria-label="Select every listing on this page"
          className="size-4 accent-brand-500"
          checked={allOnPage}
          onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.placeId)) : new Set())}
        />
      ),
      label: "Select",
      cell: (row) => (
        <input
          type="checkbox"
          name="ids"
          value={row.placeId}
          form={BULK_FORM}
          aria-label={`Select ${row.name}`}
          className="size-4 accent-brand-500"
          checked={selected.has(row.placeId)}
          onChange={(e) => toggle(row.placeId, e.target.checked)}
        />
      ),
    },
    {
      key: "name",
      header: "Listing",
      sortable: true,
      cell: (row) => (
        <span className="min-w-0 text-right md:text-left">
          <Link to={editHref(row.placeId)} className="font-medium text-brand-700 hover:underline">
            {row.name}
          </Link>
          <span className="block text-xs break-all text-slate-600">{row.placeId}</span>
        </span>
      ),
    },
    {
      key: "place",
      header: "Place",
      sortable: true,
      cell: (row) => [row.city, row.state].filter(Boolean).join(", ") || <span className="text-slate-500">None</span>,
    },
    { key: "tier", header: "Tier", sortable: true, cell: (row) => row.tier },
    {
      key: "owner",
      header: "Owner",
      cell: (row) =>
        row.ownerEmail ? (
          <span className="[overflow-wrap:anywhere]">{row.ownerEmail}</span>
        ) : (
          <span className="text-slate-500">None</span>
        ),
    },
    {
      key: "status",
      header: "Status",
      cell: (row) => (
        <span className="flex flex-wrap gap-1">
          <Status row={row} />
          {row.isDemo && <Badge tone="neutral">Demo</Badge>}
          <span className="text-xs text-slate-600">
            {row.imageCount} photo{row.imageCount === 1 ? "" : "s"}
          </span>
        </span>
      ),
    },
    {
      key: "updated",
      header: "Updated",
      sortable: true,
      firstDir: "desc",
      cell: (row) => formatDate(row.updatedAt),
    },
  ];

  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk";
  const hasFilter = exportQuery !== "";
  return (
    <>
      <PageHeader
        title="Locations"
        description={`${formatNumber(total)} listing${total === 1 ? "" : "s"}${hasFilter ? " match these filters" : ""}`}
        actions={
          <>
            <Link to="/admin/locations/import" className={buttonClasses("secondary", "sm")}>
              <Upload className="size-4" aria-hidden="true" /> Import
            </Link>
            <a href={exportHref("csv")} className={buttonClasses("secondary", "sm")} download>
              <Download className="size-4" aria-hidden="true" /> Export CSV
            </a>
            <a href={exportHref("geojson")} className={buttonClasses("secondary", "sm")} download>
              <Download className="size-4" aria-hidden="true" /> Export GeoJSON
            </a>
          </>
        }
      />

      <Form method="get" role="search" aria-label="Filter listings" className="mt-6 space-y-3">
        <div className="flex flex-wrap items-end gap-2">
          <FilterSearch
            id="catalogue-q"
            value={filters.q}
            placeholder="Name, address, city or id"
            clearTo={hasFilter ? "/admin/locations" : undefined}
          />
        </div>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 xl:grid-cols-7">
          <FilterSelect id="catalogue-state" name="state" label="State" value={filters.state ?? ""}>
            <option value="">Any state</option>
            {states.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="catalogue-tier" name="tier" label="Tier" value={filters.tier ?? ""}>
            <option value="">Any tier</option>
            {tiers.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </FilterSelect>
          {YES_NO_FILTERS.map((f) => (
            <FilterSelect
              key={f.name}
              id={`catalogue-${f.name}`}
              name={f.name}
              label={f.label}
              value={filters[f.name] ?? ""}
            >
              <option value="">Any</option>
              <option value="yes">{f.yes}</option>
              <option value="no">{f.no}</option>
            </FilterSelect>
          ))}
          <FilterSelect id="catalogue-visibility" name="visibility" label="Visibility" value={filters.visibility}>
            {Object.entries(VISIBILITY_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </FilterSelect>
        </div>
      </Form>

      <Form
        id={BULK_FORM}
        method="post"
        className="mt-4 flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
        aria-label="Bulk actions"
      >
        <input type="hidden" name="intent" value="bulk" />
        <p className="w-full text-sm text-slate-700 sm:w-auto sm:self-center" aria-live="polite">
          {count === 0 ? "Tick listings to act on them." : `${count} selected`}
        </p>
        <div>
          <label htmlFor="bulk-action" className="block text-sm font-medium text-slate-700">
            Action
          </label>
          <Select
            id="bulk-action"
            name="action"
            value={bulkAction}
            onChange={(e) => setBulkAction(e.target.value as BulkAction)}
            className="mt-1"
          >
            {Object.entries(BULK_ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        {bulkAction === "tier" && (
          <div>
            <label htmlFor="bulk-tier" className="block text-sm font-medium text-slate-700">
              Tier
            </label>
            <Select id="bulk-tier" name="tier" value={tier} onChange={(e) => setTier(e.target.value)} className="mt-1">
              {tiers.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Select>
          </div>
        )}
        <ConfirmDialog
          trigger={
            <Button
              type="button"
              variant={bulkAction === "delete" ? "danger" : "primary"}
              disabled={count === 0}
              pending={busy}
            >
              {BULK_ACTION_LABELS[bulkAction]}
              {count > 0 ? ` (${count})` : ""}
            </Button>
          }
          title={`${BULK_ACTION_LABELS[bulkAction]} ${count} listing${count === 1 ? "" : "s"}?`}
          text={consequence(bulkAction, count, tier)}
          confirmLabel={`${BULK_ACTION_LABELS[bulkAction]} ${count} listing${count === 1 ? "" : "s"}`}
          tone={bulkAction === "delete" ? "danger" : "primary"}
          form={BULK_FORM}
        />
        <noscript>
          <Button type="submit">Apply to the ticked listings</Button>
        </noscript>
        <FormError message={form.formError} className="w-full" />
      </Form>

      <ListTable
        caption="Listings"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.placeId}
        paging={loaderData}
        empty={
          <EmptyState
            icon={<MapPin />}
            title={hasFilter ? "No listings match these filters" : "The catalogue is empty"}
            text={hasFilter ? "Try another search or clear the filters." : "Import a file to add listings."}
          />
        }
      />
    </>
  );
}
