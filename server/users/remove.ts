import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Database } from "../db/client";
import { claims, listingOwners, users } from "../db/schema";
import { deleteReviewsOfAccount } from "../reviews/service";

export interface RemovedAccount {
  releasedListings: number;
  withdrawnClaims: number;
  /** Listings whose rating lost one of the account's reviews: the search index must learn of it. */
  reviewedListings: string[];
}

/**
 * Removes one account inside the caller's transaction (docs/product.md sections 10 and 12): its
 * pending claims are withdrawn and its listings released first, each with its audit row, then the
 * account goes with its sessions (foreign keys cascade). The audit trail keeps every row: actor
 * ids there are not foreign keys. `action` names who asked (`account.delete` for the person
 * themselves, `user.delete` for an administrator) and `reason` is written beside each release.
 */
export async function removeAccountInTransaction(
  db: Database,
  input: {
    actor: AuditActor;
    account: { id: string; email: string; name: string; role: string; createdAt: Date };
    action: "account.delete" | "user.delete";
    reason: string;
    requestId?: string | null;
  },
): Promise<RemovedAccount> {
  const { actor, account, reason, requestId } = input;
  const withdrawn = await db
    .update(claims)
    .set({ status: "withdrawn", decidedAt: new Date() })
    .where(and(eq(claims.userId, account.id), eq(claims.status, "pending")))
    .returning({ id: claims.id, locationId: claims.locationId });
  for (const claim of withdrawn)
    await recordAudit(db, {
      actor,
      action: "claim.withdraw",
      subject: { type: "claim", id: claim.id },
      before: { status: "pending", locationId: claim.locationId },
      after: { status: "withdrawn", reason },
      requestId,
    });
  const released = await db
    .delete(listingOwners)
    .where(eq(listingOwners.userId, account.id))
    .returning({ locationId: listingOwners.locationId });
  for (const listing of released)
    await recordAudit(db, {
      actor,
      action: "listing.release",
      subject: { type: "listing", id: listing.locationId },
      before: { ownerId: account.id },
      after: { ownerId: null, reason },
      requestId,
    });
  // The account's reviews go with it, each leaving its listing's rating (docs/product.md section 16).
  const reviewedListings = await deleteReviewsOfAccount(db, account.id);
  const removed = { releasedListings: released.length, withdrawnClaims: withdrawn.length };
  await recordAudit(db, {
    actor,
    action: input.action,
    subject: { type: "user", id: account.id },
    before: { email: account.email, name: account.name, role: account.role, createdAt: account.createdAt },
    after: removed,
    requestId,
  });
  await db.delete(users).where(eq(users.id, account.id));
  return { ...removed, reviewedListings };
}
