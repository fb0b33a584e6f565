import { describe, expect, it } from "vitest";
import { closeTowns, editDistance, splitState } from "./close-towns";
import { getGazetteer } from "./load-gazetteer";

const gazetteer = getGazetteer();
const labels = (text: string) => closeTowns(gazetteer, text).map((p) => `${p.name}, ${p.state}`);

describe("editDistance", () => {
  it("counts a missing, extra or wrong letter and a swap of neighbours as one mistake", () => {
    expect(editDistance("austn", "austin", 2)).toBe(1);
    expect(editDistance("austiin", "austin", 2)).toBe(1);
    expect(editDistance("austen", "austin", 2)).toBe(1);
    expect(editDistance("asutin", "austin", 2)).toBe(1);
    expect(editDistance("austin", "austin", 2)).toBe(0);
    expect(editDistance("", "abc", 3)).toBe(3);
  });

  it("stops at max + 1", () => {
    expect(editDistance("houston", "austin", 2)).toBe(3);
    expect(editDistance("a", "abcdefgh", 2)).toBe(3);
  });
});

describe("splitState", () => {
  it("splits a trailing state code or name", () => {
    expect(splitState("austn, tx")).toEqual({ name: "austn", state: "TX" });
    expect(splitState("austn tx")).toEqual({ name: "austn", state: "TX" });
    expect(splitState("sna antonio texas")).toEqual({ name: "sna antonio", state: "TX" });
    expect(splitState("portlnd new york")).toEqual({ name: "portlnd", state: "NY" });
    expect(splitState("austn")).toEqual({ name: "austn" });
  });
});

describe("closeTowns", () => {
  it("offers the town a typo away, the most populous first", () => {
    expect(labels("Austn")[0]).toBe("Austin, TX");
    expect(labels("Sna Antonio")[0]).toBe("San Antonio, TX");
    expect(labels("Houstn")[0]).toBe("Houston, TX");
  });

  it("prefers the state the text names", () => {
    expect(labels("austn mn")[0]).toBe("Austin, MN");
    expect(labels("Austn, TX")[0]).toBe("Austin, TX");
  });

  it("offers nothing for text too short or too far from any town", () => {
    expect(labels("ab")).toEqual([]);
    expect(labels("qqqqqqqqqqzz")).toEqual([]);
  });
});
