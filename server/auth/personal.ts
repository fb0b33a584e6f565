import { leadFormStamp } from "../leads/action";
import { savedSlugsOf } from "../saved/pages";
import { mendedAccountMarker } from "./account-marker";
import { getViewer, isSignedIn, type Viewer } from "./viewer";
import type { AuthFlags, Personal } from "../../domain/personal";

/**
 * The person's part of a page (domain/personal.ts): a private page carries it in the root loader's
 * data; a page a shared cache keeps carries none, and the browser asks GET /api/session for it after
 * load (docs/api.md), so that the cached page is the same for everybody.
 */
export function authFlagsOf(viewer: Viewer): AuthFlags {
  return {
    hasSession: viewer.sessionId !== null,
    signedIn: isSignedIn(viewer),
    isAnonymous: viewer.isAnonymous,
    isAdmin: viewer.isAdmin,
    isOwner: viewer.isOwner,
    name: viewer.name,
  };
}

/**
 * The person's part of a page, and the Set-Cookie that mends the account marker when it says
 * otherwise than the session (server/auth/account-marker.ts).
 */
export async function personalOf(request: Request): Promise<{ personal: Personal; headers: Headers }> {
  const viewer = await getViewer(request);
  const personal: Personal = {
    auth: authFlagsOf(viewer),
    saved: await savedSlugsOf(viewer),
    formStamp: leadFormStamp(),
  };
  const headers = new Headers();
  const marker = mendedAccountMarker(request, personal.auth.signedIn);
  if (marker) headers.append("Set-Cookie", marker);
  return { personal, headers };
}
