/**
 * True while the browser hydrates the server's HTML with Preact (react-dom-client.ts sets it), so
 * that useSyncExternalStore (react.ts) renders the server's snapshot first, as React DOM does.
 */
export const hydration = { active: false };
