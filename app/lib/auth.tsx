import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { ensureAnonymousSession, markSessionPresent } from "./auth-client";
import type { AuthFlags, Personal } from "../../domain/personal";

/**
 * docs/product.md section 4's auth state, for any component: whether the request had a session, who is
 * signed in and their role flags, and `loading` until the first auth result. The server decides
 * it: in the root loader's data on a private page, or, on a page a shared cache keeps (the same for
 * everybody, docs/operations.md "A shared cache in front"), from GET /api/session after load. In
 * the browser a visitor without a session then silently gets an anonymous one (at most 5 s), which
 * ends `loading` whatever the outcome.
 */
export interface AuthState extends AuthFlags {
  loading: boolean;
}

export type { Personal };

/** Nobody: no session, every flag off (also what a failed read leaves). */
export const SIGNED_OUT: AuthState = Object.freeze({
  hasSession: false,
  signedIn: false,
  isAnonymous: false,
  isAdmin: false,
  isOwner: false,
  name: null,
  loading: false,
});

const NOBODY: Personal = Object.freeze({ auth: SIGNED_OUT, saved: Object.freeze([]) as readonly string[] });

/** Asks the server who is looking (GET /api/session); nobody when it cannot say. */
async function fetchPersonal(): Promise<Personal> {
  try {
    const response = await fetch("/api/session", {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error(`GET /api/session answered ${response.status}`);
    return (await response.json()) as Personal;
  } catch (error) {
    console.warn("Could not read the session: showing the page signed out", error);
    return NOBODY;
  }
}

interface Context {
  auth: AuthState;
  saved: readonly string[];
  formStamp: string | undefined;
}

const AuthContext = createContext<Context | null>(null);

/**
 * `page` is the root loader's data: `personal` is the person, null on a shared page (asked for
 * after load, and again whenever the root loader answers, since an action may have changed it),
 * undefined on an error page rendered without the loader (nobody).
 */
export function AuthProvider({
  page,
  children,
}: {
  page: { personal: Personal | null } | undefined;
  children: ReactNode;
}) {
  const given = page === undefined ? NOBODY : page.personal;
  // The person as last told by the server in this tab: a shared page shows it while it asks again.
  // A shared page is rendered on the server, and hydrated, without anybody.
  const [known, setKnown] = useState<Personal | undefined>(given ?? undefined);
  if (given !== null && given !== known) setKnown(given);
  useEffect(() => {
    if (given !== null) return;
    let live = true;
    void fetchPersonal().then((personal) => live && setKnown(personal));
    return () => {
      live = false;
    };
  }, [page, given]);
  const personal = given ?? known;
  const told = personal !== undefined;
  const hasSession = personal?.auth.hasSession ?? false;

  const [anonymous, setAnonymous] = useState<"pending" | "ready" | "failed">("pending");
  useEffect(() => {
    if (!told) return;
    if (hasSession) {
      markSessionPresent();
      return;
    }
    let live = true;
    void ensureAnonymousSession().then((ok) => live && setAnonymous(ok ? "ready" : "failed"));
    return () => {
      live = false;
    };
  }, [told, hasSession]);

  const auth: AuthState = !personal
    ? { ...SIGNED_OUT, loading: true }
    : personal.auth.hasSession
      ? { ...personal.auth, loading: false }
      : {
          ...personal.auth,
          hasSession: anonymous === "ready",
          isAnonymous: anonymous === "ready",
          loading: anonymous === "pending",
        };
  return (
    <AuthContext.Provider value={{ auth, saved: personal?.saved ?? NOBODY.saved, formStamp: personal?.formStamp }}>
      {children}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth must be used within an AuthProvider");
  return state.auth;
}

/** The facilities the person saved, as the server last said (app/lib/saved-store.ts adds this page's clicks). */
export function useSavedFromServer(): readonly string[] {
  return useContext(AuthContext)?.saved ?? NOBODY.saved;
}

/**
 * The question form's stamp: this visitor's own once the server has told it, else the page's
 * (`fromPage`), which on a page a shared cache keeps is as old as the cached copy.
 */
export function useFormStamp(fromPage: string): string {
  return useContext(AuthContext)?.formStamp ?? fromPage;
}
