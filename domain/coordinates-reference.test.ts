import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCoordinates } from "./coordinates";

/**
 * The single pattern parseCoordinates used before it was split into parts: correct, but with
 * `\s*` on both sides of optional pieces it backtracks for minutes on a long line of spaces.
 * Kept here as the reference the parser must agree with, on strings short enough to be safe.
 */
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const PART = String.raw`(${NUMBER})\s*°?\s*([NSEWnsew])?`;
const REFERENCE = new RegExp(String.raw`^\s*[(\[]?\s*${PART}\s*(?:,\s*|\s+)${PART}\s*[)\]]?\s*$`);

function referenceParts(text: string): [string, string | undefined, string, string | undefined] | undefined {
  const m = REFERENCE.exec(text);
  return m ? [m[1] ?? "", m[2], m[3] ?? "", m[4]] : undefined;
}

/** What the parser reads, in the reference's terms: the two numbers and hemisphere letters. */
function parsedAsReference(text: string) {
  const parts = referenceParts(text);
  if (!parts) return undefined;
  const [a, aHemi, b, bHemi] = parts;
  const hemisphere = (value: number, h: string | undefined) =>
    h === undefined ? value : value < 0 ? undefined : /[SWsw]/.test(h) ? -value : value;
  let first = hemisphere(Number(a), aHemi);
  let second = hemisphere(Number(b), bHemi);
  if (first === undefined || second === undefined) return undefined;
  const is = (h: string | undefined, letters: RegExp) => h !== undefined && letters.test(h);
  if (is(aHemi, /[NSns]/) && is(bHemi, /[NSns]/)) return undefined;
  if (is(aHemi, /[EWew]/) && is(bHemi, /[EWew]/)) return undefined;
  if (is(aHemi, /[EWew]/) || is(bHemi, /[NSns]/)) [first, second] = [second, first];
  const lat = first + 0;
  const lng = second + 0;
  const valid = Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  return valid ? { lat, lng } : undefined;
}

/** Short strings over the characters the grammar cares about, so that most are near misses. */
const nearMiss = fc
  .array(fc.constantFrom(..."0123456789.+-eE,°NSEWnsew ()[]\t\nx".split(""), "12", "3.5", ", ", " N"), {
    maxLength: 14,
  })
  .map((pieces) => pieces.join(""));

/** Strings built from the grammar's pieces, each piece sometimes wrong, so that many parse. */
const space = fc.constantFrom("", " ", "  ", "\t", "\n");
const part = fc
  .tuple(
    fc.constantFrom("30.27", "-97.74", "1e5", "1e-7", ".5", "5.", "+2", "91", "e", ""),
    space,
    fc.constantFrom("", "°"),
    space,
    fc.constantFrom("", "N", "s", "E", "w", "x"),
  )
  .map((pieces) => pieces.join(""));
const grammatical = fc
  .tuple(
    space,
    fc.constantFrom("", "(", "["),
    space,
    part,
    fc.constantFrom(",", " ", ", ", " , ", "", ",,", "\t"),
    part,
    space,
    fc.constantFrom("", ")", "]"),
    space,
  )
  .map((pieces) => pieces.join(""));

describe("parseCoordinates against the former single pattern", () => {
  it("accepts and reads exactly what the former pattern did", () => {
    fc.assert(
      fc.property(nearMiss, (text) => {
        expect(parseCoordinates(text)).toEqual(parsedAsReference(text));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(grammatical, (text) => {
        expect(parseCoordinates(text)).toEqual(parsedAsReference(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("agrees on hand-picked edge cases", () => {
    for (const text of [
      "30 40",
      "3040",
      "30N40",
      "30°40",
      "30 ° N 97 ° W",
      "1e5 2",
      "1e 5",
      "1e,5",
      "30. ,40.",
      "( 30 , 40 ]",
      "[30 40",
      "30 40)",
      "30,,40",
      "30 , , 40",
      "(",
      "()",
      "30\n40",
      "30 N , 40 E",
    ]) {
      expect(parseCoordinates(text), text).toEqual(parsedAsReference(text));
    }
  });
});
