import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectTop } from "./top-k";

describe("selectTop", () => {
  it("equals the first k of a full sort (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 400 }), fc.nat(500), (keys, k) => {
        const rows = Uint32Array.from(keys.keys());
        const compare = (a: number, b: number) => keys[a]! - keys[b]! || a - b;
        const expected = [...rows].sort(compare).slice(0, k);
        expect([...selectTop(rows, rows.length, k, compare)]).toEqual(expected);
      }),
    );
  });

  it("equals it too when rows are passed over by a coarser key (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(60),
        (values, coarse, k) => {
          const rows = Uint32Array.from(values.keys());
          const compare = (a: number, b: number) => values[a]! - values[b]! || a - b;
          // Coarser than the comparator: many ties, which the comparator decides.
          const keys = Float64Array.from(values, (v) => Math.floor(v / coarse));
          const expected = [...rows].sort(compare).slice(0, k);
          expect([...selectTop(rows, rows.length, k, compare, keys)]).toEqual(expected);
        },
      ),
    );
  });

  it("only looks at the first n rows", () => {
    const rows = Uint32Array.from([5, 3, 9, 1]);
    expect([...selectTop(rows, 3, 2, (a, b) => a - b)]).toEqual([3, 5]);
    expect(selectTop(rows, 0, 2, (a, b) => a - b)).toHaveLength(0);
  });
});
