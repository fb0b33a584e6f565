/**
 * The page's module preloads at low fetch priority (docs/decisions/026-react-in-the-browser.md).
 * Every public page is whole in its HTML: the scripts make it
 * interactive, nothing a visitor sees waits for them. At the browser's default (high) priority
 * they shared a slow connection with the stylesheet and the photos above the fold. React
 * Router's <Scripts> has no prop for the links' priority, so the streamed HTML gets it here.
 */
import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/**
 * A pass-through for the streamed HTML that marks each module preload low priority. A chunk
 * that ends in the middle of such a tag keeps that tail back until the next chunk completes it.
 * `onEnd` runs once the whole page has gone through.
 */
export function lowPriorityModulePreloads(onEnd: () => void = () => {}): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = held + decoder.write(chunk);
      let cut = text.lastIndexOf("<");
      // Only a tail shorter than the tag, that the tag starts with, can be the tag cut in two.
      if (cut < 0 || text.length - cut >= PRELOAD.length || !PRELOAD.startsWith(text.slice(cut))) cut = text.length;
      held = text.slice(cut);
      callback(null, text.slice(0, cut).replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD));
    },
    flush(callback) {
      onEnd();
      callback(null, (held + decoder.end()).replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD));
    },
  });
}
