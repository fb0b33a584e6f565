import { describe, expect, it } from "vitest";
import { ownBuffer, slabBuffer } from "./slab";

describe("answer buffers cut from slabs", () => {
  it("gives buffers that never overlap, of the size asked", () => {
    const buffers = Array.from({ length: 200 }, (_, i) => slabBuffer(1000 + i * 37));
    buffers.forEach((b, i) => b.fill(i % 251));
    buffers.forEach((b, i) => {
      expect(b.length).toBe(1000 + i * 37);
      expect(b.every((byte) => byte === i % 251)).toBe(true);
    });
  });

  it("gives a large buffer memory of its own", () => {
    const large = slabBuffer(100_000);
    expect(large.length).toBe(100_000);
    expect(large.buffer.byteLength).toBeGreaterThanOrEqual(100_000);
  });

  it("copies a slab's buffer out before it is kept, and leaves a buffer of its own as it is", () => {
    const cut = slabBuffer(9000).fill(7);
    const kept = ownBuffer(cut);
    expect(kept.buffer).not.toBe(cut.buffer);
    expect(kept.equals(cut)).toBe(true);
    cut.fill(8);
    expect(kept[0]).toBe(7);
    const alone = Buffer.alloc(9000);
    expect(ownBuffer(alone)).toBe(alone);
  });
});
