import { eq } from "drizzle-orm";
import {
  LISTING_FIELD_LABELS,
  PENDING_CHANGE_GONE_TEXT,
  PENDING_CHANGE_REPLACED_TEXT,
  RESTORE_CONFLICT_TEXT,
  type ListingField,
} from "../../domain/listings";
import { resolveStaleness } from "../catalogue/problems";
import { recordAudit } from "../audit/record";
import { getConfig, publicOrigin } from "../config";
import type { Database } from "../db/client";
import { listingOwners, listingPendingChanges, listingRevisions, locations, users } from "../db/schema";
import { wantsEmail } from "../account/notifications";
import { enqueueEmail, kickEmail } from "../email";
import { AppError, notFound } from "../errors";
import { logger } from "../logger";
import { notifyLocationsChanged } from "../search";
import { conflict, lockListing, tx } from "./edit";
import { columnsFor, EDITABLE_FIELDS, fieldsOf, pick, type EditableField, type ListingChanges } from "./fields";
import { recordRevision } from "./revisions";
import type { Actor } from "../auth/actor";

/**
 * What an administrator does with listing edits (docs/product.md section 10, ADR 014): approve or
 * reject the key-field change an owner submitted, and restore a field set from an earlier revision.
 */
const onlyAdmins = (actor: Actor, what: string) => {
  if (!actor.isAdmin) throw new AppError("forbidden", 403, `Only an administrator can ${what}.`);
};

const label = (field: string) => LISTING_FIELD_LABELS[field as ListingField] ?? field;
const shown = (value: unknown) => (value === null || value === undefined ? "(empty)" : String(value));

export interface DecidePendingChangeRequest {
  actor: Actor;
  locationId: string;
  decision: "approve" | "reject";
  /** Shown to the owner; required for a rejection. */
  reason?: string | null;
  /**
   * When the change the admin looked at was submitted: a change replaced since (the owner saved
   * new values) is refused with a conflict (409) rather than deciding values nobody reviewed.
   */
  expectedSubmittedAt?: Date;
  requestId?: string | null;
}

export async function decidePendingChange(
  db: Database,
  request: DecidePendingChangeRequest,
): Promise<{ status: "approved" | "rejected"; version: number }> {
  const { actor, locationId, decision, requestId } = request;
  onlyAdmins(actor, "decide on listing changes");
  const reason = request.reason?.trim() || null;
  if (decision === "reject" && !reason)
    throw new AppError("bad_request", 400, "Give the owner a reason for the rejection.");
  const outcome = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, locationId);
    const [pending] = await db
      .select()
      .from(listingPendingChanges)
      .where(eq(listingPendingChanges.locationId, locationId))
      .for("update");
    if (!pending) throw conflict(PENDING_CHANGE_GONE_TEXT);
    if (request.expectedSubmittedAt && pending.updatedAt.getTime() !== request.expectedSubmittedAt.getTime())
      throw conflict(PENDING_CHANGE_REPLACED_TEXT);
    const current = fieldsOf(row);
    const fields = EDITABLE_FIELDS.filter((f) => f in pending.changes);
    const changes = pick(pending.changes as ListingChanges, fields);
    const before = pick(current, fields);
    const status = decision === "approve" ? ("approved" as const) : ("rejected" as const);
    let version = row.version;
    if (status === "approved") {
      version += 1;
      await db
        .update(locations)
        .set({ ...columnsFor(changes, current), version, updatedAt: new Date() })
        .where(eq(locations.placeId, locationId));
      await resolveStaleness(db, { locationId, actor, now: new Date() });
    }
    await db.delete(listingPendingChanges).where(eq(listingPendingChanges.locationId, locationId));
    await recordRevision(db, { locationId, kind: status, actor, fields, before, after: changes, reason, requestId });
    await recordAudit(db, {
      actor,
      action: `listing.pending.${decision}`,
      subject: { type: "listing", id: locationId },
      before,
      after: { ...changes, reason },
      requestId,
    });

    const [submitter] = pending.submittedBy
      ? await db
          .select({ id: users.id, email: users.email, name: users.name })
          .from(users)
          .where(eq(users.id, pending.submittedBy))
      : await db
          .select({ id: users.id, email: users.email, name: users.name })
          .from(listingOwners)
          .innerJoin(users, eq(users.id, listingOwners.userId))
          .where(eq(listingOwners.locationId, locationId));
    const to = submitter?.email ?? pending.submittedByEmail;
    // docs/product.md section 10: the "moderation results" preference of the account told.
    const wanted = submitter ? await wantsEmail(db, submitter.id, "moderation-results") : true;
    if (to && wanted) {
      const lines = fields.map((f) => `- ${label(f)}: ${shown(changes[f])}`);
      const site = publicOrigin(getConfig());
      await enqueueEmail(db, {
        kind: `listing.change.${status}`,
        to,
        subject: `Your change to ${row.name} was ${status}`,
        text: [
          `Hello ${submitter?.name || to},`,
          "",
          status === "approved"
            ? `An administrator approved your change to ${row.name}. The listing now shows:`
            : `An administrator did not approve your change to ${row.name}:`,
          ...lines,
          ...(reason ? ["", `${status === "approved" ? "Note" : "Reason"}: ${reason}`] : []),
          "",
          `Your listing: ${site}/owner/locations/${encodeURIComponent(locationId)}/update`,
        ].join("\n"),
      });
    }
    return { status, version };
  });
  logger.info({ locationId, status: outcome.status, by: actor.userId }, "listing change decided");
  kickEmail();
  if (outcome.status === "approved") await notifyLocationsChanged(db);
  return outcome;
}

export interface RestoreRevisionRequest {
  actor: Actor;
  revisionId: number;
  /** The listing the page is about: a revision of another listing is not found. */
  locationId?: string;
  /**
   * The listing's version the admin saw when choosing to restore: when given, a listing saved
   * since is refused with a conflict (409), since the confirmation described other values.
   */
  expectedVersion?: number;
  requestId?: string | null;
}

/** Puts back the values a revision replaced (its `before`), as a new revision: nothing is erased. */
export async function restoreRevision(
  db: Database,
  request: RestoreRevisionRequest,
): Promise<{ version: number; fields: EditableField[] }> {
  const { actor, requestId } = request;
  onlyAdmins(actor, "restore a revision");
  const [revision] = await db.select().from(listingRevisions).where(eq(listingRevisions.id, request.revisionId));
  if (!revision || (request.locationId !== undefined && revision.locationId !== request.locationId))
    throw notFound("No such revision.");
  if (!["published", "approved", "restored"].includes(revision.kind))
    throw conflict("Only a change that was published can be restored.");
  // A photo change's files are gone once replaced or deleted (docs/product.md section 10 "Photos").
  if (!EDITABLE_FIELDS.some((f) => f in revision.before))
    throw conflict("A change of photos cannot be restored; add the photos again instead.");
  const outcome = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, revision.locationId);
    if (request.expectedVersion !== undefined && row.version !== request.expectedVersion)
      throw conflict(RESTORE_CONFLICT_TEXT);
    const current = fieldsOf(row);
    const fields = EDITABLE_FIELDS.filter((f) => f in revision.before);
    const restored = pick(revision.before as ListingChanges, fields);
    const version = row.version + 1;
    await db
      .update(locations)
      .set({ ...columnsFor(restored, current), version, updatedAt: new Date() })
      .where(eq(locations.placeId, revision.locationId));
    await resolveStaleness(db, { locationId: revision.locationId, actor, now: new Date() });
    const before = pick(current, fields);
    await recordRevision(db, {
      locationId: revision.locationId,
      kind: "restored",
      actor,
      fields,
      before,
      after: restored,
      reason: `Restored from revision ${revision.id}`,
      requestId,
    });
    await recordAudit(db, {
      actor,
      action: "listing.restore",
      subject: { type: "listing", id: revision.locationId },
      before,
      after: { ...restored, revisionId: revision.id },
      requestId,
    });
    return { version, fields };
  });
  await notifyLocationsChanged(db);
  return outcome;
}
