import type { Viewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { logger } from "../logger";
import { savedSlugs } from "./service";

/**
 * The root loader's list for the save buttons and the header (app/lib/saved-store.ts). A page
 * must not fail because this list could not be read: it then shows nothing saved.
 */
export async function savedSlugsOf(viewer: Viewer): Promise<string[]> {
  if (!viewer.userId) return [];
  try {
    return await savedSlugs(getDatabase(), viewer.userId);
  } catch (error) {
    logger.warn({ err: error }, "could not read the saved facilities: showing none");
    return [];
  }
}
