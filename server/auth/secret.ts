import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { logger } from "../logger";

const SECRET_FILE = "auth-secret";

/**
 * The secret of each data folder once read or made: the facility page signs its form stamp with
 * it, and read from the file on every page it was an open, a read and a close per page.
 */
const fromFile = new Map<string, string>();

/**
 * The key that signs session cookies: AUTH_SECRET when set, else a random one kept in
 * DATA_DIR/auth-secret (created on first start, readable by the owner only), so `npm start`
 * needs no configuration and sessions survive restarts. Several instances must share AUTH_SECRET.
 */
export function resolveAuthSecret(config: Pick<Config, "AUTH_SECRET" | "dataDir" | "DATABASE_URL">): string {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.dataDir, SECRET_FILE);
  const known = fromFile.get(file);
  if (known) return known;
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) {
      fromFile.set(file, existing);
      return existing;
    }
  } catch {
    // not created yet
  }
  if (config.DATABASE_URL) {
    logger.warn("AUTH_SECRET is not set: using a per-machine secret; set it when running several instances");
  }
  const secret = randomBytes(32).toString("hex");
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  fromFile.set(file, secret);
  return secret;
}
