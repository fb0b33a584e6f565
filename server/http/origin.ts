import { getConfig, publicOrigin } from "../config";

/**
 * The public origin for absolute URLs: PUBLIC_URL, or http://localhost:PORT when unset. Never the
 * request's Host (server/config.ts publicUrl); the request parameter is kept for the callers that
 * pass it and is ignored.
 */
export function siteOrigin(_request?: Request): string {
  return publicOrigin(getConfig());
}
