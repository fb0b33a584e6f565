import { createContext, RouterContextProvider } from "react-router";

/**
 * What the Express layer hands to React Router for one request, as typed router contexts
 * (`future.v8_middleware` replaces the old `AppLoadContext` object with a context provider).
 * Read with `context.get(requestIdContext)` in middleware, loaders and actions.
 */
export const requestIdContext = createContext<string>();

/** This response's Content-Security-Policy nonce for inline bootstrap scripts. */
export const nonceContext = createContext<string>();

/**
 * Whether the page is one a shared cache may keep (server/http/shared-cache.ts): rendered the same
 * for everybody, without the person's part, which the browser asks for after load.
 */
export const sharedPageContext = createContext<boolean>(false);

/** The context provider of one request: what `getLoadContext` returns. */
export function requestContext({
  requestId,
  nonce,
  shared = false,
}: {
  requestId: string;
  nonce: string;
  shared?: boolean;
}): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestIdContext, requestId);
  context.set(nonceContext, nonce);
  context.set(sharedPageContext, shared);
  return context;
}
