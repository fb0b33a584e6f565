import { useEffect } from "react";
import { ensureAnonymousSession, markSessionPresent } from "../../lib/auth-client";

/** Gives a visitor without a session an anonymous one, once, after the page is interactive. */
export function AnonymousSession({ hasSession }: { hasSession: boolean }) {
  useEffect(() => {
    if (hasSession) markSessionPresent();
    else void ensureAnonymousSession();
  }, [hasSession]);
  return null;
}
