import { getViewer, type Viewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { logger } from "../logger";
import { listSaved, savedSlugs } from "./service";

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

/** /saved: the facilities this visitor saved (anonymous or signed in), newest first. */
export async function savedPage(request: Request) {
  const viewer = await getViewer(request);
  const items = viewer.userId ? await listSaved(getDatabase(), viewer.userId) : [];
  return { signedIn: viewer.userId !== null && !viewer.isAnonymous, items };
}
