import { setLeadStatus, unownedLeadCount, unownedLeads } from "../leads/service";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { displayUsPhone } from "../../domain/claim-form";
import { KEY_FIELDS } from "../../domain/listings";
import { clampPage, parseTableParams } from "../../domain/table-params";
import type { SignedInViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { listingProblems, locations } from "../db/schema";
import { LISTING_PROBLEM_KINDS, type ListingProblemKind } from "../../domain/listing-problems";
import { decideQueueItem, openItemsOf, openProblems, openReports, queueCounts } from "../catalogue/reports";
import { pendingChangeCount } from "./queries";
import { notFound } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal, formRefusal, isRefusal } from "../http/refusal";
import { LISTING_GONE } from "./edit";
import { TIERS } from "../../domain/tiers";
import { applyBulkAction, changeListingOwner } from "../catalogue/service";
import { changeLines, fieldLabel } from "./describe";
import { EDITABLE_FIELDS, pick } from "./fields";
import { decidePendingChange, restoreRevision } from "./moderation";
import { PHOTOS_FIELD } from "./photos";
import {
  listingForModeration,
  pendingChangeQueue,
  PENDING_CHANGE_SORTS,
  type PendingChangeSort,
} from "./moderation-queries";
import { actorOf } from "../auth/actor";
import { reviewDecisionAction, reviewQueueCountOf, reviewQueueSection } from "../reviews/pages";

/**
 * The loader and action bodies of the administrators' moderation screens (docs/product.md
 * section 10): /admin/manage (the work queue) and /admin/manage/{locationId} (one listing). The
 * admin layout's middleware has let only admins in; the services check `isAdmin` again.
 */

export const MANAGE_PAGE_SIZE = 25;
export const MAX_DECISION_REASON = 1000;
const MAX_ID_LENGTH = 500;

export const managePath = (locationId: string) => `/admin/manage/${encodeURIComponent(locationId)}`;

const keyFieldsOf = (changes: Record<string, unknown>) => KEY_FIELDS.filter((f) => f in changes);

export const QUEUE_SECTIONS = ["changes", "reports", "problems", "leads", "reviews"] as const;
export type QueueSection = (typeof QUEUE_SECTIONS)[number];

/** How a data problem's detail reads in the queue. */
function problemDetail(kind: ListingProblemKind, detail: Record<string, unknown>): string | null {
  if (kind === "outside_state")
    return detail.found
      ? `Stated ${String(detail.stated)}, but the coordinates are in ${String(detail.found)}.`
      : `Stated ${String(detail.stated)}, but the coordinates are in no US state.`;
  if (kind === "likely_duplicate" && typeof detail.miles === "number") return `${detail.miles} mi apart.`;
  if (kind === "stale" && typeof detail.updatedAt === "string") return `Last updated ${detail.updatedAt.slice(0, 10)}.`;
  if (kind === "closed" && typeof detail.status === "string")
    return detail.status === "CLOSED_TEMPORARILY" ? "Closed temporarily." : "Closed permanently.";
  return null;
}

/**
 * What the listing shows of a photo change now: its photos ("after"), those it replaced again
 * ("before", a later change put them back), or the result of later changes ("later").
 */
export function photoRevisionState(
  current: readonly string[],
  revision: { before: Record<string, unknown>; after: Record<string, unknown> },
): "after" | "before" | "later" {
  const same = (value: unknown) =>
    Array.isArray(value) && value.length === current.length && value.every((url, i) => url === current[i]);
  if (same(revision.after[PHOTOS_FIELD])) return "after";
  if (same(revision.before[PHOTOS_FIELD])) return "before";
  return "later";
}

/**
 * /admin/manage: the work queue in three sections (docs/product.md sections 10 and 12), chosen by
 * `?section=`: owners' waiting key-field changes, visitors' reports and the nightly check's data
 * problems (`&kind=` for one kind). Counts for every section come with each.
 */
export async function manageQueuePage(request: Request) {
  const params = new URL(request.url).searchParams;
  const rawSection = params.get("section") ?? "changes";
  const section: QueueSection = (QUEUE_SECTIONS as readonly string[]).includes(rawSection)
    ? (rawSection as QueueSection)
    : "changes";
  const rawKind = params.get("kind") ?? "";
  const kind = (LISTING_PROBLEM_KINDS as readonly string[]).includes(rawKind)
    ? (rawKind as ListingProblemKind)
    : undefined;
  const table = parseTableParams<PendingChangeSort>(params, {
    sortable: PENDING_CHANGE_SORTS,
    defaultSort: "submitted",
    defaultDir: "asc",
  });
  const db = getDatabase();
  const [changeCount, counts, leadCount, reviewCount] = await Promise.all([
    pendingChangeCount(db),
    queueCounts(db),
    unownedLeadCount(db),
    reviewQueueCountOf(),
  ]);
  const base = {
    section,
    kind: kind ?? null,
    counts: {
      changes: changeCount,
      reports: counts.reports,
      problems: counts.problems,
      leads: leadCount,
      reviews: reviewCount,
    },
    problemsByKind: counts.problemsByKind,
    pageSize: MANAGE_PAGE_SIZE,
    sort: table.sort,
    dir: table.dir,
  };
  const empty = { total: 0, page: 1, rows: [], reports: [], problems: [], leads: [], reviews: [] };
  if (section === "reviews") {
    // Held and reported reviews (docs/product.md section 16), oldest first.
    const queue = await reviewQueueSection(table.page, MANAGE_PAGE_SIZE);
    return { ...base, ...empty, total: queue.total, page: queue.page, reviews: queue.reviews };
  }
  if (section === "leads") {
    const total = leadCount;
    const page = clampPage(table.page, total, MANAGE_PAGE_SIZE);
    const rows = await unownedLeads(db, { page, pageSize: MANAGE_PAGE_SIZE });
    return {
      ...base,
      ...empty,
      total,
      page,
      // Phone numbers as the site shows them (docs/product.md section 9); tel: dials the stored one.
      leads: rows.map((r) => ({
        ...r,
        phone: r.phone ? displayUsPhone(r.phone) : null,
        phoneTel: r.phone,
        listingPhone: r.listingPhone ? displayUsPhone(r.listingPhone) : null,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
  if (section === "reports") {
    const total = counts.reports;
    const page = clampPage(table.page, total, MANAGE_PAGE_SIZE);
    const { rows } = await openReports(db, { page, pageSize: MANAGE_PAGE_SIZE });
    return {
      ...base,
      ...empty,
      total,
      page,
      reports: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        message: r.message,
        createdAt: r.createdAt.toISOString(),
        locationId: r.locationId,
        name: r.name,
        slug: r.slug,
        place: [r.city, r.state].filter(Boolean).join(", "),
        phone: r.phone ? displayUsPhone(r.phone) : null,
      })),
    };
  }
  if (section === "problems") {
    const total = kind ? (counts.problemsByKind[kind] ?? 0) : counts.problems;
    const page = clampPage(table.page, total, MANAGE_PAGE_SIZE);
    const { rows } = await openProblems(db, { page, pageSize: MANAGE_PAGE_SIZE, kind });
    return {
      ...base,
      ...empty,
      total,
      page,
      problems: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        detail: problemDetail(r.kind, r.detail),
        foundAt: r.foundAt.toISOString(),
        locationId: r.locationId,
        name: r.name,
        slug: r.slug,
        place: [r.city, r.state].filter(Boolean).join(", "),
        hidden: r.hidden,
        other: r.otherId
          ? { locationId: r.otherId, name: r.otherName!, slug: r.otherSlug!, hidden: r.otherHidden }
          : null,
      })),
    };
  }
  const query = { sort: table.sort, dir: table.dir, pageSize: MANAGE_PAGE_SIZE } as const;
  let queue = await pendingChangeQueue(db, { ...query, page: table.page });
  const page = clampPage(table.page, queue.total, MANAGE_PAGE_SIZE);
  if (page !== table.page) queue = await pendingChangeQueue(db, { ...query, page });
  return {
    ...base,
    ...empty,
    total: queue.total,
    page,
    rows: queue.rows.map((row) => {
      const fields = keyFieldsOf(row.changes);
      return {
        locationId: row.locationId,
        name: row.name,
        slug: row.slug,
        place: [row.city, row.state].filter(Boolean).join(", "),
        owner: row.ownerEmail ? { name: row.ownerName, email: row.ownerEmail } : null,
        submittedBy: row.submittedByEmail,
        submittedAt: row.submittedAt.toISOString(),
        lines: changeLines(fields, row.current, row.changes),
      };
    }),
  };
}

/** /admin/manage/{id}: the listing, its waiting change and its history, each in words. */
export async function manageListingPage(request: Request, locationId: string) {
  if (locationId.length > MAX_ID_LENGTH) throw notFound(LISTING_GONE);
  // ?restore={revisionId} asks for the restore confirmation in the page (the dialog needs JavaScript).
  const restoreParam = new URL(request.url).searchParams.get("restore") ?? "";
  const confirmRestore = /^\d{1,15}$/.test(restoreParam) ? Number(restoreParam) : null;
  const listing = await listingForModeration(getDatabase(), locationId);
  const open = await openItemsOf(getDatabase(), locationId);
  const { fields, pending } = listing;
  const current = fields as unknown as Record<string, unknown>;
  return {
    placeId: listing.placeId,
    slug: listing.slug,
    name: fields.name,
    address: fields.address,
    place: [listing.city, listing.state].filter(Boolean).join(", "),
    latitude: fields.latitude,
    longitude: fields.longitude,
    tier: listing.tier,
    tiers: TIERS,
    hidden: listing.hiddenAt !== null,
    deleted: listing.deletedAt !== null,
    photoCount: listing.photoCount,
    version: listing.version,
    confirmRestore,
    reports: open.reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    problems: open.problems.map((p) => ({
      id: p.id,
      kind: p.kind,
      detail: problemDetail(p.kind, p.detail),
      otherId: p.otherId,
    })),
    owners: listing.owners.map((o) => ({ name: o.name, email: o.email })),
    pending: pending
      ? {
          submittedAt: pending.submittedAt.toISOString(),
          submittedBy: pending.submittedByEmail,
          submittedByName: pending.submittedByName,
          lines: changeLines(keyFieldsOf(pending.changes), current, pending.changes),
        }
      : null,
    revisions: listing.revisions.map((r) => {
      const restoreFields = EDITABLE_FIELDS.filter((f) => f in r.before);
      // A photo change is never restored (docs/product.md section 10, "Photos"): it has no listing
      // field to restore, so it must not read as one whose values the listing already shows.
      const photos =
        PHOTOS_FIELD in r.before || PHOTOS_FIELD in r.after ? photoRevisionState(listing.imageUrls, r) : null;
      const restorable = photos === null && (r.kind === "published" || r.kind === "approved" || r.kind === "restored");
      const restoreLines = restorable
        ? changeLines(restoreFields, pick(fields, restoreFields) as Record<string, unknown>, r.before).filter(
            (line) => line.before !== line.after,
          )
        : [];
      return {
        id: r.id,
        kind: r.kind,
        actorEmail: r.actorEmail,
        createdAt: r.createdAt.toISOString(),
        fieldLabels: r.fields.map(fieldLabel),
        reason: r.reason,
        lines: changeLines(r.fields, r.before, r.after),
        restorable,
        /** What a restore would change now: the field, its value today, the value put back. */
        restoreLines,
        /** For a photo change: whether the listing shows its photos now, those from before it, or later ones. */
        photos,
      };
    }),
  };
}

const decisionSchema = z
  .object({
    intent: z.enum(["approve", "reject"], { error: "Choose Approve or Reject." }),
    locationId: z.string({ error: "Choose a listing." }).max(MAX_ID_LENGTH),
    submittedAt: z.iso.datetime({ error: "Reload the page and try again." }),
    reason: z.string().trim().max(MAX_DECISION_REASON, `Write at most ${MAX_DECISION_REASON} characters.`).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.intent === "reject" && !value.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "Give the owner a reason for the rejection." });
  });

const queueItemSchema = z.object({
  intent: z.enum(["resolve", "dismiss", "hide-duplicate"]),
  type: z.enum(["report", "problem"], { error: "Reload the page and try again." }),
  id: z.coerce.number({ error: "Reload the page and try again." }).int().positive().max(Number.MAX_SAFE_INTEGER),
  note: z.string().trim().max(MAX_DECISION_REASON, `Write at most ${MAX_DECISION_REASON} characters.`).optional(),
  /** For hide-duplicate: which of the two listings to hide. */
  hide: z.string().max(MAX_ID_LENGTH).optional(),
});

/**
 * Resolving or dismissing a report or problem, or resolving a likely duplicate by hiding one of
 * the two listings (docs/product.md section 12). Back to the queue with a toast either way.
 */
async function queueItemAction(form: FormData, viewer: SignedInViewer, back: string, requestId: string | null) {
  const result = parseFormSubmission(queueItemSchema, form);
  if (!result.ok) return formFailure(result);
  const { intent, type, id, note, hide } = result.data;
  const db = getDatabase();
  const actor = actorOf(viewer);
  try {
    if (intent === "hide-duplicate") {
      if (type !== "problem" || !hide) return formFailure(result, 400, { formError: "Choose the listing to hide." });
      const [problem] = await db.select().from(listingProblems).where(eq(listingProblems.id, id));
      if (!problem || problem.kind !== "likely_duplicate" || ![problem.locationId, problem.otherId].includes(hide))
        return formFailure(result, 400, { formError: "Reload the page and try again." });
      await applyBulkAction(db, { actor, action: "hide", ids: [hide], requestId });
      await decideQueueItem(db, { actor, type, id, status: "resolved", note: `Hid ${hide}`, requestId });
      const name = await listingName(hide);
      return redirectWithFlash(back, {
        kind: "success",
        text: `Hid ${name}: visitors now find only the other listing. Show it again from its page.`,
      });
    }
    await decideQueueItem(db, {
      actor,
      type,
      id,
      status: intent === "resolve" ? "resolved" : "dismissed",
      note,
      requestId,
    });
    const what = type === "report" ? "Report" : "Problem";
    return redirectWithFlash(back, {
      kind: "success",
      text: `${what} ${intent === "resolve" ? "resolved" : "dismissed"}.`,
    });
  } catch (error) {
    return flashRefusal(back, error, ["conflict", "not_found"]);
  }
}

const listingStateSchema = z.object({
  intent: z.enum(["visibility", "tier"]),
  action: z.enum(["hide", "show", "delete", "restore"], { error: "Choose hide, show, delete or restore." }).optional(),
  tier: z.enum(TIERS, { error: "Choose a tier." }).optional(),
});

const STATE_DONE = {
  hide: "Hidden: visitors no longer find this listing. Show it again at any time.",
  show: "Shown: the listing is back in search and on its page.",
  delete: "Deleted: the facility page answers “removed”. Restore it at any time.",
  restore: "Restored: the listing is back as it was.",
  tier: "Tier changed.",
} as const;

const ownerSchema = z.object({
  intent: z.enum(["owner-assign", "owner-remove"]),
  email: z.string().trim().max(254, "Enter an email address of at most 254 characters.").optional(),
});

const restoreSchema = z.object({
  intent: z.literal("restore"),
  revisionId: z.coerce.number({ error: "Choose a revision." }).int().positive().max(Number.MAX_SAFE_INTEGER),
  version: z.coerce.number({ error: "Reload the page and try again." }).int().nonnegative(),
});

async function listingName(locationId: string): Promise<string> {
  const [row] = await getDatabase()
    .select({ name: locations.name })
    .from(locations)
    .where(eq(locations.placeId, locationId));
  return row?.name ?? "the listing";
}

/** The flash text after a decision, naming the listing (by its name after the decision). */
async function decidedText(status: "approved" | "rejected", locationId: string) {
  const name = await listingName(locationId);
  return status === "approved"
    ? `Approved: ${name} now shows the new values. The owner is emailed.`
    : `Rejected the change to ${name}. The owner is emailed your reason.`;
}

/**
 * A decision from the queue. Success and a conflict (another admin was first) both go back to the
 * queue with a toast, where the row is gone; a missing reason answers the form's errors.
 */
export async function manageQueueAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const back = `/admin/manage${new URL(request.url).search}`;
  const form = await readForm(request);
  const queueIntent = form.get("intent");
  if (queueIntent === "resolve" || queueIntent === "dismiss" || queueIntent === "hide-duplicate")
    return queueItemAction(form, viewer, back, requestId);
  if (queueIntent === "review-approve" || queueIntent === "review-reject" || queueIntent === "review-remove")
    return reviewDecisionAction(form, viewer, back, requestId);
  if (queueIntent === "lead-handled") {
    try {
      await setLeadStatus(getDatabase(), {
        viewer: { userId: viewer.userId, email: viewer.email, name: viewer.name ?? viewer.email, isAdmin: true },
        leadId: String(form.get("leadId") ?? "").slice(0, 100),
        status: "handled",
        requestId,
      });
      return redirectWithFlash(back, { kind: "success", text: "Lead marked handled." });
    } catch (error) {
      return flashRefusal(back, error, ["bad_request", "not_found", "conflict"]);
    }
  }
  const result = parseFormSubmission(decisionSchema, form);
  if (!result.ok) return formFailure(result);
  const { intent, locationId, reason, submittedAt } = result.data;
  try {
    const { status } = await decidePendingChange(getDatabase(), {
      actor: actorOf(viewer),
      locationId,
      decision: intent,
      reason: reason ?? null,
      expectedSubmittedAt: new Date(submittedAt),
      requestId,
    });
    return redirectWithFlash(back, { kind: "success", text: await decidedText(status, locationId) });
  } catch (error) {
    return flashRefusal(back, error, ["conflict"]);
  }
}

/** A decision or a restore on one listing's page; the answer is that page again. */
export async function manageListingAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  if (locationId.length > MAX_ID_LENGTH) throw notFound(LISTING_GONE);
  const here = managePath(locationId);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "resolve" || intent === "dismiss") return queueItemAction(form, viewer, here, requestId);
  if (intent === "visibility" || intent === "tier") {
    const result = parseFormSubmission(listingStateSchema, form);
    if (!result.ok) return formFailure(result);
    const action = result.data.intent === "tier" ? "tier" : result.data.action;
    if (!action) return formFailure(result, 400, { formError: "Choose hide, show, delete or restore." });
    if (action === "tier" && !result.data.tier)
      return formFailure(result, 400, { fieldErrors: { tier: ["Choose a tier."] } });
    try {
      const done = await applyBulkAction(getDatabase(), {
        actor: actorOf(viewer),
        action,
        ids: [locationId],
        tier: result.data.tier,
        requestId,
      });
      return redirectWithFlash(here, {
        kind: "success",
        text: done.changed === 0 ? "Nothing to change: the listing already was so." : STATE_DONE[action],
      });
    } catch (error) {
      return flashRefusal(here, error, ["conflict"]);
    }
  }
  if (intent === "owner-assign" || intent === "owner-remove") {
    const result = parseFormSubmission(ownerSchema, form);
    if (!result.ok) return formFailure(result);
    const email = result.data.intent === "owner-remove" ? null : (result.data.email ?? "");
    if (email === "") return formFailure(result, 400, { fieldErrors: { email: ["Enter the new owner's email."] } });
    try {
      const done = await changeListingOwner(getDatabase(), { actor: actorOf(viewer), locationId, email, requestId });
      const text = {
        assigned: `${done.email} now owns this listing.`,
        transferred: `Transferred the listing to ${done.email}.`,
        removed: `${done.email} no longer owns this listing.`,
        unchanged: "Nothing to change.",
      }[done.kind];
      return redirectWithFlash(here, { kind: "success", text });
    } catch (error) {
      if (isRefusal(error, ["bad_request"])) return formRefusal(result, error, ["bad_request"], { field: "email" });
      // The previous owner's card billing could not be stopped (Stripe unreachable or not
      // configured), or changed meanwhile: nothing was changed, and the admin is told why.
      return formRefusal(result, error, ["conflict", "bad_gateway"]);
    }
  }
  if (intent === "restore") {
    const result = parseFormSubmission(restoreSchema, form);
    if (!result.ok) return formFailure(result);
    try {
      const restored = await restoreRevision(getDatabase(), {
        actor: actorOf(viewer),
        revisionId: result.data.revisionId,
        locationId,
        expectedVersion: result.data.version,
        requestId,
      });
      const what = restored.fields.map(fieldLabel).join(", ");
      return redirectWithFlash(here, { kind: "success", text: `Restored: ${what || "nothing to change"}.` });
    } catch (error) {
      return flashRefusal(here, error, ["conflict"]);
    }
  }
  const result = parseFormSubmission(decisionSchema, form);
  if (!result.ok) return formFailure(result);
  if (result.data.locationId !== locationId)
    return formFailure(result, 400, { formError: "Reload the page and try again." });
  try {
    const { status } = await decidePendingChange(getDatabase(), {
      actor: actorOf(viewer),
      locationId,
      decision: result.data.intent,
      reason: result.data.reason ?? null,
      expectedSubmittedAt: new Date(result.data.submittedAt),
      requestId,
    });
    return redirectWithFlash(here, { kind: "success", text: await decidedText(status, locationId) });
  } catch (error) {
    return flashRefusal(here, error, ["conflict"]);
  }
}
