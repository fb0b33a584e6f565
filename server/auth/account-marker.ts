import { getConfig, publicUrl } from "../config";

/**
 * The account marker (docs/operations.md, "A shared cache in front"): a cookie that says "this
 * browser is signed in to an account", so that a shared cache in front of the site passes its
 * requests on instead of answering them with the page every anonymous visitor gets. It holds no
 * secret and grants nothing: the session cookie does that. Every visitor has a session (an
 * anonymous one at least), so the session cookie cannot tell the cache who is signed in.
 *
 * It is written when an account signs in and cleared when it signs out, and mended whenever the
 * site reads a session and finds the marker wrong (server/auth/personal.ts): a browser whose
 * marker went missing gets the anonymous page once, and its header after load.
 */
export const ACCOUNT_COOKIE = "rvs_account";

/** A day past the longest session ("Keep me signed in": 30 days): it never ends before a session it marks. */
const MARKER_MAX_AGE = 31 * 24 * 60 * 60;

function secureCookies(): boolean {
  return publicUrl(getConfig()).startsWith("https://");
}

/** The Set-Cookie value that marks (or, with false, unmarks) this browser as signed in. */
export function accountMarkerCookie(signedIn: boolean): string {
  const attributes = `Path=/; SameSite=Lax; HttpOnly${secureCookies() ? "; Secure" : ""}`;
  return signedIn
    ? `${ACCOUNT_COOKIE}=1; Max-Age=${MARKER_MAX_AGE}; ${attributes}`
    : `${ACCOUNT_COOKIE}=; Max-Age=0; ${attributes}`;
}

/** Whether a Cookie header carries the marker. Linear in the header's length. */
export function hasAccountMarker(header: string | null | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq >= 0 && part.slice(0, eq).trim() === ACCOUNT_COOKIE) return true;
  }
  return false;
}

/** The Set-Cookie that corrects the marker of a request whose session says `signedIn`, if it is wrong. */
export function mendedAccountMarker(request: Request, signedIn: boolean): string | undefined {
  const marked = hasAccountMarker(request.headers.get("cookie"));
  return marked === signedIn ? undefined : accountMarkerCookie(signedIn);
}
