import { createContext, RouterContextProvider } from "react-router";

/**
 * What the Express layer hands to React Router for one request, as typed router contexts
 * (`future.v8_middleware` replaces the old `AppLoadContext` object with a context provider).
 * Read with `context.get(requestIdContext)` in middleware, loaders and actions.
 */
export const requestIdContext = createContext<string>();

/** This response's Content-Security-Policy nonce for inline bootstrap scripts. */
export const nonceContext = createContext<string>();

/** The context provider of one request: what `getLoadContext` returns. */
export function requestContext({ requestId, nonce }: { requestId: string; nonce: string }): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestIdContext, requestId);
  context.set(nonceContext, nonce);
  return context;
}
