import { clockLabel, WEEK_DAYS, type DayMode, type WeekDay } from "../../app/lib/listings";

/**
 * Opening hours in docs/product.md section 3's day-line form ("Monday: 8:00 AM – 6:00 PM",
 * "Sunday: Closed", "Saturday: Open 24 hours"), read into the 7-day editor and written back.
 * Split days are two ranges joined by ", " as Google writes them.
 */
export interface DayHours {
  day: WeekDay;
  mode: DayMode;
  /** Minutes after midnight; a range may end at 1440 (midnight). */
  ranges: { open: number; close: number }[];
  /** The line as it was, for a day the editor could not read (`keep`). */
  line?: string;
}

/** One dash of any width; the pieces around it are trimmed apart (no quantifier to backtrack over). */
const DASH = /[–—-]/;
const TIME = /^(\d{1,2})(?::(\d{2}))?\s*(AM|PM)?$/i;

function parseClock(text: string, fallbackPeriod?: string): { minutes: number; period?: string } | null {
  const match = TIME.exec(text.replace(/[\u202f\u2009\u00a0]/g, " ").trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  const period = (match[3] ?? fallbackPeriod)?.toUpperCase();
  if (!period || hours < 1 || hours > 12 || minutes > 59) return null;
  return { minutes: ((hours % 12) + (period === "PM" ? 12 : 0)) * 60 + minutes, period };
}

function parseRange(text: string): { open: number; close: number } | null {
  const parts = text.split(DASH).map((part) => part.trim());
  if (parts.length !== 2) return null;
  const close = parseClock(parts[1]!);
  if (!close) return null;
  // Google writes "8:00 – 11:00 AM": the opening time takes the closing time's period.
  const open = parseClock(parts[0]!, close.period);
  if (!open) return null;
  const end = close.minutes === 0 ? 1440 : close.minutes;
  return end > open.minutes ? { open: open.minutes, close: end } : null;
}

/** The editor's view of a day's line; unreadable lines are kept as they are. */
export function parseDayLine(day: WeekDay, line: string | undefined): DayHours {
  if (line === undefined) return { day, mode: "closed", ranges: [] };
  const body = line.slice(line.indexOf(":") + 1).trim();
  if (/^closed$/i.test(body)) return { day, mode: "closed", ranges: [] };
  if (/^open 24 hours$/i.test(body)) return { day, mode: "open24", ranges: [] };
  const ranges = body
    .split(",")
    .map((range) => range.trim())
    .map(parseRange);
  if (ranges.length <= 2 && ranges.every((r) => r !== null))
    return { day, mode: "hours", ranges: ranges as DayHours["ranges"] };
  return { day, mode: "keep", ranges: [], line };
}

/** The seven days of a listing's lines, Monday first; a day with no line reads as closed. */
export function parseOpeningHours(lines: readonly string[]): DayHours[] {
  return WEEK_DAYS.map((day) =>
    parseDayLine(
      day,
      lines.find((l) => l.split(":")[0]?.trim() === day),
    ),
  );
}

export function formatDayLine(hours: DayHours): string {
  if (hours.mode === "keep" && hours.line) return hours.line;
  if (hours.mode === "open24") return `${hours.day}: Open 24 hours`;
  if (hours.mode === "closed" || hours.ranges.length === 0) return `${hours.day}: Closed`;
  return `${hours.day}: ${hours.ranges.map((r) => `${clockLabel(r.open)} – ${clockLabel(r.close)}`).join(", ")}`;
}

/** "08:30" (an `<input type="time">` value) for minutes after midnight. */
export function timeInputValue(minutes: number): string {
  const m = minutes % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
