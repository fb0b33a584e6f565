import { describe, expect, it } from "vitest";
import { AskedOnce, GENERATION_KEYS } from "./asked-once";

const key = (n: number) => JSON.stringify([30 + n / 1e5, -97 - n / 1e5, { sizes: [] }, "distance", 1, 12, 100, {}]);

describe("AskedOnce", () => {
  it("says a key was asked from its second ask on", () => {
    const asked = new AskedOnce();
    expect(asked.check(key(1))).toBe(false);
    expect(asked.check(key(1))).toBe(true);
    expect(asked.check(key(1))).toBe(true);
    expect(asked.check(key(2))).toBe(false);
  });

  it("keeps taking new keys for new under a long stream of them (it never fills)", () => {
    const asked = new AskedOnce();
    let mistaken = 0;
    const stream = 20 * GENERATION_KEYS;
    for (let n = 0; n < stream; n++) if (asked.check(key(n))) mistaken++;
    // Two bits a key, at most two generations of 12% filled bits: about 3% at worst.
    expect(mistaken / stream).toBeLessThan(0.04);
    const lastTenth = 2 * GENERATION_KEYS;
    let late = 0;
    for (let n = stream; n < stream + lastTenth; n++) if (asked.check(key(n))) late++;
    expect(late / lastTenth).toBeLessThan(0.04);
  });

  it("remembers a key through the next generation, and forgets it after two", () => {
    const asked = new AskedOnce();
    asked.check("popular");
    for (let n = 0; n < GENERATION_KEYS; n++) asked.check(key(n));
    expect(asked.check("popular")).toBe(true);
    // Two generations of new keys later (a key mistaken for an asked one adds nothing, hence the
    // margin), "once" is gone: asked again, it is new.
    const forgetful = new AskedOnce();
    forgetful.check("once");
    for (let n = 0; n < 2.2 * GENERATION_KEYS; n++) forgetful.check(key(n));
    expect(forgetful.check("once")).toBe(false);
  });
});
