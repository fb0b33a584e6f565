import { redirect } from "react-router";
import { getDatabase } from "../db";
import { forbidden, notFound, unauthorized } from "../errors";
import { isApiRequest } from "../http/app-errors";
import { locationExists, ownsListing } from "./ownership";
import { getViewer, isSignedIn, type SignedInViewer } from "./viewer";

/**
 * The one set of server-side guards. The console areas run them once, in the middleware of their
 * layout routes (server/auth/console.ts); data-changing /api routes call them first; the header's
 * role links are cosmetic.
 *
 * Without a signed-in user: pages redirect to the login page with `redirectTo` back here, API
 * routes answer 401. Signed in without the role: a 403 AppError, which becomes the 403 page or
 * 403 JSON (server/http/app-errors.ts).
 */
export const FORBIDDEN_MESSAGE = "Your account does not have access to this page.";

/** The login page for a path: owner and business screens use the business login, the rest /login. */
export function loginPathFor(url: URL): string {
  const back = `${url.pathname}${url.search}`;
  const page = /^\/(owner|business)(\/|$)/.test(url.pathname) ? "/business/login" : "/login";
  return `${page}?redirectTo=${encodeURIComponent(back)}`;
}

function unauthenticated(request: Request): unknown {
  if (isApiRequest(request)) return unauthorized();
  return redirect(loginPathFor(new URL(request.url)));
}

export async function requireUser(request: Request): Promise<SignedInViewer> {
  const viewer = await getViewer(request, { fresh: true });
  if (!isSignedIn(viewer)) throw unauthenticated(request);
  return viewer;
}

/** Any signed-in account may use the owner console (docs/product.md section 4). */
export async function requireOwner(request: Request): Promise<SignedInViewer> {
  const viewer = await requireUser(request);
  if (!viewer.isOwner) throw forbidden(FORBIDDEN_MESSAGE);
  return viewer;
}

export async function requireAdmin(request: Request): Promise<SignedInViewer> {
  const viewer = await requireUser(request);
  if (!viewer.isAdmin) throw forbidden(FORBIDDEN_MESSAGE);
  return viewer;
}

/**
 * The listing's owner or an admin; 404 when no such location exists. Under /owner the console
 * middleware has already checked the session: pass its viewer (`context.get(viewerContext)`) so
 * the session is not read twice.
 */
export async function requireListingOwner(
  request: Request,
  locationId: string,
  viewer?: SignedInViewer,
): Promise<SignedInViewer> {
  const owner = viewer ?? (await requireOwner(request));
  if (!owner.isOwner) throw forbidden(FORBIDDEN_MESSAGE);
  const db = getDatabase();
  if (!(await locationExists(db, locationId))) throw notFound("Location not found");
  if (owner.isAdmin || (await ownsListing(db, owner.userId, locationId))) return owner;
  throw forbidden("You do not manage this listing.");
}
