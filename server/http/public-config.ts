import { getConfig } from "../config";

/** The map settings the browser needs; nothing else from the environment reaches it. */
export function publicMapConfig(): { tileUrl: string; attribution: string } {
  const config = getConfig();
  return { tileUrl: config.MAP_TILE_URL, attribution: config.MAP_ATTRIBUTION };
}
