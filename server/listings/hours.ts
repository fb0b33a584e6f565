import { clockLabel, WEEK_DAYS, type DayMode, type WeekDay } from "../../domain/listings";
import { parseTimeRange } from "../../domain/opening-hours";

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

/**
 * One range of a day, read as the facility page reads it (domain/opening-hours.ts); the editor
 * holds ranges within the day, so one running past midnight is kept as its line.
 */
function parseRange(text: string): { open: number; close: number } | null {
  const range = parseTimeRange(text);
  return range && range.close <= 1440 ? range : null;
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
