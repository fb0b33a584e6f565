/**
 * Whether a value from a request can name a row. PostgreSQL refuses a NUL character in text, so a
 * look-up with one fails instead of finding nothing; such a value names no row, and the caller
 * answers as it does for any unknown id (404), not 500.
 */
export function canNameRow(value: string): boolean {
  return !value.includes("\u0000");
}
