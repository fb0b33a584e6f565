/**
 * What kind of refusal an AppError is. Code decides by this (server/http/refusal.ts), never by
 * the message, which is free to change wording. Most codes go with one HTTP status; a code of
 * its own is worth adding when a page must tell one refusal from others of the same status.
 */
/** Refusals a person can act on: answered with a 4xx status. */
export const CLIENT_ERROR_CODES = [
  "bad_request",
  // More files than an upload form accepts (server/http/upload.ts), 400.
  "too_many_files",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "gone",
  "too_large",
  "rate_limited",
] as const;
/** Failures of ours or of a provider: answered with a 5xx status. */
export const SERVER_ERROR_CODES = ["bad_gateway", "unavailable", "busy", "database_unavailable"] as const;
export const ERROR_CODES = [...CLIENT_ERROR_CODES, ...SERVER_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one application error every service, guard and route throws: a code for programs and
 * logs, an HTTP status, a message that is safe to show, and safe details. Nobody converts it by
 * hand: the server build is wrapped once (server/http/app-errors.ts), so a page answers the error
 * page with this status and message, and an /api route answers `{ error: message, ...details }`
 * as JSON. An action that says a refusal on its own page picks it with server/http/refusal.ts.
 * A failure of ours (a 5xx) that replaces an error keeps it as its `cause`, which is logged with
 * it and never shown.
 */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Whether `error` is an AppError, with one of `codes` when they are given. Code decides which
 * refusal it is, never its status or message (a 502 and a 503 are different failures). Services
 * use this; request glue uses server/http/refusal.ts, which answers with it.
 */
export function isAppError(error: unknown, codes?: readonly ErrorCode[]): error is AppError {
  return error instanceof AppError && (codes === undefined || codes.includes(error.code));
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError("bad_request", 400, message, details);
export const unauthorized = (message = "Sign in to do this.") => new AppError("unauthorized", 401, message);
export const forbidden = (message: string) => new AppError("forbidden", 403, message);
export const notFound = (message: string) => new AppError("not_found", 404, message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError("conflict", 409, message, details);

/** The database cannot be reached right now (docs/operations.md, "When the database is unreachable"). */
export const databaseUnavailable = () =>
  new AppError(
    "database_unavailable",
    503,
    "We can't reach our database right now. Search still works; please try this again in a minute.",
  );

/** Seconds a client should wait before retrying a 503 answer of ours. */
export const RETRY_AFTER_SECONDS = 10;

/** Throws a 404 AppError carrying `message` unless `value` is present (Epic's invariantResponse). */
export function notFoundUnless<T>(value: T | null | undefined, message: string): asserts value is T {
  if (value === null || value === undefined) throw notFound(message);
}
