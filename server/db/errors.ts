/**
 * Whether a database error (or one it wraps: drizzle puts the driver's error in `cause`) is a
 * unique-constraint violation, SQLSTATE 23505, on PGlite and PostgreSQL alike.
 */
export function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}
