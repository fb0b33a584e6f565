import Search from "lucide-react/icons/search";
import X from "lucide-react/icons/x";
import { useId, useState, type FormEvent } from "react";
import { Form } from "react-router";
import { MAX_TEXT_FILTER_LENGTH } from "../../../domain/input-limits";

/**
 * The results page's text filter (`q`, docs/product.md section 5): keeps the results whose name,
 * address or state contain the text, case-insensitively. Applied on Enter or the button, kept in
 * the URL like the other filters. Without JavaScript it is a GET form that carries the other
 * filters along as hidden fields.
 */
export function TextFilter({
  applied,
  action,
  keep,
  onApply,
}: {
  applied: string | undefined;
  /** The results page's path, for the form without JavaScript. */
  action: string;
  /** The other parameters of the page (place point, sizes, amenities, sort), kept on submit. */
  keep: URLSearchParams;
  onApply(q: string | undefined): void;
}) {
  const id = useId();
  const [text, setText] = useState(applied ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q === (applied ?? "")) return;
    onApply(q || undefined);
  };
  return (
    <Form
      method="get"
      action={action}
      onSubmit={submit}
      role="search"
      aria-label="Filter results"
      className="flex min-w-0"
    >
      {[...keep].map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id} className="sr-only">
        Filter by name or address
      </label>
      <div className="relative min-w-0 flex-1">
        <input
          id={id}
          name="q"
          type="text"
          enterKeyHint="search"
          value={text}
          maxLength={MAX_TEXT_FILTER_LENGTH}
          placeholder="Filter by name or address"
          onChange={(e) => setText(e.target.value)}
          className="h-10 w-full min-w-0 rounded-l-md border border-slate-300 bg-white pl-3 pr-10 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-500 sm:w-64"
        />
        {applied && (
          <button
            type="button"
            onClick={() => {
              setText("");
              onApply(undefined);
            }}
            className="absolute inset-y-0 right-0 inline-flex w-10 items-center justify-center rounded-md text-slate-500 hover:text-slate-800"
            aria-label="Clear the name filter"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        )}
      </div>
      <button
        type="submit"
        className="-ml-px inline-flex h-10 shrink-0 items-center gap-1.5 rounded-r-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        <Search className="size-4" aria-hidden="true" />
        Filter
      </button>
    </Form>
  );
}
