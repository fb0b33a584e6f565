/**
 * The browser side of sessions, without better-auth's client library (bytes matter on a phone).
 * docs/product.md section 4: when nobody is signed in, the browser silently gets an anonymous session,
 * waiting at most 5 seconds; failures are logged and leave the visitor without a session.
 */
export const ANONYMOUS_SIGN_IN_WAIT_MS = 5_000;

let ready: Promise<boolean> | undefined;
let known = false;

/** The server rendered this page for a request that already had a session. */
export function markSessionPresent(): void {
  known = true;
  ready = Promise.resolve(true);
}

export function hasAuthSession(): boolean {
  return known;
}

/** Starts (once) the anonymous sign-in and resolves true when a session exists. */
export function ensureAnonymousSession(): Promise<boolean> {
  ready ??= fetch("/api/auth/sign-in/anonymous", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
    credentials: "same-origin",
    signal: AbortSignal.timeout(ANONYMOUS_SIGN_IN_WAIT_MS),
  }).then(
    (response) => {
      known = response.ok;
      if (!response.ok) console.warn(`Anonymous sign-in was refused (${response.status})`);
      return response.ok;
    },
    (error: unknown) => {
      console.warn("Anonymous sign-in failed", error);
      return false;
    },
  );
  return ready;
}

/** Resolves true once a session exists, polling every 100 ms; false after `timeoutMs` without one. */
export function waitForAuthSession(timeoutMs: number, pollMs = 100): Promise<boolean> {
  if (known) return Promise.resolve(true);
  return new Promise((resolve) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (known || Date.now() - started >= timeoutMs) {
        clearInterval(timer);
        resolve(known);
      }
    }, pollMs);
  });
}
