import { data, type RouterContextProvider, type ServerBuild } from "react-router";
import { AppError, RETRY_AFTER_SECONDS, databaseUnavailable } from "../errors";
import { isDatabaseUnavailable } from "../db/errors";
import { logger } from "../logger";
import { requestIdContext } from "./request-context";

/**
 * Where an AppError becomes an HTTP answer, once for the whole site: every route's loader, action
 * and middleware is wrapped when the server build is handed to React Router (`withAppErrors`).
 *
 * - A page: the error page (root ErrorBoundary) with the error's status and message, as if the
 *   route had thrown `data(message, { status })`.
 * - An /api route: `{ error: message, ...details }` as JSON with the error's status.
 * - An error that says the database cannot be reached: a 503 AppError (Retry-After is added to
 *   pages by server/app.ts).
 * - Anything else unexpected: a page gets React Router's 500 (the message is hidden outside
 *   development); an /api route gets a JSON 500 with a generic message. Both are logged.
 *
 * Route middleware cannot do this for its children: `next()` never throws, because React Router
 * has already rendered a loader's error into the response it returns (docs/decisions/009).
 */
export const UNEXPECTED_API_MESSAGE = "Something went wrong on our side. Please try again.";

export function isApiRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

/** The JSON answer of an /api route for an AppError. */
export function apiErrorResponse(error: AppError): Response {
  const retry = error.status === 503 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : undefined;
  return Response.json(
    { error: error.message, ...error.details },
    { status: error.status, headers: { "Cache-Control": "no-store", ...retry } },
  );
}

function requestIdOf(context: Readonly<RouterContextProvider> | undefined): string | undefined {
  try {
    return context?.get(requestIdContext);
  } catch {
    return undefined; // a test that calls a handler without the server's context
  }
}

/**
 * What a route should throw instead of `error`: AppErrors become a page error or a JSON
 * response; on /api routes other Errors become a generic JSON 500; everything else (responses,
 * redirects, `data()`) passes through untouched.
 */
export function toRouteError(error: unknown, request: Request, context?: Readonly<RouterContextProvider>): unknown {
  if (request.signal.aborted) return error;
  const api = isApiRequest(request);
  // An unreachable database is nobody's mistake and passes: a 503 with Retry-After, not a 500.
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId: requestIdOf(context), url: request.url }, "the database is unreachable");
    error = databaseUnavailable();
  }
  if (error instanceof AppError) {
    if (error.status >= 500) {
      logger.error({ err: error, code: error.code, requestId: requestIdOf(context), url: request.url }, error.message);
    }
    return api ? apiErrorResponse(error) : data(error.message, { status: error.status });
  }
  if (api && error instanceof Error) {
    const requestId = requestIdOf(context);
    logger.error({ err: error, requestId, url: request.url }, "unexpected error in an API route");
    // The request id lets support find the logged error; the error's own message stays in the log.
    return Response.json(
      { error: UNEXPECTED_API_MESSAGE, requestId },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
  return error;
}

interface HandlerArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** `handler`, with its AppErrors converted by `toRouteError`. */
export function convertingAppErrors<A extends HandlerArgs, R extends unknown[], T>(
  handler: (args: A, ...rest: R) => T,
): (args: A, ...rest: R) => Promise<Awaited<T>> {
  return async (args: A, ...rest: R): Promise<Awaited<T>> => {
    try {
      const value: Awaited<T> = await handler(args, ...rest);
      return value;
    } catch (error) {
      throw toRouteError(error, args.request, args.context);
    }
  };
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/** The server build with every loader, action and middleware converting AppErrors. */
export function withAppErrors(build: ServerBuild): ServerBuild {
  const cached = wrapped.get(build);
  if (cached) return cached;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action, middleware } = route.module;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: convertingAppErrors(loader) } : {}),
        ...(action ? { action: convertingAppErrors(action) } : {}),
        ...(middleware ? { middleware: middleware.map((fn) => convertingAppErrors(fn)) } : {}),
      },
    };
  }
  const result = { ...build, routes };
  wrapped.set(build, result);
  return result;
}
