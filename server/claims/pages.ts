import { claimDecisionSchema, claimFormSchema } from "../../domain/claim-form";
import { CLAIM_EVIDENCE_MAX_BYTES, CLAIM_EVIDENCE_MAX_FILES, CLAIM_STATUSES, isClaimStatus } from "../../domain/claims";
import { MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { clampPage, parseTableParams } from "../../domain/table-params";
import type { SignedInViewer } from "../auth/viewer";
import { eq } from "drizzle-orm";
import { getDatabase } from "../db";
import { locations } from "../db/schema";
import { AppError, ERROR_CODES } from "../errors";
import { getPrivateStore } from "../files";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal, formRefusal } from "../http/refusal";
import { filesFrom, readUploadForm } from "../http/upload";
import { getSearchIndex } from "../search";
import {
  ADMIN_CLAIM_SORTS,
  adminClaimQueue,
  claimForReview,
  claimsOfUser,
  listingClaimStates,
  readEvidence,
  type AdminClaimSort,
} from "./queries";
import { claimBlocker, decideClaim, fileClaim, withdrawClaim } from "./service";
import { actorOf } from "../auth/actor";

/**
 * The loader and action bodies of the claim screens (docs/product.md section 10), so that the
 * route modules stay thin. Each takes the viewer the console's guard put in context.
 */

export const CLAIM_FINDER_LIMIT = 20;

/** /owner/claim: listings matching `q`, each with how it stands for this person. */
export async function claimFinder(request: Request, viewer: SignedInViewer) {
  const raw = new URL(request.url).searchParams.get("q") ?? "";
  if (raw.length > MAX_TEXT_FILTER_LENGTH)
    throw new AppError("bad_request", 400, `Search for at most ${MAX_TEXT_FILTER_LENGTH} characters.`);
  const q = raw.trim();
  if (!q) return { q, total: 0, items: [] };
  const found = getSearchIndex().findByText(q, CLAIM_FINDER_LIMIT);
  const states = await listingClaimStates(
    getDatabase(),
    viewer.userId,
    found.items.map((i) => i.id),
  );
  return {
    q,
    total: found.total,
    items: found.items.map((item) => ({ ...item, claimState: states.get(item.id) ?? "free" })),
  };
}

/** /owner/claim/{id}: the listing, and why this person cannot claim it (if they cannot). */
export async function claimFormPage(viewer: SignedInViewer, locationId: string) {
  const db = getDatabase();
  const review = await listingForClaim(locationId);
  const blocker = await claimBlocker(db, actorOf(viewer), locationId);
  if (blocker && listingIsGone(blocker)) throw blocker;
  const states = await listingClaimStates(db, viewer.userId, [locationId]);
  return {
    listing: review,
    claimState: states.get(locationId) ?? "free",
    blocked: blocker ? blocker.message : null,
    // docs/product.md section 10: the only 403 is an unconfirmed email; the page offers a new link.
    needsConfirmation: blocker?.status === 403,
    defaults: { claimantName: viewer.name ?? "", businessEmail: viewer.email },
    limits: { maxFiles: CLAIM_EVIDENCE_MAX_FILES, maxBytes: CLAIM_EVIDENCE_MAX_BYTES },
  };
}

/** A listing that is missing, hidden (404) or deleted (410) answers as its public page does. */
const listingIsGone = (error: AppError) => error.code === "not_found" || error.code === "gone";
/** Every refusal but a listing that is gone (an error page) is said on the claim form. */
const CLAIM_FORM_REFUSALS = ERROR_CODES.filter((code) => code !== "not_found" && code !== "gone");

async function listingForClaim(locationId: string) {
  if (locationId.length > 1000) throw new AppError("not_found", 404, "This listing does not exist or was removed.");
  const [row] = await getDatabase()
    .select({
      placeId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      address: locations.address,
      phone: locations.phoneNumber,
      website: locations.website,
    })
    .from(locations)
    .where(eq(locations.placeId, locationId));
  if (!row) throw new AppError("not_found", 404, "This listing does not exist or was removed.");
  return row;
}

export async function fileClaimAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  // Checked before the body is read: an account that may not claim (its email unconfirmed, a
  // claim already pending, today's limit reached) or a listing that cannot be claimed must not
  // make the server parse up to 30 MB of evidence first. fileClaim checks again, in order.
  const blocker = await claimBlocker(getDatabase(), actorOf(viewer), locationId);
  if (blocker) return formRefusal({ ok: false, fieldErrors: {}, values: {} }, blocker, CLAIM_FORM_REFUSALS);
  const form = await readUploadForm(request, {
    maxFiles: CLAIM_EVIDENCE_MAX_FILES,
    // The service names an oversized file in its message; the body limit stops anything larger.
    maxFileBytes: CLAIM_EVIDENCE_MAX_FILES * CLAIM_EVIDENCE_MAX_BYTES,
    maxTotalBytes: CLAIM_EVIDENCE_MAX_FILES * CLAIM_EVIDENCE_MAX_BYTES + 64 * 1024,
  });
  const result = parseFormSubmission(claimFormSchema, form);
  if (!result.ok) return formFailure(result);
  try {
    const filed = await fileClaim(getDatabase(), getPrivateStore(), {
      actor: actorOf(viewer),
      locationId,
      input: result.data,
      files: await filesFrom(form, "evidence"),
      requestId,
    });
    if (!filed.ok) return formFailure(result, 400, { fieldErrors: { evidence: filed.fileErrors } });
  } catch (error) {
    return formRefusal(result, error, CLAIM_FORM_REFUSALS);
  }
  return redirectWithFlash("/owner/claims", {
    kind: "success",
    text: "Your claim was sent. We will email you when an administrator has reviewed it.",
  });
}

/** /owner/claims */
export async function myClaims(viewer: SignedInViewer) {
  return { claims: await claimsOfUser(getDatabase(), viewer.userId) };
}

export async function withdrawClaimAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const claimId = form.get("claimId");
  if (form.get("intent") !== "withdraw" || typeof claimId !== "string" || claimId.length > 100)
    throw new AppError("bad_request", 400, "Choose a claim to withdraw.");
  try {
    await withdrawClaim(getDatabase(), { actor: actorOf(viewer), claimId, requestId });
  } catch (error) {
    return flashRefusal("/owner/claims", error, ["conflict"]);
  }
  return redirectWithFlash("/owner/claims", { kind: "success", text: "Your claim was withdrawn." });
}

export const ADMIN_CLAIMS_PAGE_SIZE = 25;

/** /admin/claims: the queue, pending first. */
export async function adminClaims(request: Request) {
  const params = new URL(request.url).searchParams;
  const table = parseTableParams<AdminClaimSort | "default">(params, {
    sortable: ["default", ...ADMIN_CLAIM_SORTS],
    defaultSort: "default",
    defaultDir: "desc",
  });
  const rawStatus = params.get("status") ?? "pending";
  const status = isClaimStatus(rawStatus) || rawStatus === "all" ? rawStatus : "pending";
  const q = (params.get("q") ?? "").slice(0, MAX_TEXT_FILTER_LENGTH).trim();
  const db = getDatabase();
  const query = {
    status,
    q,
    sort: table.sort === "default" ? undefined : table.sort,
    dir: table.dir,
    pageSize: ADMIN_CLAIMS_PAGE_SIZE,
  } as const;
  let queue = await adminClaimQueue(db, { ...query, page: table.page });
  const page = clampPage(table.page, queue.total, ADMIN_CLAIMS_PAGE_SIZE);
  if (page !== table.page) queue = await adminClaimQueue(db, { ...query, page });
  return { ...queue, status, q, sort: table.sort, dir: table.dir, statuses: CLAIM_STATUSES };
}

/** /admin/claims/{id}: one claim beside its listing, its evidence and the signals. */
export async function adminClaim(claimId: string) {
  if (claimId.length > 100) throw new AppError("not_found", 404, "No such claim.");
  const review = await claimForReview(getDatabase(), claimId);
  return review;
}

export async function decideClaimAction(
  request: Request,
  viewer: SignedInViewer,
  claimId: string,
  requestId: string | null,
) {
  const result = parseFormSubmission(claimDecisionSchema, await readForm(request));
  if (!result.ok) return formFailure(result);
  try {
    const { status } = await decideClaim(getDatabase(), {
      actor: actorOf(viewer),
      claimId,
      decision: result.data.decision,
      reason: result.data.reason,
      requestId,
    });
    return redirectWithFlash("/admin/claims", {
      kind: "success",
      text: status === "approved" ? "Claim approved: the claimant now manages the listing." : "Claim rejected.",
    });
  } catch (error) {
    // 409: decided meanwhile, or the listing is hidden; 502: the previous owner's card billing could
    // not be stopped at Stripe (docs/operations.md "Listing transfers and billing"). Both are said on
    // the form, which keeps the reason typed. A reason refused (bad_request) is said beside it.
    return formRefusal(result, error, ["bad_request", "conflict", "bad_gateway"]);
  }
}

/**
 * One evidence file, for an admin or its claimant. Images are shown inline, PDFs downloaded;
 * neither may run anything (a sandboxing Content-Security-Policy, no sniffing).
 */
export async function evidenceFile(viewer: SignedInViewer, claimId: string, evidenceId: string): Promise<Response> {
  if (claimId.length > 100 || evidenceId.length > 100) throw new AppError("not_found", 404, "No such evidence file.");
  const file = await readEvidence(getDatabase(), getPrivateStore(), actorOf(viewer), claimId, evidenceId);
  const inline = file.contentType.startsWith("image/");
  const name = encodeURIComponent(file.fileName);
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.length),
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${name}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
    },
  });
}
