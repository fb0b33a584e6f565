import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldName, foldPrefix } from "./normalize";

describe("foldName", () => {
  it("lower-cases, strips diacritics and punctuation, collapses whitespace", () => {
    expect(foldName("  Cañon   City ")).toBe("canon city");
    expect(foldName("Coeur d'Alene")).toBe("coeur dalene");
    expect(foldName("Winston-Salem")).toBe("winston salem");
    expect(foldName("‘Ewa Beach")).toBe("ewa beach");
    expect(foldName("Española")).toBe("espanola");
    expect(foldName("Straße")).toBe("strasse");
    expect(foldName("!!!")).toBe("");
  });

  it("folds Saint/St., Fort/Ft., Mount/Mt. and Mc to one form", () => {
    expect(foldName("Saint Louis")).toBe(foldName("St. Louis"));
    expect(foldName("st louis")).toBe(foldName("ST LOUIS"));
    expect(foldName("Fort Worth")).toBe(foldName("Ft. Worth"));
    expect(foldName("Ft Worth")).toBe("ft worth");
    expect(foldName("Mount Vernon")).toBe(foldName("Mt. Vernon"));
    expect(foldName("Sainte Genevieve")).toBe(foldName("Ste. Genevieve"));
    expect(foldName("Mc Lean")).toBe(foldName("McLean"));
    // Only whole words: Fortuna, Mountain View and Stockton keep their letters.
    expect(foldName("Fortuna")).toBe("fortuna");
    expect(foldName("Mountain View")).toBe("mountain view");
    expect(foldName("Stockton")).toBe("stockton");
  });

  it("is idempotent", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => foldName(foldName(s)) === foldName(s)));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("saint", "St.", "fort", "Ft", "mount", "MT.", "mc", "Mc", "sainte", "x", "Lake"), {
          maxLength: 6,
        }),
        (words) => {
          const once = foldName(words.join(" "));
          return foldName(once) === once;
        },
      ),
    );
  });

  it("is case-insensitive", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const folded = foldName(s);
        return foldName(s.toUpperCase()) === folded && foldName(s.toLowerCase()) === folded;
      }),
    );
  });

  it("only yields lower-case letters, digits and single inner spaces", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => /^(?:[a-z0-9]+(?: [a-z0-9]+)*)?$/.test(foldName(s))));
  });

  it("ignores diacritics", () => {
    const accented = fc.constantFrom(..."àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÉÎÕÜÇÑ");
    const plain = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ");
    fc.assert(
      fc.property(fc.array(fc.oneof(accented, plain), { maxLength: 20 }), (chars) => {
        const s = chars.join("");
        const stripped = s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
        return foldName(s) === foldName(stripped);
      }),
    );
  });
});

describe("foldPrefix", () => {
  it("keeps an unfinished last word unabbreviated and offers the abbreviation", () => {
    expect(foldPrefix("saint lou")).toEqual({ key: "st lou", complete: false, expansions: [] });
    expect(foldPrefix("sain")).toEqual({ key: "sain", complete: false, expansions: ["st ", "ste "] });
    expect(foldPrefix("Mount")).toEqual({ key: "mount", complete: false, expansions: ["mt "] });
    expect(foldPrefix("for")).toEqual({ key: "for", complete: false, expansions: ["ft "] });
  });

  it("marks a finished last word", () => {
    expect(foldPrefix("austin ")).toEqual({ key: "austin", complete: true, expansions: [] });
    expect(foldPrefix("st.")).toEqual({ key: "st", complete: true, expansions: [] });
    expect(foldPrefix("mc ").complete).toBe(false);
  });
});
