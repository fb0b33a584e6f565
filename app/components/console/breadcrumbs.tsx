import ChevronRight from "lucide-react/icons/chevron-right";
import { Link, useMatches } from "react-router";
import { breadcrumbsOf } from "./handle";

/** The trail of the current console page, from the routes' `handle.breadcrumb`. */
export function Breadcrumbs() {
  const crumbs = breadcrumbsOf(useMatches());
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1">
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={`${crumb.to}-${i}`} className="flex items-center gap-1">
              {i > 0 && <ChevronRight aria-hidden className="size-4 text-slate-400" />}
              {last ? (
                <span aria-current="page" className="font-medium text-slate-900">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} className="rounded-sm hover:text-brand-700 hover:underline">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
