import { describe, expect, it } from "vitest";
import {
  displayPhone,
  formatCompactNumber,
  formatDate,
  formatDateTime,
  formatFullDay,
  formatLongDate,
  formatNumber,
  formatPercent,
  formatShortDay,
  formatShortDayTime,
  hoursLineDay,
  paragraphsOf,
  sentence,
  telHref,
} from "./format";

describe("format", () => {
  it("shows phone numbers without a leading +1", () => {
    expect(displayPhone("+1 512-555-0100")).toBe("512-555-0100");
    expect(displayPhone("(512) 555-0100")).toBe("(512) 555-0100");
    expect(displayPhone("  ")).toBeNull();
    expect(displayPhone(null)).toBeNull();
  });

  it("dials with the country code", () => {
    expect(telHref("(512) 555-0100")).toBe("tel:+15125550100");
    expect(telHref("+1 512-555-0100")).toBe("tel:+15125550100");
  });

  it("reads the day of an hours line", () => {
    expect(hoursLineDay("Monday: 8:00 AM – 6:00 PM")).toBe("Monday");
    expect(hoursLineDay("Holiday hours vary")).toBeUndefined();
  });
});

describe("paragraphsOf", () => {
  it("splits at blank lines, keeps the lines inside a paragraph, and drops empty ones", () => {
    expect(paragraphsOf("Paved.\n\nGated\nand lit.\n \n\n\nWash bay.\n")).toEqual([
      "Paved.",
      "Gated\nand lit.",
      "Wash bay.",
    ]);
    expect(paragraphsOf("\n\n")).toEqual([]);
  });
});

describe("sentence", () => {
  it("closes typed text with one full stop", () => {
    expect(sentence("Posts spam questions")).toBe("Posts spam questions.");
    expect(sentence("Posts spam questions.")).toBe("Posts spam questions.");
    expect(sentence(" Fake listings! ")).toBe("Fake listings!");
    expect(sentence('Said "call me."')).toBe('Said "call me."');
    expect(sentence("none given")).toBe("none given.");
  });
});

describe("dates and numbers", () => {
  const at = "2026-11-27T22:49:12Z";
  it("writes counts and percentages in US English", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatPercent(12.3456)).toBe("12.35%");
    expect(formatCompactNumber(123_456)).toBe("123.5K");
  });
  it("groups whole numbers as Intl's en-US format does, without building one", () => {
    const intl = new Intl.NumberFormat("en-US");
    const samples = [0, 7, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 2 ** 40, Number.MAX_SAFE_INTEGER];
    for (const n of [...samples, ...samples.map((x) => -x).filter((x) => x !== 0)]) {
      expect(formatNumber(n)).toBe(intl.format(n));
    }
    expect(formatNumber(1234.5)).toBe("1,234.5");
  });
  it("writes dates in UTC whatever the input's form", () => {
    expect(formatDate(at)).toBe("Nov 27, 2026");
    expect(formatDate(new Date(at))).toBe("Nov 27, 2026");
    expect(formatLongDate(Date.parse(at))).toBe("November 27, 2026");
    expect(formatDateTime(at)).toBe("Nov 27, 2026, 10:49 PM");
    expect(formatShortDayTime(at)).toBe("Nov 27, 10:49 PM");
  });
  it("writes a calendar day as that day, not the day before in a zone west of UTC", () => {
    expect(formatFullDay("2026-03-01")).toBe("Mar 1, 2026");
    expect(formatShortDay("2026-03-01")).toBe("Mar 1");
  });
});
