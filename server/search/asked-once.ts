/**
 * Which queries were asked before, approximately, in bounded memory (GET /api/search keeps an
 * answer from a query's second ask: server/search/endpoint.ts).
 *
 * A Bloom filter with two bits per key, in generations: a key counts as asked when the current
 * generation or the one before holds it, and once GENERATION_KEYS new keys have gone into the
 * current one it becomes the previous and a fresh one starts. So the filter never fills: at most
 * 2 x GENERATION_KEYS keys are held, and a new key is taken for an asked one about 3% of the time.
 * A single filter that never emptied filled up under a stream of new map centres (two thirds of its
 * bits set after 70,000 of them), and then kept most first asks as if they were second ones: memory
 * for answers nobody asks again, which the garbage collector then walks.
 */
export class AskedOnce {
  private current = new Uint8Array(BITS / 8);
  // No generation before the first: an empty one shared by every filter (only `current` is written),
  // so a filter made afresh at each change of the index costs one array, not two.
  private previous = NO_KEYS;
  private added = 0;

  /** Whether `key` was asked before (in about the last GENERATION_KEYS to 2x that new keys); marks it asked. */
  check(key: string): boolean {
    // FNV-1a over the UTF-16 units, then a second hash mixed from the first.
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const a = h >>> SHIFT;
    let g = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    g = Math.imul(g ^ (g >>> 13), 0xc2b2ae35);
    const b = (g ^ (g >>> 16)) >>> SHIFT;
    const asked = (has(this.current, a) && has(this.current, b)) || (has(this.previous, a) && has(this.previous, b));
    if (!asked) {
      set(this.current, a);
      set(this.current, b);
      if (++this.added >= GENERATION_KEYS) {
        this.previous = this.current;
        this.current = new Uint8Array(BITS / 8);
        this.added = 0;
      }
    }
    return asked;
  }
}

/** Bits per generation: 256 kbit, 32 kB. */
const BITS_LOG2 = 18;
const BITS = 1 << BITS_LOG2;
const SHIFT = 32 - BITS_LOG2;
/** New keys per generation: two bits each leave about 12% of the bits set when it is full. */
export const GENERATION_KEYS = 16_384;
const NO_KEYS = new Uint8Array(BITS / 8);

const has = (bits: Uint8Array, bit: number) => ((bits[bit >>> 3]! >>> (bit & 7)) & 1) === 1;
const set = (bits: Uint8Array, bit: number) => {
  bits[bit >>> 3]! |= 1 << (bit & 7);
};
