/**
 * What a page shows of the person looking at it (docs/product.md section 4): the header's auth
 * flags, the facilities they saved, and a fresh question-form stamp. The server sends it in the
 * root loader's data on a private page and from GET /api/session for a page a shared cache keeps
 * (server/auth/personal.ts); the browser shows it (app/lib/auth.tsx).
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
  saved: readonly string[];
  /**
   * A fresh "form served at" stamp for the facility page's question form (server/leads/service.ts):
   * the one in a cached page is as old as the page, which would let a bot's instant send through.
   * None on an error page.
   */
  formStamp?: string;
}
