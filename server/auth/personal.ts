import { leadFormStamp } from "../leads/action";
import { savedSlugsOf } from "../saved/pages";
import { mendedAccountMarker } from "./account-marker";
import { getViewer, isSignedIn, type Viewer } from "./viewer";

/**
 * What a page shows of the person looking at it (docs/product.md section 4): the header's auth
 * state and the saved facilities. A private page carries it in the root loader's data; a page a
 * shared cache keeps carries none, and the browser asks GET /api/session for it after load
 * (docs/api.md), so that the cached page is the same for everybody.
 */
export interface AuthFlags {
  hasSession: boolean;
  signedIn: boolean;
  isAnonymous: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  name: string | null;
}

export interface Personal {
  auth: AuthFlags;
  saved: string[];
  /**
   * A fresh "form served at" stamp for the facility page's question form (server/leads/service.ts):
   * the one in a cached page is as old as the page, which would let a bot's instant send through.
   */
  formStamp: string;
}

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
  const personal = { auth: authFlagsOf(viewer), saved: await savedSlugsOf(viewer), formStamp: leadFormStamp() };
  const headers = new Headers();
  const marker = mendedAccountMarker(request, personal.auth.signedIn);
  if (marker) headers.append("Set-Cookie", marker);
  return { personal, headers };
}
