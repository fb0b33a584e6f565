import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { ensureAnonymousSession, markSessionPresent } from "./auth-client";

/**
 * docs/product.md section 4's auth state, for any component: whether the request had a session, who is
 * signed in and their role flags, and `loading` until the first auth result. The server decides
 * it (the root loader); in the browser a visitor without a session then silently gets an
 * anonymous one (at most 5 s), which ends `loading` whatever the outcome.
 */
export interface AuthState {
  hasSession: boolean;
  signedIn: boolean;
  isAnonymous: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  name: string | null;
  loading: boolean;
}

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

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ initial, children }: { initial: Omit<AuthState, "loading">; children: ReactNode }) {
  const [anonymous, setAnonymous] = useState<"pending" | "ready" | "failed">(initial.hasSession ? "ready" : "pending");
  useEffect(() => {
    if (initial.hasSession) {
      markSessionPresent();
      return;
    }
    let live = true;
    void ensureAnonymousSession().then((ok) => live && setAnonymous(ok ? "ready" : "failed"));
    return () => {
      live = false;
    };
  }, [initial.hasSession]);
  const value: AuthState = initial.hasSession
    ? { ...initial, loading: false }
    : {
        ...initial,
        hasSession: anonymous === "ready",
        isAnonymous: anonymous === "ready",
        loading: anonymous === "pending",
      };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth must be used within an AuthProvider");
  return state;
}
