import { describe, expect, it } from "vitest";
import { formatDayLine, parseDayLine, parseOpeningHours } from "./hours";

describe("opening hours lines", () => {
  it("reads the forms the catalogue holds and writes them back unchanged", () => {
    for (const line of [
      "Monday: 8:00 AM – 6:00 PM",
      "Sunday: Closed",
      "Saturday: Open 24 hours",
      "Tuesday: 8:00 AM – 12:00 PM, 1:00 PM – 5:00 PM",
      "Friday: 6:00 PM – 12:00 AM",
    ]) {
      const day = line.split(":")[0] as "Monday";
      expect(formatDayLine(parseDayLine(day, line))).toBe(line);
    }
  });

  it("reads Google's shortened ranges and keeps what it cannot read", () => {
    expect(parseDayLine("Monday", "Monday: 8:00 – 11:00 AM").ranges).toEqual([{ open: 480, close: 660 }]);
    const odd = parseDayLine("Monday", "Monday: by appointment");
    expect(odd.mode).toBe("keep");
    expect(formatDayLine(odd)).toBe("Monday: by appointment");
  });

  it("gives seven days, Monday first, missing days closed", () => {
    const days = parseOpeningHours(["Sunday: Open 24 hours"]);
    expect(days.map((d) => d.day)[0]).toBe("Monday");
    expect(days[0]!.mode).toBe("closed");
    expect(days[6]!.mode).toBe("open24");
  });
});
