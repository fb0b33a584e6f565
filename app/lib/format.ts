/** Small display rules shared by pages. Browser-safe. */

import { formatCount } from "../../domain/numbers";

/** A phone number as shown: without a leading +1 (docs/product.md section 9). */
export function displayPhone(phone: string | null | undefined): string | null {
  const trimmed = phone?.trim();
  if (!trimmed) return null;
  return trimmed.replace(/^\+1[\s.-]*/, "");
}

/** The digits a tel: link dials, with the country code. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, "");
  return `tel:${digits.startsWith("+") ? digits : `+1${digits}`}`;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The day name an opening-hours line starts with ("Monday: 8:00 AM – 6:00 PM" -> "Monday"). */
export function hoursLineDay(line: string): string | undefined {
  const day = line.split(":")[0]?.trim();
  return day && DAYS.includes(day) ? day : undefined;
}

/**
 * Plain text split into paragraphs at blank lines (a line of only spaces counts as blank); the
 * lines inside a paragraph are kept. Line by line, so its cost is linear in the text.
 */
export function paragraphsOf(text: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") {
      if (current.length > 0) paragraphs.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) paragraphs.push(current.join("\n"));
  return paragraphs;
}

/** A file size in words: "812 bytes", "14 kB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  const mb = bytes / 1024 / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, "") : Math.round(mb)} MB`;
}

/**
 * Text someone typed, closed with a full stop unless it already ends a sentence: "Posts spam" and
 * "Posts spam." both read "Posts spam." after "Reason: " (never "spam..").
 */
const CLOSING_QUOTES = new Set(['"', "'", "”", "’", ")"]);
const SENTENCE_ENDS = new Set([".", "!", "?", "…", ":", ";"]);

export function sentence(text: string): string {
  const trimmed = text.trim();
  // Closing quotes and brackets after the end of a sentence still end it: 'He said "no."'
  let end = trimmed.length - 1;
  while (end >= 0 && CLOSING_QUOTES.has(trimmed[end]!)) end--;
  return end >= 0 && SENTENCE_ENDS.has(trimmed[end]!) ? trimmed : `${trimmed}.`;
}

/*
 * Dates and numbers as pages show them, in US English. Dates are in UTC unless the name says
 * "local": a page rendered on the server shows the same text after hydration, whatever the
 * viewer's time zone (callers that show a time write " UTC" after it).
 */
type DateInput = Date | string | number;

/**
 * A formatter made on its first use and kept: building an Intl formatter takes a millisecond or
 * more, and ten of them at module load were a long task on a phone before the page could hydrate.
 */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const number = lazy(() => new Intl.NumberFormat("en-US"));
const percentNumber = lazy(() => new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }));
const compact = lazy(() => new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }));
const date = lazy(() => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }));
const longDate = lazy(() => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }));
const dateTime = lazy(
  () => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
);
const shortDay = lazy(() => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }));
const shortDayTime = lazy(
  () =>
    new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: "UTC",
    }),
);
const localTime = lazy(() => new Intl.DateTimeFormat("en-US", { timeStyle: "medium" }));
const localDateTime = lazy(() => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }));

/** A count with thousands separators: "12,345" (without Intl for whole numbers: domain/numbers.ts). */
export const formatNumber = (n: number): string => (Number.isSafeInteger(n) ? formatCount(n) : number().format(n));

/** A percentage with at most two decimals: "12.5%". */
export const formatPercent = (n: number): string => `${percentNumber().format(n)}%`;
/** A large count in short: "120K", "1.2M". */
export const formatCompactNumber = (n: number): string => compact().format(n);

/** "Nov 27, 2026" (UTC). */
export const formatDate = (value: DateInput): string => date().format(new Date(value));
/** "November 27, 2026" (UTC). */
export const formatLongDate = (value: DateInput): string => longDate().format(new Date(value));
/** "Nov 27, 2026, 10:49 AM" (UTC). */
export const formatDateTime = (value: DateInput): string => dateTime().format(new Date(value));
/** "Nov 27, 10:49 AM" (UTC). */
export const formatShortDayTime = (value: DateInput): string => shortDayTime().format(new Date(value));
/** "10:49:12 AM" in the viewer's time zone (for screens that only render in the browser's session). */
export const formatLocalTime = (value: DateInput): string => localTime().format(new Date(value));
/** "Nov 27, 2026, 10:49 AM" in the viewer's time zone. */
export const formatLocalDateTime = (value: DateInput): string => localDateTime().format(new Date(value));

/** A calendar day ("2026-11-27") as "Nov 27, 2026". */
export const formatFullDay = (day: string): string => formatDate(`${day}T00:00:00Z`);
/** A calendar day ("2026-11-27") as "Nov 27". */
export const formatShortDay = (day: string): string => shortDay().format(new Date(`${day}T00:00:00Z`));
