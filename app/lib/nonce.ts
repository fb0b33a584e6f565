import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the response being rendered (set by app/entry.server.tsx).
 * Inline bootstrap scripts carry it; in the browser it is empty and not needed.
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
