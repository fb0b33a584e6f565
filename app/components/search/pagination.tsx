import ChevronLeft from "lucide-react/icons/chevron-left";
import ChevronRight from "lucide-react/icons/chevron-right";
import { Link } from "react-router";
import { pageWindow, showingText } from "../../lib/pagination";

/** Previous / Next and at most 5 page links, as real links so crawlers and no-JS visitors can page. */
export function Pagination({
  page,
  pageCount,
  pageSize,
  total,
  hrefFor,
  noun,
  linkState,
}: {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  hrefFor(page: number): string;
  /** What is paged, plural: 'locations' by default. */
  noun?: string;
  /** Router state for the links (the results page moves focus to its heading after paging). */
  linkState?: unknown;
}) {
  if (total === 0) return null;
  const base = "inline-flex h-10 min-w-10 items-center justify-center gap-1 rounded-md border px-3 text-sm font-medium";
  const idle = `${base} border-slate-300 hover:bg-slate-50`;
  const disabled = `${base} border-slate-200 text-slate-400`;
  return (
    <nav aria-label="Pages" className="mt-8 flex flex-col items-center gap-3">
      <div className="flex flex-wrap items-center justify-center gap-1">
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} state={linkState} rel="prev" className={idle}>
            <ChevronLeft className="size-4" aria-hidden="true" /> Previous
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            <ChevronLeft className="size-4" aria-hidden="true" /> Previous
          </span>
        )}
        {pageWindow(page, pageCount).map((p) => (
          <Link
            key={p}
            to={hrefFor(p)}
            state={linkState}
            aria-current={p === page ? "page" : undefined}
            aria-label={`Page ${p}`}
            className={p === page ? `${base} border-brand-500 bg-brand-500 text-white` : idle}
          >
            {p}
          </Link>
        ))}
        {page < pageCount ? (
          <Link to={hrefFor(page + 1)} state={linkState} rel="next" className={idle}>
            Next <ChevronRight className="size-4" aria-hidden="true" />
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            Next <ChevronRight className="size-4" aria-hidden="true" />
          </span>
        )}
      </div>
      <p className="text-sm text-slate-600">{showingText(page, pageSize, total, noun)}</p>
    </nav>
  );
}
