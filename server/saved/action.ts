import { SAVED_MESSAGES, isPlaceIdText } from "../../domain/saved";
import { MAX_LOCATION_SLUG_LENGTH } from "../../domain/input-limits";
import { safeRedirect } from "../auth/redirect";
import { getViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { CLIENT_ERROR_CODES, badRequest, unauthorized } from "../errors";
import { refusalOf } from "../http/refusal";
import { clientIp } from "../http/rate-limit";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { setSaved, type FacilityRef } from "./service";

/**
 * POST /api/saved (docs/api.md "Saved facilities"): save or forget one facility for whoever the
 * session names, anonymous visitors included. The Express origin check has already refused
 * cross-site requests (server/http/security.ts); the person is the session's, never a field.
 *
 * The save button sends it with fetch and reads JSON. Without JavaScript the same button is a
 * plain form carrying `redirectTo`: the answer is then a 303 back to the page.
 */
export const SAVE_RATE_LIMIT = { name: "saved-ip", windowMs: 10 * 60_000, max: 300 } as const;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

function facilityRef(form: FormData): FacilityRef {
  const placeId = form.get("placeId");
  const slug = form.get("slug");
  if (typeof placeId === "string" && placeId !== "") {
    if (!isPlaceIdText(placeId)) throw badRequest(SAVED_MESSAGES.badId, { field: "placeId" });
    return { placeId };
  }
  if (typeof slug === "string" && slug !== "") {
    if (slug.length > MAX_LOCATION_SLUG_LENGTH) throw badRequest("slug is too long.", { field: "slug" });
    return { slug };
  }
  throw badRequest(SAVED_MESSAGES.missingId, { field: "placeId" });
}

function wanted(form: FormData): boolean {
  const value = form.get("saved");
  if (value === "true") return true;
  if (value === "false") return false;
  throw badRequest(SAVED_MESSAGES.badSaved, { field: "saved" });
}

export async function saveRequest(request: Request): Promise<Response> {
  if (request.method !== "POST") {
    return json({ error: "Use POST to save or forget a facility." }, 405, { Allow: "POST" });
  }
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.has(type)) {
    return json({ error: "Send a form: application/x-www-form-urlencoded or multipart/form-data." }, 415);
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return json({ error: "The form could not be read." }, 400);
  }
  const redirectTo = form.get("redirectTo");
  const back = typeof redirectTo === "string" ? safeRedirect(redirectTo, "/saved") : null;
  try {
    const ref = facilityRef(form);
    const saved = wanted(form);
    const viewer = await getViewer(request);
    if (!viewer.userId) {
      if (back)
        return new Response(null, {
          status: 303,
          headers: { Location: `/login?redirectTo=${encodeURIComponent(back)}` },
        });
      throw unauthorized(SAVED_MESSAGES.noSession);
    }
    const db = getDatabase();
    const limit = await createSharedRateLimiter(db, SAVE_RATE_LIMIT).hit(clientIp(request));
    if (!limit.ok) {
      return json({ error: SAVED_MESSAGES.tooMany }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
    }
    const result = await setSaved(db, viewer.userId, ref, saved);
    if (back) return new Response(null, { status: 303, headers: { Location: back, "Cache-Control": "no-store" } });
    return json(result);
  } catch (error) {
    // Without JavaScript the answer is a page: the message as text, with its status.
    if (!back) throw error;
    const refusal = refusalOf(error, CLIENT_ERROR_CODES);
    return new Response(refusal.message, {
      status: refusal.status,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}
