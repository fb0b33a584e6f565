/** Helpers shared by the import and export command lines (scripts/import.ts, scripts/export.ts). */

/**
 * One line for a fatal error. Node reports a refused connection to a host with several addresses
 * as an AggregateError with an empty message, so its inner errors are used instead.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join("; ");
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${error.name} (${code})` : error.name;
}
