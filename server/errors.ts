import { data } from "react-router";

/**
 * The one application error every service throws: a label for logs, an HTTP status, and a
 * message that is safe to show. Loaders turn it into a response with `toResponse`.
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

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError("bad_request", 400, message, details);
export const notFound = (message: string) => new AppError("not_found", 404, message);

/** Throws a 404 response carrying `message` unless `value` is present (Epic's invariantResponse). */
export function notFoundUnless<T>(value: T | null | undefined, message: string): asserts value is T {
  if (value === null || value === undefined) throw data(message, { status: 404 });
}
