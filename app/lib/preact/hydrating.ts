/**
 * Hydration state shared by the Preact shims (docs/decisions/024-preact-in-the-browser.md).
 *
 * `active` is true while the browser hydrates the server's HTML with Preact (react-dom-client.ts
 * sets it), so that useSyncExternalStore (react.ts) renders the server's snapshot first, as
 * React DOM does. `inTurns` is true once Preact hydrates the page: only then do parts of the page
 * wait for a task of their own (app/components/ui/hydrate-in-turn.tsx). React DOM, on the server
 * and in the browser, never sets it.
 */
export const hydration = { active: false, inTurns: false };
