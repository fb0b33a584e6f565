import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  STATE_TIME_ZONES,
  WEEK_DAYS,
  clockText,
  dayIndex,
  openStatus,
  parseClock,
  parseDayHours,
  parseTimeRange,
  parseWeek,
  stateTimeZone,
  zonedClock,
  zonedDayName,
} from "./opening-hours";

const CHICAGO = "America/Chicago";
/** Wednesday 25 November 2026 at `hhmm` in Chicago (UTC-6 then). */
const wednesday = (hhmm: string) => new Date(`2026-11-25T${hhmm}:00-06:00`);
const at = (day: number, hhmm: string) =>
  new Date(new Date(`2026-11-22T${hhmm}:00-06:00`).getTime() + day * 86_400_000);

const WEEKDAYS_8_TO_6 = [
  "Monday: 8:00 AM – 6:00 PM",
  "Tuesday: 8:00 AM – 6:00 PM",
  "Wednesday: 8:00 AM – 6:00 PM",
  "Thursday: 8:00 AM – 6:00 PM",
  "Friday: 8:00 AM – 6:00 PM",
  "Saturday: 9:00 AM – 4:00 PM",
  "Sunday: Closed",
];
const ALWAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map(
  (d) => `${d}: Open 24 hours`,
);

describe("parseClock", () => {
  it("reads 12-hour, 24-hour and word times", () => {
    expect(parseClock("8:00 AM")).toEqual({ minutes: 480, period: "AM" });
    expect(parseClock("8 am")).toEqual({ minutes: 480, period: "AM" });
    expect(parseClock("8:30\u202fPM")).toEqual({ minutes: 1230, period: "PM" });
    expect(parseClock("8:30pm")).toEqual({ minutes: 1230, period: "PM" });
    expect(parseClock("8:30 p.m.")).toEqual({ minutes: 1230, period: "PM" });
    expect(parseClock("12:00 AM")?.minutes).toBe(0);
    expect(parseClock("12:15 PM")?.minutes).toBe(735);
    expect(parseClock("18:30")).toEqual({ minutes: 1110 });
    expect(parseClock("00:00")).toEqual({ minutes: 0 });
    expect(parseClock("24:00")).toEqual({ minutes: 1440 });
    expect(parseClock("Noon")?.minutes).toBe(720);
    expect(parseClock("midnight")?.minutes).toBe(0);
    expect(parseClock("8:00", "PM")?.minutes).toBe(1200);
  });

  it("refuses what is not a time", () => {
    for (const text of ["", "8", "13:00 PM", "0:30 AM", "8:60 AM", "25:00", "24:30", "soon", "8:0 AM", "123:00"]) {
      expect(parseClock(text), text).toBeNull();
    }
  });
});

describe("parseTimeRange", () => {
  it("reads dashes of any width, 'to', and Google's shared AM/PM", () => {
    expect(parseTimeRange("8:00 AM – 6:00 PM")).toEqual({ open: 480, close: 1080 });
    expect(parseTimeRange("8:00 AM - 6:00 PM")).toEqual({ open: 480, close: 1080 });
    expect(parseTimeRange("8:00 AM—6:00 PM")).toEqual({ open: 480, close: 1080 });
    expect(parseTimeRange("8:00\u202fAM\u2009–\u20096:00\u202fPM")).toEqual({ open: 480, close: 1080 });
    expect(parseTimeRange("8 AM to 6 PM")).toEqual({ open: 480, close: 1080 });
    expect(parseTimeRange("8:00 – 11:30 AM")).toEqual({ open: 480, close: 690 });
    expect(parseTimeRange("08:00–18:00")).toEqual({ open: 480, close: 1080 });
  });

  it("runs a range that ends at or before its start past midnight", () => {
    expect(parseTimeRange("6:00 PM – 2:00 AM")).toEqual({ open: 1080, close: 1560 });
    expect(parseTimeRange("8:00 AM – 12:00 AM")).toEqual({ open: 480, close: 1440 });
    expect(parseTimeRange("12:00 AM – 12:00 AM")).toEqual({ open: 0, close: 1440 });
  });

  it("refuses a range it cannot read", () => {
    for (const text of ["8:00 AM", "8:00 AM – ", "8 – 6", "8:00 AM – 6:00 PM – 9:00 PM", "by appointment"]) {
      expect(parseTimeRange(text), text).toBeNull();
    }
  });
});

describe("parseDayHours and parseWeek", () => {
  it("reads closed, open 24 hours, one or two ranges", () => {
    expect(parseDayHours(" Closed")).toEqual({ kind: "closed" });
    expect(parseDayHours("Open 24 hours")).toEqual({ kind: "open24" });
    expect(parseDayHours("open 24 hours")).toEqual({ kind: "open24" });
    expect(parseDayHours("12:00 AM – 12:00 AM")).toEqual({ kind: "open24" });
    expect(parseDayHours("1:00 PM – 5:00 PM, 8:00 AM – 12:00 PM")).toEqual({
      kind: "ranges",
      ranges: [
        { open: 480, close: 720 },
        { open: 780, close: 1020 },
      ],
    });
    expect(parseDayHours("By appointment")).toEqual({ kind: "unknown" });
    expect(parseDayHours("8:00 AM – 6:00 PM, call ahead")).toEqual({ kind: "unknown" });
  });

  it("reads day names whole or cut short, in any case", () => {
    expect(dayIndex("Sunday")).toBe(0);
    expect(dayIndex("mon")).toBe(1);
    expect(dayIndex("Tues")).toBe(2);
    expect(dayIndex("THU")).toBe(4);
    expect(dayIndex("Th")).toBeNull();
    expect(dayIndex("Holiday")).toBeNull();
  });

  it("leaves days without a line unknown and needs at least one day line", () => {
    const week = parseWeek(["Monday: 8:00 AM – 6:00 PM", "Holiday hours vary"]);
    expect(week?.[1]).toEqual({ kind: "ranges", ranges: [{ open: 480, close: 1080 }] });
    expect(week?.[2]).toEqual({ kind: "unknown" });
    expect(parseWeek([])).toBeNull();
    expect(parseWeek(["Call for hours"])).toBeNull();
  });
});

describe("openStatus", () => {
  it("says open now and when it closes", () => {
    expect(openStatus(WEEKDAYS_8_TO_6, wednesday("12:00"), CHICAGO)).toEqual({
      open: true,
      label: "Open now",
      detail: "Closes at 6 PM",
    });
    expect(openStatus(WEEKDAYS_8_TO_6, wednesday("08:00"), CHICAGO)?.label).toBe("Open now");
  });

  it("says closes soon in the last hour", () => {
    expect(openStatus(WEEKDAYS_8_TO_6, wednesday("17:15"), CHICAGO)).toEqual({
      open: true,
      label: "Closes soon",
      detail: "Closes at 6 PM",
    });
  });

  it("says when it opens: later today, tomorrow, or on a named day", () => {
    expect(openStatus(WEEKDAYS_8_TO_6, wednesday("06:00"), CHICAGO)).toEqual({
      open: false,
      label: "Closed",
      detail: "Opens at 8 AM",
    });
    expect(openStatus(WEEKDAYS_8_TO_6, wednesday("18:00"), CHICAGO)?.detail).toBe("Opens at 8 AM tomorrow");
    // Saturday evening: Sunday is closed, so Monday.
    expect(openStatus(WEEKDAYS_8_TO_6, at(6, "17:00"), CHICAGO)?.detail).toBe("Opens at 8 AM on Monday");
    expect(openStatus(WEEKDAYS_8_TO_6, at(0, "10:00"), CHICAGO)?.detail).toBe("Opens at 8 AM tomorrow");
  });

  it("shows minutes when the time has them", () => {
    const lines = ["Wednesday: 9:30 AM – 5:30 PM", "Thursday: 9:30 AM – 5:30 PM"];
    expect(openStatus(lines, wednesday("09:00"), CHICAGO)?.detail).toBe("Opens at 9:30 AM");
    expect(openStatus(lines, wednesday("12:00"), CHICAGO)?.detail).toBe("Closes at 5:30 PM");
  });

  it("handles a split day: closed over lunch", () => {
    const lines = ["Wednesday: 8:00 AM – 12:00 PM, 1:00 PM – 5:00 PM", "Thursday: Closed"];
    expect(openStatus(lines, wednesday("12:30"), CHICAGO)?.detail).toBe("Opens at 1 PM");
    expect(openStatus(lines, wednesday("10:00"), CHICAGO)?.detail).toBe("Closes at noon");
  });

  it("says open 24 hours when it never closes", () => {
    expect(openStatus(ALWAYS, wednesday("03:00"), CHICAGO)).toEqual({ open: true, label: "Open 24 hours" });
  });

  it("joins an open-24 day with the next day's hours from midnight", () => {
    const lines = [...ALWAYS.slice(0, 2), "Wednesday: 12:00 AM – 6:00 PM"];
    expect(openStatus(lines, at(2, "23:00"), CHICAGO)?.detail).toBe("Closes at 6 PM tomorrow");
    expect(openStatus(["Wednesday: Open 24 hours", "Thursday: Closed"], wednesday("23:30"), CHICAGO)).toEqual({
      open: true,
      label: "Closes soon",
      detail: "Closes at midnight",
    });
  });

  it("keeps a range past midnight open into the next morning, across the week's end", () => {
    const lines = [...ALWAYS.map((l) => l.replace("Open 24 hours", "Closed")), "Saturday: 6:00 PM – 2:00 AM"];
    expect(openStatus(lines, at(6, "23:00"), CHICAGO)?.detail).toBe("Closes at 2 AM tomorrow");
    expect(openStatus(lines, at(7, "01:30"), CHICAGO)).toEqual({
      open: true,
      label: "Closes soon",
      detail: "Closes at 2 AM",
    });
    expect(openStatus(lines, at(7, "03:00"), CHICAGO)?.detail).toBe("Opens at 6 PM on Saturday");
  });

  it("reads the hours on the facility's clock, not the visitor's", () => {
    const noonUtc = new Date("2026-11-25T17:30:00Z"); // 11:30 AM in Chicago, 9:30 AM in Los Angeles
    const lines = ["Wednesday: 10:00 AM – 6:00 PM"];
    expect(openStatus(lines, noonUtc, CHICAGO)?.label).toBe("Open now");
    expect(openStatus(lines, noonUtc, "America/Los_Angeles")?.detail).toBe("Opens at 10 AM");
    // Daylight time: 1 July, 13:30 UTC is 8:30 AM in Chicago (UTC-5).
    expect(zonedClock(new Date("2026-07-01T13:30:00Z"), CHICAGO)).toEqual({ day: 3, minutes: 510 });
  });

  it("names today on the facility's clock: Thursday evening in Austin is Friday in UTC", () => {
    const thursdayEvening = new Date("2026-11-27T02:53:00Z"); // 8:53 PM on Thursday 26 November in Chicago
    expect(zonedDayName(thursdayEvening, CHICAGO)).toBe("Thursday");
    expect(zonedDayName(thursdayEvening, "UTC")).toBe("Friday");
    expect(openStatus(["Thursday: 8:00 AM – 6:00 PM", "Friday: 8:00 AM – 6:00 PM"], thursdayEvening, CHICAGO)).toEqual({
      open: false,
      label: "Closed",
      detail: "Opens at 8 AM tomorrow",
    });
  });

  it("makes no claim when the day it depends on cannot be read", () => {
    expect(openStatus(["Wednesday: By appointment"], wednesday("12:00"), CHICAGO)).toBeNull();
    // Open now, but Thursday's line is missing: it might run on past midnight.
    expect(openStatus(["Wednesday: 8:00 AM – 12:00 AM"], wednesday("20:00"), CHICAGO)).toBeNull();
    // Closed now; opening depends on Thursday, unknown.
    expect(openStatus(["Wednesday: 8:00 AM – 6:00 PM"], wednesday("19:00"), CHICAGO)).toBeNull();
    expect(openStatus(["Monday: Closed"], wednesday("12:00"), CHICAGO)).toBeNull();
    expect(openStatus([], wednesday("12:00"), CHICAGO)).toBeNull();
    expect(openStatus(["Hours vary"], wednesday("12:00"), CHICAGO)).toBeNull();
  });

  it("says closed with no opening when every day is closed", () => {
    const closed = ALWAYS.map((l) => l.replace("Open 24 hours", "Closed"));
    expect(openStatus(closed, wednesday("12:00"), CHICAGO)).toEqual({ open: false, label: "Closed" });
  });

  it("answers for any time of any week when every day is readable, and an open answer closes later", () => {
    const dayHours = fc.oneof(
      fc.constant("Closed"),
      fc.constant("Open 24 hours"),
      fc
        .tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 }))
        .map(([start, length]) => `${clockText(start * 15)} – ${clockText(((start + length) % 96) * 15)}`),
    );
    const sundayMidnight = at(0, "00:00").getTime();
    fc.assert(
      fc.property(
        fc.array(dayHours, { minLength: 7, maxLength: 7 }),
        fc.integer({ min: 0, max: 10_079 }),
        (days, minute) => {
          const lines = days.map((hours, i) => `${WEEK_DAYS[i]}: ${hours}`);
          const status = openStatus(lines, new Date(sundayMidnight + minute * 60_000), CHICAGO);
          expect(status).not.toBeNull();
          if (status?.open && status.label !== "Open 24 hours") expect(status.detail).toMatch(/^Closes at /);
          if (status && !status.open && status.detail) expect(status.detail).toMatch(/^Opens at /);
        },
      ),
    );
  });
});

describe("clockText and time zones", () => {
  it("writes times as people say them", () => {
    expect(clockText(1080)).toBe("6 PM");
    expect(clockText(570)).toBe("9:30 AM");
    expect(clockText(0)).toBe("midnight");
    expect(clockText(1440)).toBe("midnight");
    expect(clockText(720)).toBe("noon");
    expect(clockText(65)).toBe("1:05 AM");
  });

  it("gives every state and DC a zone the browser knows", () => {
    expect(Object.keys(STATE_TIME_ZONES)).toHaveLength(52);
    for (const zone of Object.values(STATE_TIME_ZONES)) {
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: zone })).not.toThrow();
    }
    expect(stateTimeZone("tx")).toBe(CHICAGO);
    expect(stateTimeZone("AZ")).toBe("America/Phoenix");
    expect(stateTimeZone("ZZ")).toBeNull();
    expect(stateTimeZone(null)).toBeNull();
  });
});
