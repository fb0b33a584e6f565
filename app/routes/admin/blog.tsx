import FilePlus2 from "lucide-react/icons/file-plus-corner";
import Newspaper from "lucide-react/icons/newspaper";
import RotateCcw from "lucide-react/icons/rotate-ccw";
import Trash2 from "lucide-react/icons/trash";
import { Form, Link, useLocation } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { Button, buttonClasses } from "../../components/ui/button";
import { ListTable } from "../../components/console/list-table";
import type { Column } from "../../components/ui/data-table";
import { ConfirmDialog } from "../../components/ui/dialog";
import { EmptyState } from "../../components/ui/empty-state";
import { FilterSearch } from "../../components/ui/filter-search";
import { FilterSelect } from "../../components/ui/filter-select";
import { ARTICLE_STATUS_LABELS, articleEditPath, articlePath, type ArticleStatus } from "../../../domain/articles";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { adminBlogAction, adminBlogPage } from "../../../server/blog/admin-pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/blog";
import { formatDateTime, formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Articles", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Blog" };

export async function loader({ request }: Route.LoaderArgs) {
  return adminBlogPage(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return adminBlogAction(request, context.get(viewerContext), context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];
const TONE: Record<ArticleStatus, "neutral" | "warning" | "success"> = {
  draft: "neutral",
  scheduled: "warning",
  published: "success",
};

function RowActions({ row }: { row: Row }) {
  const { pathname, search } = useLocation();
  const formId = `article-${row.id}`;
  return (
    <Form method="post" id={formId} className="flex flex-wrap justify-end gap-1">
      <input type="hidden" name="id" value={row.id} />
      <input type="hidden" name="back" value={`${pathname}${search}`} />
      {row.deleted ? (
        <Button type="submit" name="intent" value="restore" size="sm" variant="secondary">
          <RotateCcw className="size-4" aria-hidden="true" /> Restore
        </Button>
      ) : (
        <>
          {row.status === "published" && (
            <Link to={articlePath(row.slug)} className={buttonClasses("ghost", "sm")}>
              View<span className="sr-only"> {row.title}</span>
            </Link>
          )}
          <ConfirmDialog
            trigger={
              <Button type="button" size="sm" variant="ghost" aria-label={`Delete ${row.title}`}>
                <Trash2 className="size-4" aria-hidden="true" /> Delete
              </Button>
            }
            title={`Delete “${row.title}”?`}
            text={
              row.status === "draft"
                ? "The draft moves to Deleted, where you can restore it."
                : "Its page stops answering at once and it leaves the list, the feed and the sitemap. You can restore it from Deleted."
            }
            confirmLabel="Delete article"
            tone="danger"
            form={formId}
            name="intent"
            value="delete"
          />
        </>
      )}
    </Form>
  );
}

const COLUMNS: Column<Row>[] = [
  {
    key: "title",
    header: "Article",
    sortable: true,
    cell: (row) => (
      <span className="min-w-0 text-right md:text-left">
        <Link
          to={articleEditPath(row.id)}
          className="font-medium [overflow-wrap:anywhere] text-brand-700 hover:underline"
        >
          {row.title}
        </Link>
        <span className="block text-xs [overflow-wrap:anywhere] text-slate-600">/blog/{row.slug}</span>
      </span>
    ),
  },
  {
    key: "status",
    header: "Status",
    sortable: true,
    cell: (row) => (
      <span className="flex flex-wrap gap-1">
        {row.deleted ? (
          <Badge tone="danger">Deleted</Badge>
        ) : (
          <Badge tone={TONE[row.status]}>{ARTICLE_STATUS_LABELS[row.status]}</Badge>
        )}
        {row.isDemo && <Badge tone="neutral">Demo</Badge>}
      </span>
    ),
  },
  {
    key: "published",
    header: "Publication",
    sortable: true,
    firstDir: "desc",
    cell: (row) =>
      row.publishedAt ? `${formatDateTime(row.publishedAt)} UTC` : <span className="text-slate-500">Not set</span>,
  },
  {
    key: "updated",
    header: "Last saved",
    sortable: true,
    firstDir: "desc",
    cell: (row) => (
      <span>
        {formatDateTime(row.updatedAt)} UTC
        {row.savedByName && <span className="block text-xs text-slate-600">by {row.savedByName}</span>}
      </span>
    ),
  },
  { key: "actions", header: <span className="sr-only">Actions</span>, cell: (row) => <RowActions row={row} /> },
];

/** Every article with its status (docs/product.md section 13, "Editor"). */
export default function AdminBlog({ loaderData }: Route.ComponentProps) {
  const { rows, total, q, status } = loaderData;
  const hasFilter = q !== "" || status !== "all";
  return (
    <>
      <PageHeader
        title="Articles"
        description={`${formatNumber(total)} article${total === 1 ? "" : "s"}${hasFilter ? " match these filters" : ""}`}
        actions={
          <Link to="/admin/blog/new" className={buttonClasses("primary")}>
            <FilePlus2 className="size-4" aria-hidden="true" /> New article
          </Link>
        }
      />
      <Form method="get" role="search" aria-label="Filter articles" className="mt-6 flex flex-wrap items-end gap-2">
        <FilterSelect id="blog-status" name="status" label="Status" value={status}>
          <option value="all">Any status</option>
          <option value="draft">Drafts</option>
          <option value="scheduled">Scheduled</option>
          <option value="published">Published</option>
          <option value="deleted">Deleted</option>
        </FilterSelect>
        <FilterSearch
          id="blog-q"
          value={q}
          placeholder="Title, address or tag"
          clearTo={hasFilter ? "/admin/blog" : undefined}
        />
      </Form>
      <ListTable
        caption="Articles"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.id}
        paging={loaderData}
        empty={
          <EmptyState
            icon={<Newspaper />}
            title={hasFilter ? "No articles match these filters" : "No articles yet"}
            text={hasFilter ? "Try another search or clear the filters." : "Write the first one: it starts as a draft."}
          />
        }
      />
    </>
  );
}
