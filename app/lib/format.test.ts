import { describe, expect, it } from "vitest";
import { displayPhone, hoursLineDay, paragraphsOf, sentence, telHref } from "./format";

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
