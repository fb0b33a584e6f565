/**
 * Buffers for first answers, cut from shared slabs as Node's own pool cuts small buffers: an
 * answer of 9 kB is past that pool's limit, and an ArrayBuffer of its own per answer is a
 * `malloc`, an external allocation and a backing store the garbage collector must track and free,
 * for bytes that are sent and dropped within the request (scripts/bench-search.ts, "distinct
 * centres"). A slab lives as long as any buffer cut from it, so an answer kept for longer (the
 * answer cache) is copied out first (`ownBuffer`).
 */
const SLAB_BYTES = 256 * 1024;
/** Larger buffers get their own memory: a few of them would fill a slab. */
const MAX_SLAB_BUFFER = SLAB_BYTES / 8;

let slab = new ArrayBuffer(0);
let used = 0;

/** `size` bytes, not zeroed (as Buffer.allocUnsafe): the caller writes every one. */
export function slabBuffer(size: number): Buffer {
  if (size > MAX_SLAB_BUFFER) return Buffer.allocUnsafe(size);
  if (used + size > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const out = Buffer.from(slab, used, size);
  // Aligned to 8 bytes, as Node's pool does.
  used += (size + 7) & ~7;
  return out;
}

/** `bytes` in memory of their own, so that keeping them does not keep a whole slab. */
export function ownBuffer(bytes: Buffer): Buffer {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(bytes);
}
