import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../ui/button";

// The search box is loaded only when this page shows, so it adds nothing to every page's root
// bundle; the server renders it in full, and the browser hydrates it once its chunk arrives.
const PlaceSearch = lazy(() => import("../search/place-search").then((m) => ({ default: m.PlaceSearch })));

/**
 * The page for an address that leads nowhere (404) or cannot be read (400): what happened in
 * plain words, the place search box to carry on with what the visitor most likely came for, and
 * links home. The status stays the one the loader threw (the root error boundary renders this).
 */
export function LostPage({ title, text }: { title: string; text: string }) {
  return (
    <section aria-labelledby="lost-heading" className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <div className="text-center">
        <h1 id="lost-heading" className="text-3xl font-bold tracking-tight">
          {title}
        </h1>
        <p className="mt-4 text-slate-600">{text}</p>
      </div>
      <div className="mt-10 rounded-card border border-slate-200 bg-slate-50 p-4 sm:p-6">
        <h2 className="mb-3 text-lg font-semibold">Find RV storage near a place</h2>
        <Suspense fallback={<div className="h-11 rounded-md border border-slate-300 bg-white" />}>
          <PlaceSearch />
        </Suspense>
      </div>
      <nav aria-label="Ways on" className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
        <Link to="/" className={buttonClasses("primary", "md", "px-5")}>
          Go to Home
        </Link>
        <Link
          to="/#states-heading"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline underline-offset-2"
        >
          Browse by state
        </Link>
        <Link
          to="/blog"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline underline-offset-2"
        >
          Read our articles
        </Link>
      </nav>
    </section>
  );
}
