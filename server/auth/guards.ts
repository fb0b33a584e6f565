import { data, redirect } from "react-router";
import { getDatabase } from "../db";
import { locationExists, ownsListing } from "./ownership";
import { getViewer, isSignedIn, type SignedInViewer } from "./viewer";

/**
 * The one set of server-side guards. Every loader, action and API route under /admin, /owner and
 * every data-changing /api route calls one of them first; the header's role links are cosmetic.
 *
 * Without a signed-in user: pages redirect to the login page with `redirectTo` back here, API
 * routes answer 401. Signed in without the role: the 403 page, or 403 JSON for API routes.
 */
export const FORBIDDEN_MESSAGE = "Your account does not have access to this page.";

function isApi(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

/** The login page for a path: owner and business screens use the business login, the rest /login. */
export function loginPathFor(url: URL): string {
  const back = `${url.pathname}${url.search}`;
  const page = /^\/(owner|business)(\/|$)/.test(url.pathname) ? "/business/login" : "/login";
  return `${page}?redirectTo=${encodeURIComponent(back)}`;
}

function unauthenticated(request: Request): Response {
  if (isApi(request)) return Response.json({ error: "Sign in to do this." }, { status: 401 });
  return redirect(loginPathFor(new URL(request.url)));
}

function forbidden(request: Request, message = FORBIDDEN_MESSAGE): never {
  if (isApi(request)) throw Response.json({ error: message }, { status: 403 });
  throw data(message, { status: 403 });
}

export async function requireUser(request: Request): Promise<SignedInViewer> {
  const viewer = await getViewer(request, { fresh: true });
  if (!isSignedIn(viewer)) throw unauthenticated(request);
  return viewer;
}

export async function requireOwner(request: Request): Promise<SignedInViewer> {
  const viewer = await requireUser(request);
  if (!viewer.isOwner) forbidden(request);
  return viewer;
}

export async function requireAdmin(request: Request): Promise<SignedInViewer> {
  const viewer = await requireUser(request);
  if (!viewer.isAdmin) forbidden(request);
  return viewer;
}

/** The listing's owner or an admin; 404 when no such location exists. */
export async function requireListingOwner(request: Request, locationId: string): Promise<SignedInViewer> {
  const viewer = await requireOwner(request);
  const db = getDatabase();
  if (!(await locationExists(db, locationId))) {
    if (isApi(request)) throw Response.json({ error: "Location not found" }, { status: 404 });
    throw data("Location not found", { status: 404 });
  }
  if (viewer.isAdmin || (await ownsListing(db, viewer.userId, locationId))) return viewer;
  return forbidden(request, "You do not manage this listing.");
}
