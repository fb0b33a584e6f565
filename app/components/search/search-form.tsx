import { Search } from "lucide-react";
import { Form } from "react-router";

/** The address search box. Submits to /rv-storage, which resolves the text to a place. */
export function SearchForm({ defaultValue = "", large = false }: { defaultValue?: string; large?: boolean }) {
  return (
    <Form method="get" action="/rv-storage" role="search" className="flex w-full gap-2">
      <label htmlFor="search-q" className="sr-only">
        City, state, ZIP code or coordinates
      </label>
      <input
        id="search-q"
        name="q"
        type="search"
        required
        minLength={2}
        defaultValue={defaultValue}
        autoComplete="off"
        placeholder="City, state or ZIP (e.g. Austin, TX)"
        className={`w-full min-w-0 rounded-md border border-slate-300 bg-white px-4 text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 ${
          large ? "h-14 text-lg" : "h-11"
        }`}
      />
      <button
        type="submit"
        className={`inline-flex shrink-0 items-center gap-2 rounded-md bg-brand-500 px-5 font-semibold text-white hover:bg-brand-600 ${
          large ? "h-14 text-lg" : "h-11"
        }`}
      >
        <Search className="size-5" aria-hidden="true" />
        <span>Search</span>
      </button>
    </Form>
  );
}
