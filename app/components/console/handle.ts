import type { UIMatch } from "react-router";

/**
 * What a console route puts in its `handle` export. `breadcrumb` names the route in the trail
 * above the page title: a string, or a function of the route's match (its loader data, params
 * and id), e.g. `{ breadcrumb: (match) => (match.data as { name: string }).name }`.
 * A route without one is left out of the trail.
 */
export interface ConsoleHandle {
  breadcrumb?: string | ((match: UIMatch<unknown, unknown>) => string | undefined);
}

export interface Crumb {
  label: string;
  to: string;
}

/** The trail for these matches, outermost first; consecutive crumbs to the same place collapse. */
export function breadcrumbsOf(matches: readonly UIMatch<unknown, unknown>[]): Crumb[] {
  const crumbs: Crumb[] = [];
  for (const match of matches) {
    const spec = (match.handle as ConsoleHandle | undefined)?.breadcrumb;
    const label = typeof spec === "function" ? spec(match) : spec;
    if (!label) continue;
    crumbs.push({ label, to: match.pathname.replace(/(.)\/$/, "$1") });
  }
  return crumbs;
}
