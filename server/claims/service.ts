import { randomUUID } from "node:crypto";
import { isUniqueViolation } from "../db/errors";
import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { CLAIMS_PER_DAY, type ClaimStatus } from "../../domain/claims";
import {
  CLAIM_REASON_MAX,
  CLAIM_REASON_MIN,
  CLAIM_REJECTION_REASON_TEXT,
  type ClaimFormInput,
} from "../../domain/claim-form";
import { wantsEmail } from "../account/notifications";
import { recordAudit } from "../audit/record";
import type { Database } from "../db/client";
import { claimEvidence, claims, listingOwners, locations, users, type ClaimRow } from "../db/schema";
import { kickEmail } from "../email";
import { AppError, notFound } from "../errors";
import type { PrivateStore } from "../files/private-store";
import { handUnclaimedLeadsTo } from "../leads/service";
import { logger } from "../logger";
import { afterCommit } from "../promotions/common";
import type { StripeSettings } from "../promotions/stripe";
import { endFormerOwnerBilling, stopFormerOwnerBilling } from "../promotions/transfer";
import * as mail from "./emails";
import { checkEvidence, evidenceKey, type UploadedFile } from "./evidence";
import type { Actor } from "../auth/actor";

/**
 * Claims (docs/product.md section 10): a signed-in person asks to manage a listing, an admin
 * approves or rejects. Every write runs in one transaction with its audit rows and its email.
 */

const tx = (t: unknown) => t as Database;

export const conflict = (message: string) => new AppError("conflict", 409, message);
const forbidden = (message: string) => new AppError("forbidden", 403, message);

/** What a claim looked like, for the audit trail (no evidence bytes, no consent timestamp noise). */
function snapshot(c: ClaimRow) {
  return {
    status: c.status,
    locationId: c.locationId,
    userId: c.userId,
    claimantName: c.claimantName,
    claimantRole: c.claimantRole,
    businessPhone: c.businessPhone,
    businessEmail: c.businessEmail,
    isTransfer: c.isTransfer,
    decisionReason: c.decisionReason,
  };
}

async function listingById(db: Database, locationId: string) {
  const [row] = await db
    .select({
      placeId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      hiddenAt: locations.hiddenAt,
      deletedAt: locations.deletedAt,
    })
    .from(locations)
    .where(eq(locations.placeId, locationId))
    .limit(1);
  return row;
}

const LISTING_GONE = "This listing does not exist or was removed.";
export const DELETED_LISTING_CLAIM = "This listing was removed, so it can no longer be claimed.";
export const HIDDEN_LISTING_CLAIM =
  "This listing is not shown to visitors at the moment, so it cannot be claimed. Please try again later.";

/**
 * Why a listing cannot be claimed at all, or null. The answers follow its public page
 * (docs/product.md section 12): a deleted listing is gone (410), a hidden one is not here (404).
 */
function unclaimable(listing: { hiddenAt: Date | null; deletedAt: Date | null } | undefined): AppError | null {
  if (!listing) return notFound(LISTING_GONE);
  if (listing.deletedAt) return new AppError("gone", 410, DELETED_LISTING_CLAIM);
  if (listing.hiddenAt) return notFound(HIDDEN_LISTING_CLAIM);
  return null;
}

/** An administrator may approve a claim only on a listing visitors can see. */
export const approvalBlockedMessage = (listing: { name: string; deletedAt: Date | null }) =>
  listing.deletedAt
    ? `${listing.name} was deleted: restore it before approving a claim for it, or reject the claim.`
    : `${listing.name} is hidden from visitors: show it again before approving a claim for it, or reject the claim.`;

/** docs/product.md section 10: only an account whose email is confirmed may claim a listing. */
export const unverifiedClaimMessage = (email: string) =>
  `Confirm your email address before you claim a listing. We sent a link to ${email}; ` +
  `open it, or ask for a new one with "Send the link again".`;

export interface FileClaimRequest {
  actor: Actor;
  locationId: string;
  input: ClaimFormInput;
  files: UploadedFile[];
  requestId?: string | null;
  now?: Date;
}

/** Why a claim cannot be filed, or null when it can (also used by the form to explain itself). */
export async function claimBlocker(
  db: Database,
  actor: Actor,
  locationId: string,
  now = new Date(),
): Promise<AppError | null> {
  const listing = await listingById(db, locationId);
  const gone = unclaimable(listing);
  if (gone || !listing) return gone;
  const [account] = await db
    .select({ email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!account?.emailVerified) return forbidden(unverifiedClaimMessage(account?.email ?? actor.email));
  const [owner] = await db
    .select({ userId: listingOwners.userId })
    .from(listingOwners)
    .where(eq(listingOwners.locationId, locationId));
  if (owner?.userId === actor.userId) return conflict(`You already manage ${listing.name}.`);
  const [pending] = await db
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.userId, actor.userId), eq(claims.locationId, locationId), eq(claims.status, "pending")))
    .limit(1);
  if (pending)
    return conflict(
      `You already have a pending claim for ${listing.name}. You can follow or withdraw it under My claims.`,
    );
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(claims)
    .where(and(eq(claims.userId, actor.userId), gte(claims.createdAt, dayStart)));
  if (count >= CLAIMS_PER_DAY)
    return new AppError(
      "rate_limited",
      429,
      `You have filed ${CLAIMS_PER_DAY} claims today, the most one account may file in a day. Please try again tomorrow.`,
    );
  return null;
}

export type FileClaimResult = { ok: true; claimId: string } | { ok: false; fileErrors: string[] };

/**
 * Files a claim: checks the listing, the one-open-claim rule and the daily limit, checks the
 * evidence by content, stores it privately, then writes the claim, its evidence rows, the audit
 * row and the emails in one transaction. If that transaction fails the stored files are removed,
 * so nothing is left behind.
 */
export async function fileClaim(
  db: Database,
  store: PrivateStore,
  request: FileClaimRequest,
): Promise<FileClaimResult> {
  const { actor, locationId, input } = request;
  const now = request.now ?? new Date();
  const blocker = await claimBlocker(db, actor, locationId, now);
  if (blocker) throw blocker;
  const checked = await checkEvidence(request.files);
  if (!checked.ok) return { ok: false, fileErrors: checked.errors };

  const claimId = randomUUID();
  const stored: string[] = [];
  try {
    for (const file of checked.files) {
      const key = evidenceKey(claimId, file.id);
      await store.put(key, file.bytes);
      stored.push(key);
    }
    await db.transaction(async (t) => {
      const db = tx(t);
      const listing = await listingById(db, locationId);
      const gone = unclaimable(listing);
      if (gone || !listing) throw gone;
      const [owner] = await db
        .select({ userId: listingOwners.userId })
        .from(listingOwners)
        .where(eq(listingOwners.locationId, locationId));
      const [row] = await db
        .insert(claims)
        .values({
          id: claimId,
          locationId,
          userId: actor.userId,
          claimantName: input.claimantName,
          claimantRole: input.claimantRole,
          businessPhone: input.businessPhone,
          businessEmail: input.businessEmail.toLowerCase(),
          message: input.message,
          consentAt: now,
          isTransfer: owner !== undefined,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (checked.files.length > 0)
        await db.insert(claimEvidence).values(
          checked.files.map((f) => ({
            id: f.id,
            claimId,
            fileName: f.fileName,
            contentType: f.contentType,
            sizeBytes: f.sizeBytes,
            sha256: f.sha256,
            storageKey: evidenceKey(claimId, f.id),
          })),
        );
      await recordAudit(db, {
        actor,
        action: "claim.file",
        subject: { type: "claim", id: claimId },
        after: {
          ...snapshot(row!),
          evidence: checked.files.map((f) => ({ name: f.fileName, type: f.contentType, bytes: f.sizeBytes })),
        },
        requestId: request.requestId,
      });
      await mail.claimReceived(db, { email: actor.email, name: input.claimantName }, listing);
      const admins = await db
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.role, "admin"))
        .limit(20);
      await mail.claimFiledForAdmins(db, admins, {
        id: claimId,
        listingName: listing.name,
        claimant: input.claimantName,
      });
    });
  } catch (error) {
    await Promise.all(stored.map((key) => store.delete(key).catch(() => {})));
    if (isUniqueViolation(error))
      throw (
        (await claimBlocker(db, actor, locationId, now)) ??
        conflict("You already have a pending claim for this listing.")
      );
    throw error;
  }
  kickEmail();
  return { ok: true, claimId };
}

/** The claimant takes back a pending claim. */
export async function withdrawClaim(
  db: Database,
  request: { actor: Actor; claimId: string; requestId?: string | null },
): Promise<void> {
  await db.transaction(async (t) => {
    const db = tx(t);
    const [claim] = await db.select().from(claims).where(eq(claims.id, request.claimId)).for("update");
    if (!claim || claim.userId !== request.actor.userId) throw notFound("No such claim among yours.");
    if (claim.status !== "pending")
      throw conflict(`This claim is already ${claim.status}; only a pending claim can be withdrawn.`);
    const [after] = await db
      .update(claims)
      .set({ status: "withdrawn", decidedAt: new Date() })
      .where(eq(claims.id, claim.id))
      .returning();
    await recordAudit(db, {
      actor: request.actor,
      action: "claim.withdraw",
      subject: { type: "claim", id: claim.id },
      before: snapshot(claim),
      after: snapshot(after!),
      requestId: request.requestId,
    });
  });
}

export const OTHER_CLAIM_APPROVED = "Another claim for this listing was verified and approved.";

export interface DecideClaimRequest {
  actor: Actor;
  claimId: string;
  decision: "approve" | "reject";
  /** Required for a rejection (the claimant reads it); optional for an approval. */
  reason?: string | null;
  requestId?: string | null;
  /** Stripe settings for ending the previous owner's card billing (tests); the configuration otherwise. */
  settings?: StripeSettings;
}

/**
 * An admin's decision, in one transaction. Approval sets the listing's owner (replacing a previous
 * one for a transfer), raises a `user` to `business_owner` (admins stay admin), rejects the other
 * pending claims on the listing, and queues every email. The listing row is locked first, so two
 * admins approving two claims for one listing at once serialise: the second finds its claim
 * already rejected by the first and gets a conflict, and the listing keeps exactly one owner.
 */
export async function decideClaim(db: Database, request: DecideClaimRequest): Promise<{ status: ClaimStatus }> {
  const { actor } = request;
  if (!actor.isAdmin) throw forbidden("Only an administrator can decide claims.");
  // docs/product.md section 10: the reason is what a rejected claimant reads, so a rejection needs
  // one; an approval may carry one for the record. Checked here too, whoever calls.
  const reason = (request.reason ?? "").trim() || null;
  if (request.decision === "reject" && (reason === null || reason.length < CLAIM_REASON_MIN))
    throw new AppError("bad_request", 400, CLAIM_REJECTION_REASON_TEXT, { field: "reason" });
  if (reason !== null && reason.length > CLAIM_REASON_MAX)
    throw new AppError("bad_request", 400, `The reason must be at most ${CLAIM_REASON_MAX} characters.`, {
      field: "reason",
    });
  const [peek] = await db
    .select({
      locationId: claims.locationId,
      userId: claims.userId,
      status: claims.status,
      hiddenAt: locations.hiddenAt,
      deletedAt: locations.deletedAt,
    })
    .from(claims)
    .leftJoin(locations, eq(locations.placeId, claims.locationId))
    .where(eq(claims.id, request.claimId));
  if (!peek) throw notFound("No such claim.");
  // An approval moves the listing to the claimant: like an administrator's transfer, it ends the
  // previous owner's billing, the card subscription cancelled at Stripe before the transaction
  // (docs/operations.md "Listing transfers and billing"). Only for an approval the transaction
  // below can make: one it will refuse (decided already, listing hidden or deleted) must not
  // cancel anybody's subscription first.
  const approvable = peek.status === "pending" && !peek.hiddenAt && !peek.deletedAt;
  const stopped =
    request.decision === "approve" && approvable
      ? await stopFormerOwnerBilling(db, {
          locationId: peek.locationId,
          keepUserId: peek.userId,
          settings: request.settings,
        })
      : new Set<string>();
  let billing = { tierChanged: false, emailed: false };

  const status = await db.transaction(async (t) => {
    const db = tx(t);
    // Lock order: listing, then claims. Every decision on one listing takes the same first lock.
    const [listing] = await db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        hiddenAt: locations.hiddenAt,
        deletedAt: locations.deletedAt,
      })
      .from(locations)
      .where(eq(locations.placeId, peek.locationId))
      .for("update");
    if (!listing) throw notFound(LISTING_GONE);
    const [claim] = await db.select().from(claims).where(eq(claims.id, request.claimId)).for("update");
    if (!claim) throw notFound("No such claim.");
    if (claim.status !== "pending")
      throw conflict(
        `This claim was already ${claim.status}${claim.decisionReason ? ` (${claim.decisionReason})` : ""}; reload to see its current state.`,
      );
    const [claimant] = await db
      .select({ id: users.id, email: users.email, name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, claim.userId));
    if (!claimant) throw notFound("The claimant's account no longer exists.");
    const now = new Date();
    const audit = (action: string, subject: { type: string; id: string }, before: unknown, after: unknown) =>
      recordAudit(db, { actor, action, subject, before, after, requestId: request.requestId });
    const party = (u: { email: string; name: string }, c?: ClaimRow) => ({
      email: u.email,
      name: c?.claimantName || u.name || u.email,
    });

    if (request.decision === "reject") {
      const [after] = await db
        .update(claims)
        .set({ status: "rejected", decidedBy: actor.userId, decidedAt: now, decisionReason: reason })
        .where(eq(claims.id, claim.id))
        .returning();
      await audit("claim.reject", { type: "claim", id: claim.id }, snapshot(claim), snapshot(after!));
      if (await wantsEmail(db, claimant.id, "claim-results"))
        await mail.claimRejected(db, party(claimant, claim), listing, reason!);
      return "rejected" as const;
    }

    // docs/product.md section 10: no one is made the owner of a listing visitors cannot see.
    if (listing.hiddenAt || listing.deletedAt) throw conflict(approvalBlockedMessage(listing));
    const [approved] = await db
      .update(claims)
      .set({ status: "approved", decidedBy: actor.userId, decidedAt: now, decisionReason: reason })
      .where(eq(claims.id, claim.id))
      .returning();
    await audit("claim.approve", { type: "claim", id: claim.id }, snapshot(claim), snapshot(approved!));

    const [previous] = await db
      .select({ userId: listingOwners.userId, email: users.email, name: users.name })
      .from(listingOwners)
      .innerJoin(users, eq(users.id, listingOwners.userId))
      .where(eq(listingOwners.locationId, listing.placeId));
    await db
      .insert(listingOwners)
      .values({ locationId: listing.placeId, userId: claimant.id, createdAt: now })
      .onConflictDoUpdate({ target: listingOwners.locationId, set: { userId: claimant.id, createdAt: now } });
    await audit(
      "listing.owner.set",
      { type: "listing", id: listing.placeId },
      { ownerId: previous?.userId ?? null },
      { ownerId: claimant.id, viaClaim: claim.id },
    );
    if (previous && previous.userId !== claimant.id) await mail.listingTransferred(db, party(previous), listing);
    // docs/product.md section 14: questions asked while nobody owned the listing move from the
    // admins' queue to the new owner; those sent to a previous owner stay theirs.
    const leadsMoved = await handUnclaimedLeadsTo(db, {
      locationId: listing.placeId,
      userId: claimant.id,
      actor,
      requestId: request.requestId,
      now,
    });
    billing = await endFormerOwnerBilling(db, {
      locationId: listing.placeId,
      keepUserId: claimant.id,
      stopped,
      removed: false,
      now,
      actor,
      requestId: request.requestId,
    });

    if (claimant.role === "user") {
      await db.update(users).set({ role: "business_owner" }).where(eq(users.id, claimant.id));
      await audit("user.role", { type: "user", id: claimant.id }, { role: "user" }, { role: "business_owner" });
    }

    const others = await db
      .select()
      .from(claims)
      .where(and(eq(claims.locationId, listing.placeId), eq(claims.status, "pending"), ne(claims.id, claim.id)))
      .for("update");
    if (others.length > 0) {
      const rejected = await db
        .update(claims)
        .set({ status: "rejected", decidedBy: actor.userId, decidedAt: now, decisionReason: OTHER_CLAIM_APPROVED })
        .where(
          inArray(
            claims.id,
            others.map((o) => o.id),
          ),
        )
        .returning();
      const people = await db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(
          inArray(
            users.id,
            others.map((o) => o.userId),
          ),
        );
      for (const before of others) {
        const after = rejected.find((r) => r.id === before.id)!;
        await audit("claim.reject", { type: "claim", id: before.id }, snapshot(before), snapshot(after));
        const person = people.find((p) => p.id === before.userId);
        if (person && (await wantsEmail(db, person.id, "claim-results")))
          await mail.claimRejected(db, party(person, before), listing, OTHER_CLAIM_APPROVED);
      }
    }
    // docs/product.md section 10: decisions honour the "claim results" preference; the transfer
    // notice above is always sent (losing a listing is not optional news).
    if (await wantsEmail(db, claimant.id, "claim-results"))
      await mail.claimApproved(db, party(claimant, claim), listing, leadsMoved);
    return "approved" as const;
  });
  logger.info({ claimId: request.claimId, status, by: actor.userId }, "claim decided");
  kickEmail();
  await afterCommit(billing.tierChanged, db, false);
  return { status };
}
