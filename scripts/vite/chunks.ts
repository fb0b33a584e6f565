/**
 * How the browser build groups modules into chunks (docs/operations.md, "Benchmarks and page
 * budgets"). Rolldown's default makes one chunk per set of entries that import a module, and with
 * the consoles' ~50 route modules among the entries a public page fetched 30-40 small files. Here a
 * module goes to:
 * - `shell` when the root route reaches it by static imports (React, React DOM, React Router and
 *   the layout every page renders): one file every page needs anyway;
 * - its route's own chunk when one public route alone imports it;
 * - one chunk per set of the pages with budgets that import it (home, results, facility, article),
 *   the other public pages not counted: a budgeted page loads only code it runs, in a few files,
 *   and a page without a budget (compare, saved, the blog index) may load a little more;
 * - one chunk per set of public routes when no budgeted page imports it;
 * - Rolldown's default when no public route imports it statically: console-only code, and what a
 *   page imports on first use (the map, the full-screen gallery, the analytics tracker).
 * Console routes are never counted: a console page may load a public chunk, a public page never
 * loads a console-only one (bench:page checks it).
 *
 * A module's set of importing pages is a subset of each of its imports' sets, so two chunks never
 * import each other and execution order stays that of the imports without Rolldown's
 * `strictExecutionOrder` wrappers (which cost ~1.5 kB a page).
 */
import path from "node:path";
import type { ModuleInfo } from "rolldown";

/** React Router's suffix on the id of a route module in the browser build. */
const ROUTE_SUFFIX = "?__react-router-build-client-route";
const CONSOLE_ROUTE = /\/app\/routes\/(admin|owner)\//;
const ROOT_ROUTE = "root";
/** The public pages with JS budgets (scripts/bench-page.ts), by route file. */
const BUDGETED = new Set(["home", "rv-storage", "location", "blog-post"]);

type Info = (id: string) => ModuleInfo | null;

/** The entries (route modules, the client entry) that reach a module by static imports. */
function entriesReaching(id: string, info: Info): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>([id]);
  const todo = [id];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const module = info(next);
    if (!module) continue;
    if (module.isEntry) found.add(next);
    for (const importer of module.importers) {
      if (!seen.has(importer)) {
        seen.add(importer);
        todo.push(importer);
      }
    }
  }
  return found;
}

/** The route file (`root`, `routes/home`...) of a route entry, or null for another module. */
function routeOf(entry: string): string | null {
  if (!entry.endsWith(ROUTE_SUFFIX)) return null;
  const file = entry.slice(0, -ROUTE_SUFFIX.length);
  const start = file.lastIndexOf("/app/");
  if (start < 0) return null;
  const route = file.slice(start + "/app/".length);
  return route.slice(0, route.length - path.extname(route).length);
}

/** The chunk a module belongs to, or null for Rolldown's default. */
function groupOf(id: string, info: Info): string | null {
  const entries = entriesReaching(id, info);
  const routes = new Set<string>();
  for (const entry of entries) {
    const route = routeOf(entry);
    if (route === ROOT_ROUTE) return "shell";
    if (route && !CONSOLE_ROUTE.test(entry)) routes.add(route.replace("routes/", ""));
  }
  if (routes.size === 0) return null;
  // One public route and nothing else: the route's own chunk.
  if (routes.size === 1 && entries.size === 1) return null;
  const budgeted = [...routes].filter((r) => BUDGETED.has(r));
  const key = budgeted.length > 0 ? budgeted : [...routes];
  return `p-${key.sort().join("+")}`;
}

/** The `name` function of the one `codeSplitting` group (vite.config.ts). */
export function chunkGroupName(): (id: string, ctx: { getModuleInfo: Info }) => string | null {
  const names = new Map<string, string | null>();
  return (id, ctx) => {
    if (!names.has(id))
      names.set(
        id,
        groupOf(id, (m) => ctx.getModuleInfo(m)),
      );
    return names.get(id)!;
  };
}
