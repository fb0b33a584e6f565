import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the response being rendered (set by app/entry.server.tsx).
 * Inline bootstrap scripts carry it; a page a shared cache keeps has none (its scripts are allowed
 * by their hashes), and in the browser it is not needed.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
