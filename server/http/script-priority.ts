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
import { StringDecoder } from "node:string_decoder";

/** What the stream rewrites: React Router's tags as React renders them, and what they become. */
export const HELD_BACK: readonly (readonly [from: string, to: string])[] = [
  ['<link rel="modulepreload"', '<link data-after-paint="modulepreload" fetchpriority="low"'],
  [' type="module" async="">', ' type="text/x-after-paint">'],
];

/** How many characters at the end of `text` could be the start of a tag cut by the chunk's end. */
function heldTail(text: string): number {
  let longest = 0;
  for (const [from] of HELD_BACK) {
    for (let length = Math.min(from.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(from.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

const rewrite = (text: string) => HELD_BACK.reduce((page, [from, to]) => page.replaceAll(from, to), text);

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
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let scheduled: NodeJS.Immediate | undefined;
  /** The text written so far, rewritten, without a tail that could be the start of a held-back tag. */
  const take = (): string => {
    const cut = pending.length - heldTail(pending);
    const out = rewrite(pending.slice(0, cut));
    pending = pending.slice(cut);
    return out;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending += decoder.write(chunk);
      scheduled ??= setImmediate(() => {
        scheduled = undefined;
        const out = take();
        if (out && !this.destroyed) this.push(out);
      });
      callback();
    },
    flush(callback) {
      clearImmediate(scheduled);
      scheduled = undefined;
      pending += decoder.end();
      const out = rewrite(pending);
      pending = "";
      onEnd();
      callback(null, out);
    },
    destroy(error, callback) {
      clearImmediate(scheduled);
      scheduled = undefined;
      callback(error);
    },
  });
}
