import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table";
import { EmptyState } from "./empty-state";

interface Row {
  id: string;
  name: string;
  city: string;
}

const columns: Column<Row>[] = [
  { key: "name", header: "Name", sortable: true, cell: (r) => r.name },
  { key: "city", header: "City", sortable: true, cell: (r) => r.city },
  { key: "id", header: "Id", cell: (r) => r.id },
];
const rows: Row[] = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, name: `Row ${i}`, city: "Austin" }));

function render(url: string, props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return renderToString(
    <MemoryRouter initialEntries={[url]}>
      <DataTable
        caption="Listings"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        total={134}
        page={2}
        pageSize={20}
        sort="name"
        dir="asc"
        {...props}
      />
    </MemoryRouter>,
  ).replaceAll("&amp;", "&");
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe("DataTable", () => {
  it("marks the sorted column with aria-sort and no other", () => {
    const html = render("/owner/listings?q=lake&sort=name&dir=asc&page=2");
    const headers = [...html.matchAll(/<th[\s>][^>]*>/g)].map((m) => m[0]);
    expect(headers).toHaveLength(3);
    expect(headers[0]).toContain('aria-sort="ascending"');
    expect(headers[1]).not.toContain("aria-sort");
    expect(headers[2]).not.toContain("aria-sort");
    expect(render("/x", { dir: "desc" })).toContain('aria-sort="descending"');
  });

  it("sort links keep the other parameters, flip the active column and reset the page", () => {
    const links = hrefs(render("/owner/listings?q=lake&sort=name&dir=asc&page=2"));
    expect(links).toContain("/owner/listings?q=lake&sort=name&dir=desc");
    expect(links).toContain("/owner/listings?q=lake&sort=city&dir=asc");
  });

  it("pages with previous and next links that keep every other parameter", () => {
    const html = render("/owner/listings?q=lake&sort=name&dir=asc&page=2");
    expect(html).toContain("Showing 21–40 of 134");
    expect(html).toMatch(/rel="prev"[^>]*href="\/owner\/listings\?q=lake&sort=name&dir=asc"/);
    expect(html).toMatch(/rel="next"[^>]*href="\/owner\/listings\?q=lake&sort=name&dir=asc&page=3"/);
  });

  it("disables previous on the first page and next on the last", () => {
    const first = render("/l", { page: 1 });
    expect(first).toMatch(/<span aria-disabled="true"[^>]*>.*Previous/);
    expect(first).toContain('rel="next"');
    const last = render("/l?page=7", { page: 7, rows: rows.slice(0, 14) });
    expect(last).toContain("Showing 121–134 of 134");
    expect(last).toMatch(/<span aria-disabled="true"[^>]*>Next/);
    expect(last).toContain('rel="prev"');
  });

  it("shows the empty state instead of a table when there are no rows", () => {
    const html = render("/l", { rows: [], total: 0, page: 1, empty: <EmptyState title="No listings yet" /> });
    expect(html).toContain("No listings yet");
    expect(html).not.toContain("<table");
  });

  it("labels each cell for the phone layout, where rows are cards", () => {
    expect(render("/l")).toContain('data-label="City"');
  });
});
