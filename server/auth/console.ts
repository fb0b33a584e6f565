import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { unconfirmedEmailOf } from "../account/resend-verification";
import { getDatabase } from "../db";
import { readFlash } from "../http/flash";
import { toRouteError } from "../http/app-errors";
import { requireAdmin, requireOwner } from "./guards";
import type { SignedInViewer } from "./viewer";

/**
 * The console guards, run once per area: the layout routes of /owner/* and /admin/* export one of
 * these as their `middleware`, so it runs before every child loader and action, on document
 * requests and on client navigations (.data requests) alike. A child cannot opt out.
 *
 * The guard's viewer goes into `viewerContext`; child loaders read it with
 * `context.get(viewerContext)` instead of reading the session again. Outside a console area the
 * context is empty and `get` throws, so a route that forgot its guard fails closed (500).
 */
export const viewerContext = createContext<SignedInViewer>();

type Guard = (request: Request) => Promise<SignedInViewer>;

function consoleMiddleware(guard: Guard): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    let viewer: SignedInViewer;
    try {
      viewer = await guard(request);
    } catch (error) {
      // A redirect to the login page passes through; a 403 AppError becomes the 403 page.
      throw toRouteError(error, request, context);
    }
    context.set(viewerContext, viewer);
    return next();
  };
}

/** /owner/*: any signed-in, non-anonymous account (docs/product.md section 4). */
export const ownerConsoleMiddleware = consoleMiddleware(requireOwner);

/** /admin/*: admins only. */
export const adminConsoleMiddleware = consoleMiddleware(requireAdmin);

/**
 * What both console layouts load: the account's name for the menu, and the message a console
 * write left for the next page ("Claim approved"), shown once as a toast.
 */
export async function consoleLayoutData(request: Request, context: Readonly<RouterContextProvider>) {
  const viewer = context.get(viewerContext);
  const { flash, headers } = await readFlash(request);
  return data({ account: viewer.name || viewer.email, flash }, { headers });
}

/**
 * The owner layout's data: the above, plus the account's address while it is unconfirmed, for the
 * "Confirm your email address" banner on every owner page (docs/product.md section 10).
 */
export async function ownerLayoutData(request: Request, context: Readonly<RouterContextProvider>) {
  const viewer = context.get(viewerContext);
  const [{ flash, headers }, unconfirmedEmail] = await Promise.all([
    readFlash(request),
    unconfirmedEmailOf(getDatabase(), viewer.userId),
  ]);
  return data({ account: viewer.name || viewer.email, flash, unconfirmedEmail }, { headers });
}
