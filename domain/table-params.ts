/**
 * Sort and page of a server-sorted table, read from and written to the URL (`?sort=name&dir=asc
 * &page=3`), so every state of a console list can be linked, reloaded and used without
 * JavaScript. No zod here: the browser bundle builds the links too.
 */
export type SortDirection = "asc" | "desc";

/** A list filter's value when it is one of `allowed`, else `fallback` (`?status=`, `?view=`…). */
export function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

export interface TableParams<Key extends string> {
  sort: Key;
  dir: SortDirection;
  page: number;
}

export const MAX_TABLE_PAGE = 10_000;

export interface TableParamOptions<Key extends string> {
  /** The columns a visitor may sort by; anything else in `sort` falls back to `defaultSort`. */
  sortable: readonly Key[];
  defaultSort: NoInfer<Key>;
  defaultDir?: SortDirection;
}

/** The last value of a repeated parameter, as the search page reads its own. */
function last(params: URLSearchParams, key: string): string | undefined {
  const all = params.getAll(key);
  return all[all.length - 1];
}

/**
 * Never throws: a hand-edited URL gets the default sort and the nearest valid page, since a list
 * that answers 400 to `?page=abc` helps nobody. Pages run 1..10,000 (a bound on the OFFSET a
 * query is asked for); a page past the last one is the caller's to clamp with `clampPage`.
 */
export function parseTableParams<Key extends string>(
  params: URLSearchParams,
  { sortable, defaultSort, defaultDir = "asc" }: TableParamOptions<Key>,
): TableParams<Key> {
  const rawSort = last(params, "sort");
  const known = rawSort !== undefined && (sortable as readonly string[]).includes(rawSort);
  const sort = known ? (rawSort as Key) : defaultSort;
  const rawDir = last(params, "dir");
  const dir: SortDirection = known && (rawDir === "asc" || rawDir === "desc") ? rawDir : defaultDir;
  return { sort, dir, page: parsePage(last(params, "page")) };
}

function parsePage(raw: string | undefined): number {
  // Digits only: "1e3", "0x10", " 2" and "-1" are not pages. Long digit runs cap, not overflow.
  if (raw === undefined || !/^\d+$/.test(raw)) return 1;
  if (raw.length > String(MAX_TABLE_PAGE).length) return MAX_TABLE_PAGE;
  return Math.min(MAX_TABLE_PAGE, Math.max(1, Number(raw)));
}

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page to show when the URL names one past the end (rows were deleted meanwhile). */
export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(page, pageCountOf(total, pageSize));
}

export function offsetOf(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** "Showing 21–40 of 134". */
export function rangeText(page: number, pageSize: number, total: number): string {
  if (total <= 0) return "Showing 0 of 0";
  const from = Math.min(total, offsetOf(page, pageSize) + 1);
  const to = Math.min(total, page * pageSize);
  return `Showing ${from}–${to} of ${total}`;
}

/** `?…` with `page` set (page 1 is left out), every other parameter kept. */
export function pageHref(current: URLSearchParams, page: number): string {
  const next = new URLSearchParams(current);
  if (page <= 1) next.delete("page");
  else next.set("page", String(page));
  return search(next);
}

/**
 * `?…` sorting by `key`: the active column flips its direction, another starts ascending (or at
 * its own first direction). The page goes back to 1, since page 7 of another order is arbitrary.
 */
export function sortHref(
  current: URLSearchParams,
  key: string,
  active: { sort: string; dir: SortDirection },
  firstDir: SortDirection = "asc",
): string {
  const next = new URLSearchParams(current);
  next.set("sort", key);
  next.set("dir", active.sort === key ? (active.dir === "asc" ? "desc" : "asc") : firstDir);
  next.delete("page");
  return search(next);
}

function search(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : "?";
}
