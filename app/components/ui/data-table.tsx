import ArrowDown from "lucide-react/icons/arrow-down";
import ArrowUp from "lucide-react/icons/arrow-up";
import ChevronLeft from "lucide-react/icons/chevron-left";
import ChevronRight from "lucide-react/icons/chevron-right";
import ChevronsUpDown from "lucide-react/icons/chevrons-up-down";
import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { cn } from "../../lib/cn";
import { pageCountOf, pageHref, rangeText, sortHref, type SortDirection } from "../../../domain/table-params";

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** The cell's label on a phone, where each row is a card; defaults to `header` when it is text. */
  label?: string;
  sortable?: boolean;
  /** The direction a first click on this column sorts by (dates usually start with the newest). */
  firstDir?: SortDirection;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  className?: string;
}

export interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  total: number;
  page: number;
  pageSize: number;
  sort: string;
  dir: SortDirection;
  /** Names the table for screen readers (visually hidden). */
  caption: string;
  /** Shown instead of the table when there are no rows, e.g. an `<EmptyState>`. */
  empty?: ReactNode;
  className?: string;
}

const ariaSort = (dir: SortDirection) => (dir === "asc" ? "ascending" : "descending");

/**
 * A list sorted and paged by the server. Sort headers and pager are links that change only
 * `sort`, `dir` and `page` in the current URL, so filters survive and everything works without
 * JavaScript. Below `md` each row becomes a card of label/value lines (a sideways-scrolling table
 * hides most columns at 390 px); the sortable columns are offered as links above the cards.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  total,
  page,
  pageSize,
  sort,
  dir,
  caption,
  empty,
  className,
}: DataTableProps<Row>) {
  const [params] = useSearchParams();
  if (rows.length === 0 && empty) return <>{empty}</>;
  const active = { sort, dir };
  const sortable = columns.filter((c) => c.sortable);
  return (
    <div className={className}>
      {sortable.length > 0 && (
        <nav aria-label="Sort" className="mb-3 flex flex-wrap items-center gap-2 text-sm md:hidden">
          <span className="text-slate-600">Sort by</span>
          {sortable.map((column) => (
            <Link
              key={column.key}
              to={sortHref(params, column.key, active, column.firstDir)}
              aria-current={column.key === sort ? "true" : undefined}
              className={cn(
                "inline-flex items-center gap-1 rounded-md border px-2 py-1",
                column.key === sort ? "border-brand-500 text-brand-700" : "border-slate-300 text-slate-700",
              )}
            >
              {labelOf(column)}
              {column.key === sort && <SortIcon dir={dir} />}
            </Link>
          ))}
        </nav>
      )}
      <div className="md:overflow-x-auto md:rounded-lg md:border md:border-slate-200">
        {/* Explicit roles: with display:block on phones some browsers drop a table's semantics. */}
        <table role="table" className="block w-full text-left text-sm md:table">
          <caption className="sr-only">{caption}</caption>
          <thead role="rowgroup" className="sr-only md:not-sr-only md:table-header-group md:bg-slate-50">
            <tr role="row">
              {columns.map((column) => (
                <th
                  key={column.key}
                  role="columnheader"
                  scope="col"
                  aria-sort={column.sortable && column.key === sort ? ariaSort(dir) : undefined}
                  className={cn(
                    "border-b border-slate-200 px-4 py-3 font-semibold whitespace-nowrap text-slate-700",
                    column.align === "right" && "text-right",
                  )}
                >
                  {column.sortable ? (
                    <Link
                      to={sortHref(params, column.key, active, column.firstDir)}
                      className="inline-flex items-center gap-1 rounded-sm hover:text-brand-700"
                    >
                      {column.header}
                      {column.key === sort ? (
                        <SortIcon dir={dir} />
                      ) : (
                        <ChevronsUpDown aria-hidden="true" className="size-4 text-slate-400" />
                      )}
                    </Link>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className="block space-y-3 md:table-row-group md:space-y-0">
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                role="row"
                className="block rounded-lg border border-slate-200 bg-white p-3 md:table-row md:rounded-none md:border-0 md:border-b md:p-0 md:last:border-b-0 md:hover:bg-slate-50"
              >
                {columns.map((column) => (
                  <td
                    key={column.key}
                    role="cell"
                    data-label={labelOf(column)}
                    className={cn(
                      "flex justify-between gap-4 py-1 text-slate-800 md:table-cell md:px-4 md:py-3",
                      "before:shrink-0 before:font-medium before:text-slate-500 before:content-[attr(data-label)] md:before:content-none",
                      column.align === "right" ? "text-right" : "md:text-left",
                      column.className,
                    )}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pageSize={pageSize} total={total} params={params} />
    </div>
  );
}

function labelOf<Row>(column: Column<Row>): string {
  return column.label ?? (typeof column.header === "string" ? column.header : column.key);
}

function SortIcon({ dir }: { dir: SortDirection }) {
  const Icon = dir === "asc" ? ArrowUp : ArrowDown;
  return <Icon aria-hidden="true" className="size-4" />;
}

const pagerLink =
  "inline-flex h-10 items-center gap-1 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50";
const pagerOff =
  "inline-flex h-10 items-center gap-1 rounded-md border border-slate-200 px-3 text-sm font-medium text-slate-400";

function Pager({
  page,
  pageSize,
  total,
  params,
}: {
  page: number;
  pageSize: number;
  total: number;
  params: URLSearchParams;
}) {
  const pages = pageCountOf(total, pageSize);
  const previous = (
    <>
      <ChevronLeft aria-hidden="true" className="size-4" /> Previous
    </>
  );
  const next = (
    <>
      Next <ChevronRight aria-hidden="true" className="size-4" />
    </>
  );
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">{rangeText(page, pageSize, total)}</p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={pageHref(params, Math.min(page - 1, pages))} rel="prev" className={pagerLink}>
            {previous}
          </Link>
        ) : (
          <span aria-disabled="true" className={pagerOff}>
            {previous}
          </span>
        )}
        {page < pages ? (
          <Link to={pageHref(params, page + 1)} rel="next" className={pagerLink}>
            {next}
          </Link>
        ) : (
          <span aria-disabled="true" className={pagerOff}>
            {next}
          </span>
        )}
      </div>
    </nav>
  );
}
