/**
 * Where to send a person after signing in (`redirectTo`). The target comes from a query string or
 * a form, so anyone can craft it: it must never take the browser to another site. Browsers strip
 * tab, CR and LF from a URL before parsing it and read `\` as `/`, so `/%09/evil.example` or
 * `/\t/evil.example` would land on `//evil.example`. We therefore parse the target the way a
 * browser does (the WHATWG URL parser), require this site's origin, refuse the characters
 * browsers rewrite, and answer only the path, query and fragment. docs/operations.md, "Sign-in,
 * sign-up and redirects".
 */
export const REDIRECT_MAX_LENGTH = 2_000;

/**
 * The origin a target is resolved against. Only the path, query and fragment are kept, so the
 * answer is the same for any origin, ours included: callers need not pass theirs.
 */
const RESOLVING_ORIGIN = "http://redirect.invalid";

// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and backslashes.
// eslint-disable-next-line no-control-regex -- these very characters are what must be refused
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/;
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/g;
/** How many layers of percent-encoding we unwrap; a target wrapped deeper is refused. */
const MAX_DECODE_ROUNDS = 4;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * One round of percent-decoding that never throws: a malformed escape stays as it is, and bytes
 * that are not UTF-8 become U+FFFD (which is harmless).
 */
function percentDecode(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  let last = 0;
  for (const match of value.matchAll(PERCENT_ESCAPE)) {
    bytes.push(...utf8.encode(value.slice(last, match.index)));
    bytes.push(Number.parseInt(match[0].slice(1), 16));
    last = match.index + match[0].length;
  }
  bytes.push(...utf8.encode(value.slice(last)));
  return fromUtf8.decode(new Uint8Array(bytes));
}

/**
 * Whether the target, raw or with any layer of percent-encoding removed, holds a forbidden
 * character or begins like a reference to another host (`//`). Another server or framework
 * along the way may decode once more, so every layer counts.
 */
function smuggles(target: string): boolean {
  let current = target;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (FORBIDDEN.test(current) || current.startsWith("//")) return true;
    const next = percentDecode(current);
    if (next === current) return false;
    current = next;
  }
  return true;
}

/** `target` if it is a path on this site (made canonical by the URL parser), else `fallback`. */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > REDIRECT_MAX_LENGTH) return fallback;
  if (!target.startsWith("/") || smuggles(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, RESOLVING_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== RESOLVING_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can collapse into a leading `//` (`/.//evil.example` has the path `//evil.example`),
  // which a browser would read as another host.
  if (!path.startsWith("/") || path.length > REDIRECT_MAX_LENGTH || smuggles(path)) return fallback;
  return path;
}
