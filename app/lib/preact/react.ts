/**
 * `react` in the browser build: preact/compat with our own useSyncExternalStore
 * (docs/decisions/024-preact-in-the-browser.md). Only vite.config.ts points at this module.
 *
 * Preact's own version decides "server snapshot or not" from a module variable that a render
 * which throws (React Router's root suspends while it decodes the loader data) leaves set: every
 * later render then read the server snapshot, saw it differ from the store, and rendered again,
 * forever (the facility page's business hours froze the tab). This one reads the server snapshot
 * only in the first, hydrating render of a component, and the store's own snapshot after that.
 */
import compat, { useEffect, useLayoutEffect, useRef, useState } from "preact/compat";
import { hydration } from "./hydrating";

// @ts-expect-error -- preact/compat's types say `export =`; the module itself is ESM.
export * from "preact/compat";

export function useSyncExternalStore<T>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => T,
  getServerSnapshot?: () => T,
): T {
  // Whether this component still shows the server's snapshot: set at its first render, cleared
  // once it has hydrated. A ref, not state, so that clearing it renders nothing by itself.
  const fromServerRef = useRef<boolean | undefined>(undefined);
  /* eslint-disable react-hooks/refs -- this is the hook itself: the flag is read while rendering, as React DOM reads its own. */
  fromServerRef.current ??= hydration.active && getServerSnapshot !== undefined;
  const value = fromServerRef.current && getServerSnapshot ? getServerSnapshot() : getSnapshot();
  /* eslint-enable react-hooks/refs */
  const [, setRenders] = useState(0);
  const latestRef = useRef({ value, getSnapshot });
  useLayoutEffect(() => {
    latestRef.current = { value, getSnapshot };
  });
  useEffect(() => {
    // Hydrated: from now on the store's own snapshot, as React DOM does after hydration. A
    // component whose server snapshot equals the store's renders no second time.
    fromServerRef.current = false;
    const check = () => {
      const latest = latestRef.current;
      if (!Object.is(latest.value, latest.getSnapshot())) setRenders((n) => n + 1);
    };
    check();
    return subscribe(check);
  }, [subscribe]);
  return value;
}

export default { ...compat, useSyncExternalStore };
