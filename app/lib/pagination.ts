import { MAX_PAGE_BUTTONS } from "../../domain/search";

/** The page numbers to show as buttons: at most 5, centred on the current page where possible. */
export function pageWindow(page: number, pageCount: number, max = MAX_PAGE_BUTTONS): number[] {
  if (pageCount <= 0) return [];
  const count = Math.min(max, pageCount);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** 'Showing X to Y of Z locations' (or of another `noun`, plural). */
export function showingText(page: number, pageSize: number, total: number, noun = "locations"): string {
  if (total === 0) return `Showing 0 of 0 ${noun}`;
  const from = Math.min(total, (page - 1) * pageSize + 1);
  const to = Math.min(total, page * pageSize);
  return `Showing ${from} to ${to} of ${total} ${noun}`;
}
