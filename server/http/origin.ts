import { getConfig } from "../config";

/** The public origin for canonical URLs: PUBLIC_URL when set, else the request's own origin. */
export function siteOrigin(request: Request): string {
  const configured = getConfig().PUBLIC_URL;
  return configured ? new URL(configured).origin : new URL(request.url).origin;
}
