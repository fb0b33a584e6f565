import { and, eq, inArray, isNotNull, ne, type SQL } from "drizzle-orm";
import type { AuditActor } from "../audit/record";
import { getConfig } from "../config";
import type { Database } from "../db/client";
import { LIVE_PROMOTION_STATUSES, locations, promotions, type PromotionRow } from "../db/schema";
import { AppError, conflict, isAppError } from "../errors";
import * as mail from "./emails";
import { personById } from "./queries";
import { finish } from "./service";
import { cancelCardBilling, stripeClient, type StripeSettings } from "./stripe";

/**
 * What a change of a listing's owner does to its billing (docs/operations.md "Listing
 * transfers and billing"). Billing belongs to the account that bought it (`buyer_user_id`), not to
 * the listing: when an administrator moves a listing to another account or removes its owner, every
 * live promotion bought by anyone but the new owner ends (a pending one is voided), its open
 * invoices are voided, the listing returns to the tier it had before, and the buyer is told by
 * email. A granted promotion has no buyer and stays with the listing.
 *
 * A card subscription is cancelled at Stripe before the transfer's transaction (network calls never
 * run inside one): if Stripe cannot be reached the transfer is refused and nothing changes, so a
 * paid subscription never keeps running for a listing its buyer no longer has. Should the
 * transaction then fail, the subscription is cancelled all the same and Stripe's
 * customer.subscription.deleted ends the promotion; repeating the transfer is safe.
 */
export const TRANSFER_MESSAGES = {
  stripeDown:
    "The previous owner's card subscription could not be cancelled at Stripe, so the listing was not changed. Try again in a few minutes.",
  stripeOff:
    "The previous owner pays for this listing's promotion by card, and card payments are not configured: end the promotion under Promotions (and cancel its subscription in Stripe's dashboard) first.",
  raced: "The listing's billing changed while it was being transferred. Try again.",
} as const;

/** Live promotions of the listing bought by someone other than `keepUserId` (null: by anyone). */
function formerBilling(locationId: string, keepUserId: string | null): SQL {
  const buyer = keepUserId
    ? and(isNotNull(promotions.buyerUserId), ne(promotions.buyerUserId, keepUserId))
    : isNotNull(promotions.buyerUserId);
  return and(eq(promotions.locationId, locationId), inArray(promotions.status, [...LIVE_PROMOTION_STATUSES]), buyer)!;
}

const atStripe = (p: PromotionRow) =>
  p.provider === "stripe" && Boolean(p.stripeSubscriptionId || p.stripeCheckoutSessionId);

/**
 * Step one, before the transfer's transaction: the card billing of the promotions that will end is
 * stopped at Stripe. Returns their ids; the transaction ends only promotions whose billing was
 * stopped here (one that appeared meanwhile refuses the transfer: `raced`).
 */
export async function stopFormerOwnerBilling(
  db: Database,
  input: { locationId: string; keepUserId: string | null; settings?: StripeSettings },
): Promise<Set<string>> {
  const rows = await db.select().from(promotions).where(formerBilling(input.locationId, input.keepUserId));
  const cards = rows.filter(atStripe);
  const stopped = new Set(rows.filter((p) => !atStripe(p)).map((p) => p.id));
  if (cards.length === 0) return stopped;
  const client = stripeClient(input.settings ?? getConfig());
  if (!client) throw conflict(TRANSFER_MESSAGES.stripeOff);
  for (const promotion of cards) {
    try {
      await cancelCardBilling(client, promotion);
    } catch (error) {
      // Stripe could not be reached or failed (./stripe.ts stripeCall): said in the transfer's words.
      if (isAppError(error, ["bad_gateway"])) throw new AppError("bad_gateway", 502, TRANSFER_MESSAGES.stripeDown);
      throw error;
    }
    stopped.add(promotion.id);
  }
  return stopped;
}

/**
 * Step two, in the transfer's transaction (after the new owner is written): ends each promotion of
 * step one and tells its buyer. Returns what the caller passes to `afterCommit`.
 */
export async function endFormerOwnerBilling(
  tx: Database,
  input: {
    locationId: string;
    keepUserId: string | null;
    stopped: Set<string>;
    removed: boolean;
    now: Date;
    actor: AuditActor;
    requestId?: string | null;
  },
): Promise<{ tierChanged: boolean; emailed: boolean }> {
  const rows = await tx
    .select()
    .from(promotions)
    .where(formerBilling(input.locationId, input.keepUserId))
    .for("update");
  if (rows.some((p) => !input.stopped.has(p.id) && atStripe(p))) throw conflict(TRANSFER_MESSAGES.raced);
  let tierChanged = false;
  let emailed = false;
  for (const promotion of rows) {
    const ended = await finish(tx, promotion, {
      status: promotion.status === "pending" ? "void" : "ended",
      reason: input.removed ? "owner removed from the listing" : "listing transferred to another owner",
      now: input.now,
      actor: input.actor,
      requestId: input.requestId,
      notify: false,
    });
    tierChanged ||= ended.tierChanged;
    const buyer = await personById(tx, promotion.buyerUserId);
    if (!buyer) continue;
    const [listing] = await tx
      .select({ name: locations.name })
      .from(locations)
      .where(eq(locations.placeId, input.locationId));
    await mail.billingEndedByTransfer(tx, buyer, {
      listingName: listing?.name ?? "your listing",
      tier: promotion.tier,
      provider: promotion.provider,
      pending: promotion.status === "pending",
      removed: input.removed,
    });
    emailed = true;
  }
  return { tierChanged, emailed };
}
