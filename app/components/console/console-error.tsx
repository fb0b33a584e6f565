import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { describeError } from "../../lib/error-display";
import { buttonClasses } from "../ui/button";
import { PageHeader } from "./page-header";

/**
 * A console page's error inside the console frame (the guard's own refusals never get here: they
 * happen before any console data loads, so the root error page answers them).
 */
export function ConsoleError({ home }: { home: { to: string; label: string } }) {
  const error = useRouteError();
  const { status, title, text } = describeError(error);
  if (!isRouteErrorResponse(error) && import.meta.env.DEV) console.error(error);
  return (
    <section role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <p className="text-sm font-semibold text-brand-600">Error {status}</p>
      <div className="mt-1">
        <PageHeader title={title} description={text} />
      </div>
      <Link to={home.to} className={buttonClasses("primary", "md", "mt-6 py-2")}>
        {home.label}
      </Link>
    </section>
  );
}
