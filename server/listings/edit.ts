import { withStatusTimes } from "../../domain/availability";
import { serverNow } from "../clock";
import { and, eq } from "drizzle-orm";
import { LISTING_CONFLICT_TEXT, type KeyField } from "../../domain/listings";
import { resolveStaleness } from "../catalogue/problems";
import { recordAudit } from "../audit/record";
import type { Database } from "../db/client";
import { listingOwners, listingPendingChanges, locations, type LocationRow } from "../db/schema";
import { AppError, notFound } from "../errors";
import { kickEmail } from "../email";
import { logger } from "../logger";
import { notifyLocationsChanged } from "../search";
import { announceOpenings } from "../waitlist/service";
import {
  changedFields,
  columnsFor,
  fieldsOf,
  isKeyField,
  pick,
  type EditableField,
  type ListingChanges,
} from "./fields";
import { recordRevision } from "./revisions";
import type { Actor } from "../auth/actor";

/**
 * Owner edits of a listing (docs/product.md section 10, ADR 014). One transaction: the version
 * check, the published fields, the pending key fields, a revision and an audit row. After it
 * commits, the search index and the facility page see the change (notifyLocationsChanged).
 */

/** jsonb does not keep key order, so records are compared key by key. */
function sameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => k in b && JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null))
  );
}

export const tx = (t: unknown) => t as Database;
export const conflict = (message: string) => new AppError("conflict", 409, message);
export const LISTING_GONE = "This listing does not exist or was removed.";

/** The listing row, locked for the rest of the transaction: edits of one listing run one after another. */
export async function lockListing(db: Database, locationId: string): Promise<LocationRow> {
  const [row] = await db.select().from(locations).where(eq(locations.placeId, locationId)).for("update");
  if (!row) throw notFound(LISTING_GONE);
  return row;
}

export async function requireManager(db: Database, actor: Actor, locationId: string) {
  if (actor.isAdmin) return;
  const [owner] = await db
    .select({ id: listingOwners.locationId })
    .from(listingOwners)
    .where(and(eq(listingOwners.locationId, locationId), eq(listingOwners.userId, actor.userId)));
  if (!owner) throw new AppError("forbidden", 403, "You do not manage this listing.");
}

export interface UpdateListingRequest {
  actor: Actor;
  locationId: string;
  /** The submitted values (the whole form); only those that differ are written. */
  changes: ListingChanges;
  /** The version the form was opened at (its hidden field). */
  expectedVersion: number;
  /** The owner ticked "these prices are current" (a change of prices confirms them anyway). */
  confirmPrices?: boolean;
  requestId?: string | null;
  now?: Date;
}

export interface UpdateListingResult {
  version: number;
  published: EditableField[];
  /** Key fields this save sent to an administrator (empty when none changed, or they already waited). */
  pending: KeyField[];
  /** The waiting change was withdrawn: the owner put the key fields back as they are published. */
  pendingWithdrawn: boolean;
  /** People on a waitlist emailed because a size opened (docs/product.md section 17). */
  waitlistEmailed?: number;
}

export async function updateListing(db: Database, request: UpdateListingRequest): Promise<UpdateListingResult> {
  const { actor, locationId, requestId } = request;
  // The server's clock (server/clock.ts): availability dates follow a test clock moved forward.
  const now = request.now ?? serverNow();
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, locationId);
    await requireManager(db, actor, locationId);
    if (row.version !== request.expectedVersion) throw conflict(LISTING_CONFLICT_TEXT);

    const current = fieldsOf(row);
    // Each size's status carries when it was set or confirmed (docs/product.md section 17).
    const submittedSizes = request.changes.sizes ?? (request.confirmPrices ? current.sizes : undefined);
    if (submittedSizes)
      request = {
        ...request,
        changes: {
          ...request.changes,
          sizes: withStatusTimes(current.sizes, submittedSizes, now, request.confirmPrices === true),
        },
      };
    const changed = changedFields(current, request.changes);
    // An admin is the reviewer: their key-field edits publish at once.
    const published = changed.filter((f) => actor.isAdmin || !isKeyField(f));
    const keyChanged = actor.isAdmin ? [] : (changed.filter(isKeyField) as KeyField[]);

    const [waiting] = await db
      .select()
      .from(listingPendingChanges)
      .where(eq(listingPendingChanges.locationId, locationId))
      .for("update");
    const keyChanges = pick(request.changes, keyChanged);
    const samePending = waiting !== undefined && sameRecord(waiting.changes, keyChanges);
    const submitPending = keyChanged.length > 0 && !samePending;
    const withdrawPending = !actor.isAdmin && keyChanged.length === 0 && waiting !== undefined;

    const sizes = request.changes.sizes ?? current.sizes;
    const hasPrices = sizes.some((s) => s.monthlyPrice !== null || s.availability !== null);
    const confirmPrices = hasPrices && (published.includes("sizes") || request.confirmPrices === true);

    if (published.length === 0 && !submitPending && !withdrawPending && !confirmPrices)
      return { version: row.version, published, pending: [], pendingWithdrawn: false };

    const version = row.version + 1;
    await db
      .update(locations)
      .set({
        ...columnsFor(pick(request.changes, published), current),
        ...(confirmPrices ? { pricesConfirmedAt: now } : {}),
        version,
        updatedAt: now,
      })
      .where(eq(locations.placeId, locationId));
    await resolveStaleness(db, { locationId, actor, now });
    // A size that opened tells everyone waiting for it, in this transaction (docs/product.md section 17).
    const emailed = published.includes("sizes")
      ? await announceOpenings(db, {
          listing: { placeId: locationId, name: row.name, slug: row.slug },
          before: current.sizes,
          after: request.changes.sizes ?? [],
          now,
        })
      : 0;

    const audit = (action: string, before: unknown, after: unknown) =>
      recordAudit(db, { actor, action, subject: { type: "listing", id: locationId }, before, after, requestId });
    if (published.length > 0) {
      const before = pick(current, published);
      const after = pick(request.changes, published);
      await recordRevision(db, { locationId, kind: "published", actor, fields: published, before, after, requestId });
      await audit("listing.update", before, after);
    }
    if (submitPending) {
      const before = pick(current, keyChanged);
      await db
        .insert(listingPendingChanges)
        .values({
          locationId,
          submittedBy: actor.userId,
          submittedByEmail: actor.email,
          changes: keyChanges,
          before,
          baseVersion: row.version,
        })
        .onConflictDoUpdate({
          target: listingPendingChanges.locationId,
          set: {
            submittedBy: actor.userId,
            submittedByEmail: actor.email,
            changes: keyChanges,
            before,
            baseVersion: row.version,
            updatedAt: now,
          },
        });
      await recordRevision(db, {
        locationId,
        kind: "pending",
        actor,
        fields: keyChanged,
        before,
        after: keyChanges,
        requestId,
      });
      await audit("listing.pending.submit", { pending: waiting?.changes ?? null, published: before }, keyChanges);
    }
    if (withdrawPending) {
      await db.delete(listingPendingChanges).where(eq(listingPendingChanges.locationId, locationId));
      const fields = Object.keys(waiting.changes);
      await recordRevision(db, {
        locationId,
        kind: "withdrawn",
        actor,
        fields,
        before: waiting.changes,
        after: pick(current, fields as KeyField[]),
        requestId,
      });
      await audit("listing.pending.withdraw", waiting.changes, null);
    }
    return {
      version,
      published,
      pending: submitPending ? keyChanged : [],
      pendingWithdrawn: withdrawPending,
      waitlistEmailed: emailed,
    };
  });
  logger.info({ locationId, by: actor.userId, published: result.published, pending: result.pending }, "listing edited");
  if (result.published.length > 0) await notifyLocationsChanged(db);
  if ((result.waitlistEmailed ?? 0) > 0) kickEmail();
  return result;
}

/** The waiting key-field change of a listing, or undefined. */
export async function pendingChangeOf(db: Database, locationId: string) {
  const [row] = await db.select().from(listingPendingChanges).where(eq(listingPendingChanges.locationId, locationId));
  return row;
}
