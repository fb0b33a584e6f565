import { isRole, roleFlags, type Role } from "../../domain/roles";
import { isDatabaseUnavailable } from "../db/errors";
import { databaseUnavailable } from "../errors";
import { logger } from "../logger";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX, getAuth } from "./auth";

/**
 * Who is asking, per docs/product.md section 4. No session at all: a visitor (or a bot). An anonymous
 * session: no user, not admin, not owner, anonymous flag set. A signed-in user gets the flags of
 * their stored role; an unknown role, a missing record or a failed read turns everything off.
 */
export interface Viewer {
  /** The auth session id; null when the request carries no valid session. */
  sessionId: string | null;
  /** The account id (anonymous sessions have one too, for analytics); null without a session. */
  userId: string | null;
  isAnonymous: boolean;
  role: Role | null;
  isAdmin: boolean;
  isOwner: boolean;
  email: string | null;
  name: string | null;
}

export type SignedInViewer = Viewer & { sessionId: string; userId: string; role: Role; email: string };

export const NO_VIEWER: Viewer = Object.freeze({
  sessionId: null,
  userId: null,
  isAnonymous: false,
  role: null,
  isAdmin: false,
  isOwner: false,
  email: null,
  name: null,
});

export function isSignedIn(viewer: Viewer): viewer is SignedInViewer {
  return viewer.sessionId !== null && !viewer.isAnonymous && viewer.role !== null;
}

interface SessionUser {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  isAnonymous?: boolean | null;
  banned?: boolean | null;
}

export function viewerFrom(session: { session: { id: string }; user: SessionUser } | null): Viewer {
  if (!session) return NO_VIEWER;
  const { user } = session;
  if (user.isAnonymous) return { ...NO_VIEWER, sessionId: session.session.id, userId: user.id, isAnonymous: true };
  if (user.banned || !isRole(user.role)) return { ...NO_VIEWER };
  return {
    sessionId: session.session.id,
    userId: user.id,
    isAnonymous: false,
    role: user.role,
    ...roleFlags(user.role),
    email: user.email,
    name: user.name,
  };
}

const memo = new WeakMap<Request, Promise<Viewer>>();

/**
 * The viewer of one request, read once per request. `fresh` skips the 60 s signed cookie copy of
 * the session (guards use it, so a role change or a sign-out elsewhere applies at once).
 */
export function getViewer(request: Request, { fresh = false }: { fresh?: boolean } = {}): Promise<Viewer> {
  const cached = memo.get(request);
  if (cached && !fresh) return cached;
  // No session cookie, no session: most visitors, and every crawler, are answered without asking
  // the auth library (which would parse the headers, build its context and find nothing).
  if (!getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) return Promise.resolve(NO_VIEWER);
  const pending = getAuth()
    .api.getSession({ headers: request.headers, query: { disableCookieCache: fresh } })
    .then(viewerFrom, (error: unknown) => {
      // A guard must not send a signed-in visitor to the sign-in form because the database is
      // down: that is a 503 (docs/operations.md, "When the database is unreachable"). Public pages
      // go on as signed out.
      if (fresh && isDatabaseUnavailable(error)) throw databaseUnavailable();
      logger.error({ err: error }, "could not read the session: treating the request as signed out");
      return NO_VIEWER;
    });
  memo.set(request, pending);
  return pending;
}
