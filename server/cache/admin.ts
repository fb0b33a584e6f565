import { z } from "zod";
import { recordAudit } from "../audit/record";
import { actorOf, type Actor } from "../auth/actor";
import type { SignedInViewer } from "../auth/viewer";
import { getConfig, publicOrigin, type Config } from "../config";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { badRequest, forbidden } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { formRefusal } from "../http/refusal";
import { kickPurges, sharedCacheConfigured } from "./index";
import { purgePathFrom } from "./purge-path";
import { enqueuePurge } from "./purges";

export const CACHE_PURGE_MESSAGES = {
  adminsOnly: "Only administrators can purge pages from the shared cache.",
  notConfigured:
    "No shared cache is configured (CACHE_PURGE_URL is unset): pages are not kept by one, so nothing was queued.",
  queued: (path: string) => `Queued: ${path} — the cache refreshes it within a minute.`,
} as const;

/** "Purge a page from the shared cache" on the admin overview. */
export const purgeFormSchema = z.object({
  intent: z.literal("purge-cache", { error: "Choose what to do." }),
  path: z.string({ error: "Enter the page's path or address." }),
});

/**
 * Queues one page for a refresh in the shared cache, with its audit row, in one transaction, and
 * asks the worker to go at once. `input` is what the administrator typed (see `purgePathFrom`).
 *
 * @throws AppError 403 for a non-administrator, 400 (`details.field` "path") naming what is wrong
 *   with the input.
 */
export async function queuePagePurge(
  db: Database,
  request: { actor: Actor; input: string; requestId: string | null; config: Pick<Config, "PUBLIC_URL" | "PORT"> },
): Promise<{ path: string }> {
  if (!request.actor.isAdmin) throw forbidden(CACHE_PURGE_MESSAGES.adminsOnly);
  const parsed = purgePathFrom(request.input, publicOrigin(request.config));
  if (!parsed.ok) throw badRequest(parsed.message, { field: "path" });
  await db.transaction(async (tx) => {
    await enqueuePurge(tx, parsed.path);
    await recordAudit(tx, {
      actor: request.actor,
      action: "cache.purge",
      subject: { type: "page", id: parsed.path },
      requestId: request.requestId,
    });
  });
  kickPurges();
  return { path: parsed.path };
}

/** What the overview shows of the form: whether there is a cache to purge. */
export function cachePurgeFormData(config: Config = getConfig()) {
  return { sharedCache: sharedCacheConfigured(config), origin: publicOrigin(config) };
}

/** POST /admin `intent=purge-cache&path=…`: back to the overview with what was queued, or the form with why not. */
export async function adminCachePurgeAction(
  request: Request,
  viewer: SignedInViewer,
  requestId: string | null,
  config: Config = getConfig(),
) {
  const result = parseFormSubmission(purgeFormSchema, await readForm(request));
  if (!result.ok) return formFailure(result);
  const actor = actorOf(viewer);
  if (!actor.isAdmin) throw forbidden(CACHE_PURGE_MESSAGES.adminsOnly);
  if (!sharedCacheConfigured(config)) {
    // Still said beside the field when the input is wrong, so the form reads the same either way.
    const parsed = purgePathFrom(result.data.path, publicOrigin(config));
    if (!parsed.ok) return formFailure(result, 400, { fieldErrors: { path: [parsed.message] } });
    return redirectWithFlash("/admin", { kind: "info", text: CACHE_PURGE_MESSAGES.notConfigured });
  }
  try {
    const { path } = await queuePagePurge(getDatabase(), { actor, input: result.data.path, requestId, config });
    return redirectWithFlash("/admin", { kind: "success", text: CACHE_PURGE_MESSAGES.queued(path) });
  } catch (error) {
    return formRefusal(result, error, ["bad_request"]);
  }
}
