/**
 * The one application error every service, guard and route throws: a label for logs, an HTTP
 * status, a message that is safe to show, and safe details. Nobody converts it by hand: the
 * server build is wrapped once (server/http/app-errors.ts), so a page answers the error page with
 * this status and message, and an /api route answers `{ error: message, ...details }` as JSON.
 */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly label: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
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
