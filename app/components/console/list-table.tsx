import { DataTable, type DataTableProps } from "../ui/data-table";

/** What a console list's loader returns beside its rows: the sort and page it read, and the total. */
export type ListPaging = Pick<DataTableProps<unknown>, "total" | "page" | "pageSize" | "sort" | "dir">;

/**
 * A console list under its filters: a DataTable that takes its sort and page from the loader's
 * answer (`paging`), spaced like every other admin list.
 */
export function ListTable<Row>({
  paging,
  className = "mt-4",
  ...table
}: Omit<DataTableProps<Row>, keyof ListPaging | "className"> & { paging: ListPaging; className?: string }) {
  return (
    <DataTable
      {...table}
      total={paging.total}
      page={paging.page}
      pageSize={paging.pageSize}
      sort={paging.sort}
      dir={paging.dir}
      className={className}
    />
  );
}
