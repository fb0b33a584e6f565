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
 */
export function scriptsAfterFirstPaint(onEnd: () => void = () => {}): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = held + decoder.write(chunk);
      const cut = text.length - heldTail(text);
      held = text.slice(cut);
      callback(null, rewrite(text.slice(0, cut)));
    },
    flush(callback) {
      onEnd();
      callback(null, rewrite(held + decoder.end()));
    },
  });
}
