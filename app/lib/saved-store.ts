import { useSyncExternalStore } from "react";
import { useSavedFromServer } from "./auth";

/**
 * Which facilities the visitor saved, for every save button and the header's count (ADR 023).
 * The root loader sends the slugs with each private page, so its first paint is right (a page a
 * shared cache keeps gets them from GET /api/session after load, app/lib/auth.tsx); a click changes
 * them here at once (no loader runs again), until the server next tells the list, which then
 * includes the change.
 */

interface Changes {
  /** The loader's list these changes apply to: a newer list replaces them. */
  base: readonly string[];
  saved: Map<string, boolean>;
}

let changes: Changes | undefined;
let version = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
const currentVersion = () => version;
const serverVersion = () => 0;

/** The server's list of saved slugs (empty until it is known, or on an error page). */
export function useSavedBase(): readonly string[] {
  return useSavedFromServer();
}

/** Records a save or an unsave made in this page against the loader's list it was made over. */
export function markSaved(base: readonly string[], slug: string, saved: boolean): void {
  if (changes?.base !== base) changes = { base, saved: new Map() };
  changes.saved.set(slug, saved);
  version++;
  for (const listener of listeners) listener();
}

function isIn(base: readonly string[], slug: string): boolean {
  const change = changes?.base === base ? changes.saved.get(slug) : undefined;
  return change ?? base.includes(slug);
}

export function useIsSaved(slug: string): boolean {
  const base = useSavedBase();
  useSyncExternalStore(subscribe, currentVersion, serverVersion);
  return isIn(base, slug);
}

export function useSavedCount(): number {
  const base = useSavedBase();
  useSyncExternalStore(subscribe, currentVersion, serverVersion);
  if (changes?.base !== base) return base.length;
  let count = base.length;
  for (const [slug, saved] of changes.saved) {
    if (saved && !base.includes(slug)) count++;
    if (!saved && base.includes(slug)) count--;
  }
  return count;
}
