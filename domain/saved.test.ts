import { describe, expect, it } from "vitest";
import { MAX_COMPARE_IDS_LENGTH, compareHref, parseCompareIds } from "./saved";

const parse = (query: string) => parseCompareIds(new URLSearchParams(query));

describe("parseCompareIds", () => {
  it("takes 2 to 4 ids, comma-separated or repeated, trimmed and without duplicates", () => {
    expect(parse("ids=aaa,bbb,ccc")).toEqual({ ok: true, ids: ["aaa", "bbb", "ccc"] });
    expect(parse("ids=aaa&ids=bbb")).toEqual({ ok: true, ids: ["aaa", "bbb"] });
    expect(parse("ids=%20aaa%20,bbb,aaa,")).toEqual({ ok: true, ids: ["aaa", "bbb"] });
  });

  it("names what is wrong", () => {
    expect(parse("")).toEqual({ ok: false, message: "Pick 2 to 4 facilities to compare (none given)." });
    expect(parse("ids=aaa,aaa")).toEqual({ ok: false, message: "Pick 2 to 4 facilities to compare (only one given)." });
    expect(parse("ids=a,b,c,d,e")).toEqual({ ok: false, message: "Compare at most 4 facilities at a time (5 given)." });
    expect(parse("ids=aaa,b%3Cc")).toEqual({ ok: false, message: '"b<c" is not a facility id.' });
    expect(parse(`ids=${"a".repeat(MAX_COMPARE_IDS_LENGTH + 1)}`)).toMatchObject({ ok: false });
  });
});

describe("compareHref", () => {
  it("keeps the place and the RV, and the commas readable", () => {
    const keep = new URLSearchParams("lat=30.2&lng=-97.7&rvLength=40&page=3");
    expect(compareHref(["a1", "b2"], keep)).toBe("/compare?ids=a1,b2&lat=30.2&lng=-97.7&rvLength=40");
  });
});
