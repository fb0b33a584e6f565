import { CACHE_PURGE_PATH_MAX } from "../db/schema/cache-purges";

export { CACHE_PURGE_PATH_MAX };

/** The longest text the admin form takes: a path at its longest, after an origin. */
export const PURGE_INPUT_MAX = CACHE_PURGE_PATH_MAX + 200;

export type PurgePathResult = { ok: true; path: string } | { ok: false; message: string };

const count = (n: number) => n.toLocaleString("en-US");

/** The first control character (C0, DEL or C1) in `text`, as U+XXXX with its place; a linear scan. */
function controlCharacter(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code < 0xa0))
      return `U+${code.toString(16).toUpperCase().padStart(4, "0")} at character ${count(i + 1)}`;
  }
  return undefined;
}

/**
 * What an administrator typed into "Purge a page from the shared cache", as the path to refresh:
 * a path (`/location/some-slug`, a query kept: the cache keeps each query apart) or a full address
 * of this site (`https://rvstorage.example/location/some-slug`), resolved as a browser would
 * (dot segments, percent-encoding) and reduced to its path and query; a fragment never reaches a
 * server and is dropped. Anything else is refused with a message that names the problem.
 *
 * @param origin this site's origin (PUBLIC_URL's), the only one whose pages the cache holds.
 */
export function purgePathFrom(input: string, origin: string): PurgePathResult {
  const text = input.trim();
  if (text === "") return { ok: false, message: `Enter a path such as /location/… or an address on ${origin}.` };
  if (text.length > PURGE_INPUT_MAX)
    return {
      ok: false,
      message: `This is ${count(text.length)} characters long; a page's address has at most ${count(CACHE_PURGE_PATH_MAX)}.`,
    };
  const control = controlCharacter(text);
  if (control)
    return { ok: false, message: `This contains a control character (${control}); type the address on one line.` };
  const isPath = text.startsWith("/") && !text.startsWith("//");
  const isAddress = /^https?:\/\//i.test(text);
  if (!isPath && !isAddress) {
    if (text.startsWith("//"))
      return { ok: false, message: `This is an address on another site; only pages of ${origin} can be purged.` };
    return {
      ok: false,
      message: `This is neither a path (starting with /) nor an address starting with http:// or https://.`,
    };
  }
  let url: URL;
  try {
    url = new URL(text, origin);
  } catch {
    return { ok: false, message: "This is not a web address that can be read." };
  }
  // Checked on the resolved address: "/\evil.example" is a path only to the eye.
  if (url.origin !== origin)
    return {
      ok: false,
      message: `This is an address on another site (${url.host}); only pages of ${origin} can be purged.`,
    };
  const path = `${url.pathname}${url.search}`;
  if (path.length > CACHE_PURGE_PATH_MAX)
    return {
      ok: false,
      message: `This path is ${count(path.length)} characters long once encoded; a page's address has at most ${count(CACHE_PURGE_PATH_MAX)}.`,
    };
  return { ok: true, path };
}

/**
 * The requests that hold a page in the cache: the page, and for a React Router page the data
 * request a client-side navigation makes for it (`/location/x.data`, `/_root.data` for home),
 * which the cache keeps too. Files (a dot in the last segment: `/sitemap.xml`) and data requests
 * have no second form.
 */
export function refreshTargets(path: string): string[] {
  const queryAt = path.indexOf("?");
  const pathname = queryAt < 0 ? path : path.slice(0, queryAt);
  const search = queryAt < 0 ? "" : path.slice(queryAt);
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  if (last.includes(".")) return [path];
  const trimmed = pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return [path, `${trimmed === "" ? "/_root" : trimmed}.data${search}`];
}
