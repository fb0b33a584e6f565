import { getConfig } from "../config";
import { createLocalStorage } from "./local-storage";
import type { ImageStorage } from "./storage";

let storage: ImageStorage | undefined;

/**
 * The storage the site and the command-line tools use: the local filesystem under DATA_DIR.
 * Created on first use rather than at import, so that importing this module reads no
 * configuration (tests set DATA_DIR first, then call the route).
 */
export function getImageStorage(): ImageStorage {
  storage ??= createLocalStorage(getConfig().dataDir);
  return storage;
}
