import { readFileSync, statSync } from "node:fs";

/**
 * The server's idea of now, for the work that depends on the time of day: articles published at a
 * scheduled time (docs/product.md section 13) and the signed time of the lead form (section 14).
 * Real time, unless `TEST_CLOCK_FILE` names a file holding an offset in milliseconds to add:
 * browser tests move the server's clock forward with it instead of waiting (docs/operations.md,
 * "Settings for tests"). Never set it in production.
 */
let cached: { path: string; mtimeMs: number; offset: number } | undefined;

function offsetMs(): number {
  const path = process.env.TEST_CLOCK_FILE;
  if (!path) return 0;
  try {
    const { mtimeMs } = statSync(path);
    if (cached?.path === path && cached.mtimeMs === mtimeMs) return cached.offset;
    const value = Number(readFileSync(path, "utf8").trim().slice(0, 32));
    const offset = Number.isFinite(value) ? value : 0;
    cached = { path, mtimeMs, offset };
    return offset;
  } catch {
    return 0;
  }
}

export function serverNow(): Date {
  return new Date(Date.now() + offsetMs());
}
