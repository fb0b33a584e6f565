/**
 * The page's scripts load after its first paint (docs/architecture.md "What a public page
 * downloads"). Every public page is whole in its HTML: the scripts make it interactive, nothing a
 * visitor sees waits for them. Loaded with the HTML, they shared a slow connection with the
 * stylesheet and the photos above the fold, and Chromium ran them before it painted the page, so
 * the largest paint waited for them on some loads and not on others. React Router's <Scripts> has
 * no option for when its module preloads and its module script load, so the streamed HTML holds
 * them back here: each preload becomes an inert `<link data-after-paint="modulepreload">` and the
 * module script a data block (`type="text/x-after-paint"`), and the page's own loader
 * (app/components/layout/scripts-after-paint.tsx) restores them once the first frame is painted.
 */
import { Transform } from "node:stream";

/** What the stream rewrites: React Router's tags as React renders them, and what they become. */
export const HELD_BACK: readonly (readonly [from: string, to: string])[] = [
  ['<link rel="modulepreload"', '<link data-after-paint="modulepreload" fetchpriority="low"'],
  [' type="module" async="">', ' type="text/x-after-paint">'],
];

/** The same pairs as bytes: the page is rewritten as it leaves, never decoded into a string. */
const HELD_BACK_BYTES = HELD_BACK.map(([from, to]) => [Buffer.from(from), Buffer.from(to)] as const);

/**
 * How many bytes at the end of `page` could be the start of a tag cut by the chunk's end. The tags
 * are ASCII, and no byte of a multi-byte UTF-8 character is, so a byte-wise match is a match.
 */
function heldTail(page: Buffer): number {
  let longest = 0;
  for (const [from] of HELD_BACK_BYTES) {
    for (let length = Math.min(from.length - 1, page.length); length > longest; length--) {
      if (page.subarray(page.length - length).equals(from.subarray(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/** `page` with every held-back tag replaced; the same buffer when it holds none. */
function rewrite(page: Buffer): Buffer {
  const found: { at: number; from: Buffer; to: Buffer }[] = [];
  for (const [from, to] of HELD_BACK_BYTES) {
    for (let at = page.indexOf(from); at >= 0; at = page.indexOf(from, at + from.length)) found.push({ at, from, to });
  }
  if (found.length === 0) return page;
  // The two tags cannot overlap (one starts with "<link", the other with " type="), so in order of
  // position each replacement starts after the previous one ends.
  found.sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const hit of found) {
    parts.push(page.subarray(from, hit.at), hit.to);
    from = hit.at + hit.from.length;
  }
  parts.push(page.subarray(from));
  return Buffer.concat(parts);
}

/**
 * A pass-through for the streamed HTML that holds the module preloads and the module script back
 * until the first paint. A chunk that ends in the middle of such a tag keeps that tail back until
 * the next chunk completes it. `onEnd` runs once the whole page has gone through.
 *
 * What React writes in one turn of the event loop (its 4 kB pieces: a whole page when nothing
 * suspends) leaves as one chunk, at the end of that turn or when the page ends. Every chunk costs
 * its own trip through the web stream, the response, the compressor's thread pool and the socket:
 * Brotli alone spent 2.5 ms on a results page sent in 4 kB pieces, 0.8 ms on the same page at once.
 * A page that streams (a boundary resolved later) still sends each part as soon as it is written.
 */
export function scriptsAfterFirstPaint(onEnd: () => void = () => {}): Transform {
  let pending: Buffer[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const written = () => {
    const page = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    return page;
  };
  return new Transform({
    transform(chunk: Buffer | Uint8Array, _encoding, callback) {
      // A view, not a copy: a writer never changes what it has written (streams keep chunks too).
      pending.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      scheduled ??= setImmediate(() => {
        scheduled = undefined;
        const page = written();
        const cut = page.length - heldTail(page);
        if (cut < page.length) pending.push(page.subarray(cut));
        if (cut > 0 && !this.destroyed) this.push(rewrite(page.subarray(0, cut)));
      });
      callback();
    },
    flush(callback) {
      clearImmediate(scheduled);
      scheduled = undefined;
      const page = rewrite(written());
      onEnd();
      callback(null, page.length > 0 ? page : undefined);
    },
    destroy(error, callback) {
      clearImmediate(scheduled);
      scheduled = undefined;
      pending = [];
      callback(error);
    },
  });
}
