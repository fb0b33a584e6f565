import { useEffect, useState, useSyncExternalStore, type RefObject } from "react";

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true afterwards (and at once on client-side
 * navigations). useSyncExternalStore's server snapshot keeps the hydrated markup identical to the
 * server's, so browser-only UI never causes a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * True once `ref`'s element has come within `rootMargin` of the viewport, and from then on.
 * Hidden elements (display: none, like the map behind the mobile "Map" toggle) never intersect,
 * so whatever waits on this is not even downloaded until it can be seen.
 */
export function useSeen(ref: RefObject<Element | null>, enabled: boolean, rootMargin = "200px"): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled, seen, rootMargin]);
  return seen;
}
