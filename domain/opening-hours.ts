/**
 * 'Open now · Closes at 6 PM' from a facility's opening-hours lines (docs/product.md section 3:
 * one line per day, 'Monday: 8:00 AM – 6:00 PM', 'Monday: Open 24 hours', 'Sunday: Closed', a
 * split day as 'Monday: 8:00 AM – 12:00 PM, 1:00 PM – 5:00 PM'). Pure and browser-safe: the
 * facility page computes the line in the browser, with the visitor's clock, in the facility's
 * time zone (`stateTimeZone`).
 *
 * Read as well: Google's narrow spaces and shorthand ('8:00 – 11:00 AM', the first time taking
 * the second's AM/PM), '8 AM', 'a.m.', 24-hour times ('08:00–18:00'), noon and midnight, ranges
 * past midnight ('Friday: 6:00 PM – 2:00 AM' is open until 2 AM on Saturday), and day names cut to
 * three or four letters. A day whose line cannot be read makes no claim: when the answer depends
 * on it, there is no status line rather than a wrong one.
 */

export const WEEK_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const DAY_MINUTES = 1440;

/** Minutes after midnight; `close` is past `open` and may pass 1440 for a range ending after midnight. */
export interface TimeRange {
  open: number;
  close: number;
}

export type DaySchedule =
  { kind: "closed" } | { kind: "open24" } | { kind: "ranges"; ranges: TimeRange[] } | { kind: "unknown" };

/** One dash of any width or the word 'to'; the pieces around it are trimmed apart (no quantifier to backtrack over). */
const DASH = /[–—-]|\bto\b/i;
const TIME = /^(\d{1,2})(?:[:.](\d{2}))?(?:\s*([AP])M)?$/i;

function normalise(text: string): string {
  return text
    .replace(/[\u202f\u2009\u00a0]/g, " ")
    .replace(/\b([ap])\.m\./gi, "$1m")
    .trim();
}

/**
 * A clock time to minutes after midnight: '8:00 AM', '8 am', '18:30', 'noon', 'midnight'. A time
 * without AM/PM takes `period` when given (Google's '8:00 – 11:00 AM'), else reads as 24-hour.
 * Midnight is 0.
 */
export function parseClock(text: string, period?: "AM" | "PM"): { minutes: number; period?: "AM" | "PM" } | null {
  const value = normalise(text).toLowerCase();
  if (value === "noon" || value === "12 noon") return { minutes: 720, period: "PM" };
  if (value === "midnight" || value === "12 midnight") return { minutes: 0, period: "AM" };
  const match = TIME.exec(value);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  if (minutes > 59) return null;
  const own = match[3] ? (match[3].toUpperCase() === "P" ? "PM" : "AM") : undefined;
  const meridiem = own ?? period;
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    return { minutes: ((hours % 12) + (meridiem === "PM" ? 12 : 0)) * 60 + minutes, period: meridiem };
  }
  // A 24-hour time needs its minutes ('18:00'): a bare '8' says nothing about morning or evening.
  if (match[2] === undefined || hours > 24 || (hours === 24 && minutes > 0)) return null;
  return { minutes: hours * 60 + minutes };
}

/** '8:00 AM – 6:00 PM' to minutes; a range that ends at or before it starts runs past midnight. */
export function parseTimeRange(text: string): TimeRange | null {
  const parts = normalise(text)
    .split(DASH)
    .map((part) => part.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  const close = parseClock(parts[1]);
  if (!close) return null;
  const open = parseClock(parts[0], close.period);
  if (!open) return null;
  const end = close.minutes <= open.minutes ? close.minutes + DAY_MINUTES : close.minutes;
  return { open: open.minutes, close: end };
}

/** What follows the day name: 'Closed', 'Open 24 hours', or one or more ranges split by commas. */
export function parseDayHours(body: string): DaySchedule {
  const text = normalise(body);
  if (/^closed$/i.test(text)) return { kind: "closed" };
  if (/^open 24 hours$/i.test(text) || /^24 hours$/i.test(text)) return { kind: "open24" };
  const ranges: TimeRange[] = [];
  for (const piece of text.split(/[,;]/)) {
    const range = parseTimeRange(piece);
    if (!range) return { kind: "unknown" };
    ranges.push(range);
  }
  ranges.sort((a, b) => a.open - b.open);
  if (ranges.length === 1 && ranges[0]!.open === 0 && ranges[0]!.close === DAY_MINUTES) return { kind: "open24" };
  return { kind: "ranges", ranges };
}

/** The weekday index (0 = Sunday) a line's day name stands for: 'Monday', 'Mon', 'Tues', 'thu'. */
export function dayIndex(name: string): number | null {
  const value = name.trim().toLowerCase();
  if (value.length < 3) return null;
  const index = WEEK_DAYS.findIndex((day) => day.toLowerCase().startsWith(value));
  return index === -1 ? null : index;
}

/**
 * The week's schedule, Sunday first, from the day lines. A day with no line is unknown (not
 * closed: a listing may give only some days); null when no line names a day.
 */
export function parseWeek(lines: readonly string[]): DaySchedule[] | null {
  const week: DaySchedule[] = WEEK_DAYS.map(() => ({ kind: "unknown" }));
  let any = false;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const index = dayIndex(line.slice(0, colon));
    if (index === null) continue;
    week[index] = parseDayHours(line.slice(colon + 1));
    any = true;
  }
  return any ? week : null;
}

/** One formatter per time zone, kept: building one costs more than the page's other work with hours. */
const clockFormats = new Map<string, Intl.DateTimeFormat>();

function zonedClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    // Time zones are a closed set (IANA names), so the map stays small; an invalid name throws above.
    clockFormats.set(timeZone, format);
  }
  return format;
}

/** The weekday and the minutes after midnight of `now` on the clocks of `timeZone`. */
export function zonedClock(now: Date, timeZone: string): { day: number; minutes: number } {
  const parts = zonedClockFormat(timeZone).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = WEEK_DAYS.indexOf(part("weekday") as (typeof WEEK_DAYS)[number]);
  return {
    day: day === -1 ? now.getUTCDay() : day,
    minutes: (Number(part("hour")) % 24) * 60 + Number(part("minute")),
  };
}

/**
 * The name of the day it is at `now` on the clocks of `timeZone` ('Thursday'): the facility page
 * marks that day's line "Today", on the same clock its open/closed line reads, whatever the
 * visitor's own time zone.
 */
export function zonedDayName(now: Date, timeZone: string): (typeof WEEK_DAYS)[number] {
  return WEEK_DAYS[zonedClock(now, timeZone).day]!;
}

/** '6 PM', '5:30 PM', 'midnight', 'noon'. */
export function clockText(minutes: number): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  if (m === 0) return "midnight";
  if (m === 720) return "noon";
  const hour = Math.floor(m / 60);
  const minute = m % 60;
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}${minute ? `:${String(minute).padStart(2, "0")}` : ""} ${hour < 12 ? "AM" : "PM"}`;
}

export interface OpenStatus {
  open: boolean;
  /** 'Open now', 'Open 24 hours', 'Closes soon', 'Closed'. */
  label: string;
  /** 'Closes at 6 PM', 'Opens at 8 AM tomorrow', 'Opens Monday at 9:30 AM'; absent when nothing follows. */
  detail?: string;
}

/** A closing within this many minutes reads 'Closes soon'. */
export const CLOSES_SOON_MINUTES = 60;

const WEEK = 7 * DAY_MINUTES;

/**
 * The week's ranges on one line of minutes from Sunday 0:00, repeated a week before and after (so
 * Saturday night runs into Sunday morning), with ranges that touch joined (an open-24 day followed
 * by one opening at midnight is one stretch); and the days that cannot be read.
 */
function timeline(week: readonly DaySchedule[]): { ranges: TimeRange[]; unknownDays: Set<number> } {
  const ranges: TimeRange[] = [];
  const unknownDays = new Set<number>();
  week.forEach((day, i) => {
    const start = i * DAY_MINUTES;
    if (day.kind === "open24") ranges.push({ open: start, close: start + DAY_MINUTES });
    else if (day.kind === "ranges")
      for (const r of day.ranges) ranges.push({ open: start + r.open, close: start + r.close });
    else if (day.kind === "unknown") unknownDays.add(i);
  });
  const repeated = [-WEEK, 0, WEEK]
    .flatMap((shift) => ranges.map((r) => ({ open: r.open + shift, close: r.close + shift })))
    .sort((a, b) => a.open - b.open);
  const merged: TimeRange[] = [];
  for (const r of repeated) {
    const last = merged[merged.length - 1];
    if (last && r.open <= last.close) last.close = Math.max(last.close, r.close);
    else merged.push({ ...r });
  }
  return { ranges: merged, unknownDays };
}

/**
 * Whether any minute of `[from, to]` (week minutes, may pass the week's end) falls on a day of
 * `days`. The end counts: a day that cannot be read may start right at a midnight closing.
 */
function touchesDays(from: number, to: number, days: ReadonlySet<number>): boolean {
  const dayOf = (minute: number) => Math.floor((minute % WEEK) / DAY_MINUTES);
  for (let t = from; t < to; t += DAY_MINUTES) if (days.has(dayOf(t))) return true;
  return days.has(dayOf(to));
}

/**
 * Open or closed at `now` in `timeZone`, and when that changes next. Null when the hours do not
 * say: no readable lines, or the days the answer depends on cannot be read.
 */
export function openStatus(lines: readonly string[], now: Date, timeZone: string): OpenStatus | null {
  const week = parseWeek(lines);
  if (!week) return null;
  const { ranges, unknownDays } = timeline(week);
  const clock = zonedClock(now, timeZone);
  const t = clock.day * DAY_MINUTES + clock.minutes;
  if (ranges.length === 0) return unknownDays.size ? null : { open: false, label: "Closed" };
  const current = ranges.find((r) => r.open <= t && t < r.close);
  if (current) {
    if (current.close - current.open > WEEK) return { open: true, label: "Open 24 hours" };
    if (touchesDays(t, current.close, unknownDays)) return null;
    return {
      open: true,
      label: current.close - t <= CLOSES_SOON_MINUTES ? "Closes soon" : "Open now",
      detail: `Closes at ${clockText(current.close)}${dayWords(current.close, t)}`,
    };
  }
  const next = ranges.find((r) => r.open > t);
  if (!next || touchesDays(t, next.open, unknownDays)) return null;
  return { open: false, label: "Closed", detail: `Opens at ${clockText(next.open)}${dayWords(next.open, t)}` };
}

/**
 * '' for today, ' tomorrow', or ' on Monday': the day of week minute `at` seen from `now`. A time
 * at midnight counts with the day it ends ('Closes at midnight' tonight, not tomorrow).
 */
function dayWords(at: number, now: number): string {
  const day = Math.floor((at % DAY_MINUTES === 0 ? at - 1 : at) / DAY_MINUTES);
  const days = day - Math.floor(now / DAY_MINUTES);
  if (days === 0) return "";
  if (days === 1) return " tomorrow";
  return ` on ${WEEK_DAYS[((day % 7) + 7) % 7]}`;
}

/**
 * Each state's main time zone. An approximation: a facility is placed in its state's most
 * populous zone, so the west of Texas, the Florida panhandle, eastern Oregon, northern Idaho,
 * western Kentucky and Tennessee, and parts of the Dakotas, Nebraska, Kansas, Michigan and
 * Indiana read an hour off; Arizona keeps no daylight time (the Navajo Nation does); Alaska's
 * Aleutians and Hawaii have their own.
 */
export const STATE_TIME_ZONES: Readonly<Record<string, string>> = {
  AL: "America/Chicago",
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DE: "America/New_York",
  DC: "America/New_York",
  FL: "America/New_York",
  GA: "America/New_York",
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  KS: "America/Chicago",
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  SD: "America/Chicago",
  TN: "America/Chicago",
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
  PR: "America/Puerto_Rico",
};

/** The time zone a facility's hours are read in: its state's main one (see above), else null. */
export function stateTimeZone(state: string | null | undefined): string | null {
  return (state && STATE_TIME_ZONES[state.toUpperCase()]) || null;
}
