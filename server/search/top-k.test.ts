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

  it("only looks at the first n rows", () => {
    const rows = Uint32Array.from([5, 3, 9, 1]);
    expect([...selectTop(rows, 3, 2, (a, b) => a - b)]).toEqual([3, 5]);
    expect(selectTop(rows, 0, 2, (a, b) => a - b)).toHaveLength(0);
  });
});
