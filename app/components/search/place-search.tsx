import MapPin from "lucide-react/icons/map-pin";
import Search from "lucide-react/icons/search";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Form, useNavigate } from "react-router";
import { parseCoordinates } from "../../../domain/coordinates";
import { MAX_PLACE_QUERY_LENGTH, MAX_SUGGEST_QUERY_LENGTH } from "../../../domain/input-limits";
import { isSearchableText, MIN_SUGGEST_CHARS } from "../../lib/place-query";
import type { PlaceSuggestion } from "../../../domain/search";
import { buttonClasses } from "../ui/button";

type SuggestState =
  | { kind: "idle" }
  | { kind: "short" }
  | { kind: "long" }
  | { kind: "loading" }
  | { kind: "ready"; items: PlaceSuggestion[] }
  | { kind: "failed" };

/**
 * The address search box (US only, English): an ARIA 1.2 combobox with place suggestions after
 * more than 2 characters. Picking a suggestion opens its results page; typed coordinates search
 * near that point; other text of more than 4 characters is resolved by the server. Without
 * JavaScript it is a plain form that the server resolves the same way.
 */
export function PlaceSearch({
  defaultValue = "",
  size = "md",
  query,
  autoFocus = false,
  listPlacement = "overlay",
}: {
  defaultValue?: string;
  size?: "md" | "lg";
  /** Filters to carry over to the new place. */
  query?: URLSearchParams;
  autoFocus?: boolean;
  /**
   * "overlay": the suggestions open over what is below the box (the results bar, where the list
   * must not move the results). "inline": they take their room in the page and push what follows
   * down, so nothing under the box is hidden (the home hero, where 'Use my location' is).
   */
  listPlacement?: "overlay" | "inline";
}) {
  const id = useId();
  const listId = `${id}-list`;
  const navigate = useNavigate();
  const [text, setText] = useState(defaultValue);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The last answer from the suggest API, for the text it was asked about.
  const [fetched, setFetched] = useState<{ q: string; items?: PlaceSuggestion[]; failed?: boolean } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const q = text.trim();

  useEffect(() => {
    if (q.length < MIN_SUGGEST_CHARS || q.length > MAX_SUGGEST_QUERY_LENGTH) return;
    const controller = new AbortController();
    abort.current?.abort();
    abort.current = controller;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/api/places/suggest?q=${encodeURIComponent(q)}`, { signal: controller.signal });
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as { suggestions: PlaceSuggestion[] };
        setFetched({ q, items: body.suggestions });
        setActive(-1);
      } catch (error) {
        if ((error as Error).name !== "AbortError") setFetched({ q, failed: true });
      }
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  // While a new answer is on its way, the previous list stays up rather than flickering.
  const state: SuggestState = !q
    ? { kind: "idle" }
    : q.length < MIN_SUGGEST_CHARS
      ? { kind: "short" }
      : q.length > MAX_SUGGEST_QUERY_LENGTH
        ? { kind: "long" }
        : fetched?.failed && fetched.q === q
          ? { kind: "failed" }
          : fetched?.items
            ? { kind: "ready", items: fetched.items }
            : { kind: "loading" };

  const items = state.kind === "ready" ? state.items : [];

  // The option picked with the arrow keys stays in view, in the list and in the page.
  useEffect(() => {
    if (active < 0) return;
    list.current?.querySelector(`[id="${CSS.escape(`${id}-opt-${active}`)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);
  const withQuery = (path: string, extra?: Record<string, string>) => {
    const params = new URLSearchParams(query);
    params.delete("page");
    params.delete("lat");
    params.delete("lng");
    for (const [k, v] of Object.entries(extra ?? {})) params.set(k, v);
    const qs = params.toString();
    return qs ? `${path}?${qs}` : path;
  };

  const choose = (place: PlaceSuggestion) => {
    setText(place.label);
    setOpen(false);
    navigate(withQuery(`/rv-storage/${place.slug}`), { state: { city: place.city, state: place.stateName } });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    const picked = items[active] ?? (open ? items[0] : undefined);
    if (picked) return choose(picked);
    const point = parseCoordinates(q);
    if (point) {
      setOpen(false);
      return navigate(withQuery("/rv-storage", { lat: String(point.lat), lng: String(point.lng) }));
    }
    // docs/product.md section 5: a typed search of 4 characters or fewer is ignored.
    if (!isSearchableText(q)) return;
    setOpen(false);
    navigate(withQuery("/rv-storage", { where: q }));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && items.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % items.length);
    } else if (event.key === "ArrowUp" && items.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? items.length - 1 : i - 1));
    } else if (event.key === "Escape") {
      setOpen(false);
      setActive(-1);
    }
  };

  const showList = open && state.kind !== "idle";
  const height = size === "lg" ? "h-14 text-lg" : "h-11";
  return (
    <Form
      method="get"
      action="/rv-storage"
      role="search"
      aria-label="Find a place"
      onSubmit={submit}
      className="relative flex w-full items-start gap-2"
    >
      <div className="relative min-w-0 flex-1">
        <label htmlFor={`${id}-input`} className="sr-only">
          Search by city, state, ZIP code or coordinates
        </label>
        <input
          id={`${id}-input`}
          name="where"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? `${id}-opt-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          value={text}
          maxLength={MAX_PLACE_QUERY_LENGTH}
          // Short enough for the narrowest box (a 390 px phone's results bar); the label says more.
          placeholder="City, state or ZIP"
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          className={`w-full rounded-md border border-slate-300 bg-white px-4 text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-500 ${height}`}
        />
        <ul
          ref={list}
          id={listId}
          role="listbox"
          aria-label="Suggested places"
          hidden={!showList}
          // Tall enough for all 8 suggestions the API gives (docs/product.md section 5).
          className={`${listPlacement === "overlay" ? "absolute inset-x-0 top-full z-30" : "relative"} mt-1 max-h-[21rem] overflow-auto rounded-md border border-slate-200 bg-white py-1 text-left text-slate-900 shadow-lg`}
        >
          {state.kind === "short" && (
            <li className="px-4 py-2 text-sm text-slate-600">Type in 2 or more characters for results.</li>
          )}
          {state.kind === "long" && (
            <li className="px-4 py-2 text-sm text-slate-600">
              No suggestions for text this long; press Enter to search.
            </li>
          )}
          {state.kind === "loading" && <li className="px-4 py-2 text-sm text-slate-600">Searching…</li>}
          {state.kind === "failed" && (
            <li className="px-4 py-2 text-sm text-slate-600">Suggestions are unavailable; press Enter to search.</li>
          )}
          {state.kind === "ready" && items.length === 0 && (
            <li className="px-4 py-2 text-sm text-slate-600">No search results.</li>
          )}
          {items.map((item, i) => (
            <li
              key={`${item.slug}-${item.label}`}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(item)}
              onMouseEnter={() => setActive(i)}
              className={`flex cursor-pointer items-center gap-2 px-4 py-2 ${i === active ? "bg-brand-50 text-brand-700" : ""}`}
            >
              <MapPin className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              {item.label}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" className={buttonClasses("primary", "md", `shrink-0 px-5 py-0 font-semibold ${height}`)}>
        <Search className="size-5" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Search</span>
      </button>
    </Form>
  );
}
