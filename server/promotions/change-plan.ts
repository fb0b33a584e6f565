import { and, desc, eq, gt, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { AuditActor } from "../audit/record";
import { recordAudit } from "../audit/record";
import { getConfig } from "../config";
import type { Database } from "../db/client";
import { invoices, promotions, type PromotionRow } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import { planFor, type Interval, type PaidTier } from "./plans";
import { promotionById } from "./queries";
import {
  afterCommit,
  asTx,
  intervalOf,
  paidTierOf,
  PROMOTION_MESSAGES,
  requireBuyerOrAdmin,
  setListingTier,
  snapshot,
  voidOpenInvoices,
  type PromotionSettings,
} from "./common";
import type { Actor } from "../auth/actor";

/**
 * Changing the plan of a live promotion (docs/product.md section 11, ADR 016). A listing has one
 * live promotion, so a change amends it: a pending one takes the new plan at once (its open invoice
 * is voided; the owner asks for a new one); an active one keeps its plan until its period ends and
 * bills the next period at the new plan (`next_tier`, `next_interval`). The switch happens when a
 * paid renewal invoice's period begins: `applyScheduledPlanChanges`, run daily and right after a
 * renewal paid late is recorded. Invoice mode only; Stripe changes go through the provider.
 */
export const CHANGE_PLAN_MESSAGES = {
  stripe: "Change this plan through the card payment provider.",
  granted: "A granted promotion cannot change plan; an administrator can end it and grant another.",
  cancelled: "This promotion is cancelled at the end of its period. Request a new plan after it ends.",
  nextPaid: "The next period is already paid for. Change the plan after it starts.",
} as const;

export const PLAN_CHANGED = "plan changed";

const SYSTEM: AuditActor = { userId: null, email: null };

const changeSnapshot = (p: PromotionRow) => ({
  ...snapshot(p),
  nextTier: p.nextTier,
  nextInterval: p.nextInterval,
});

export interface ChangePlanInput {
  actor: Actor;
  promotionId: string;
  tier: string;
  interval: string;
  now?: Date;
  requestId?: string | null;
  settings?: Pick<PromotionSettings, "promotionPlans">;
}

/**
 * The owner (or an admin) changes a live invoice-mode promotion's plan. Returns the promotion and
 * whether anything changed (the same plan again changes nothing and writes no audit row).
 */
export async function changePlan(
  db: Database,
  input: ChangePlanInput,
): Promise<{ promotion: PromotionRow; changed: boolean }> {
  const settings = input.settings ?? getConfig();
  const tier = paidTierOf(input.tier);
  const interval = intervalOf(input.interval);
  if (!planFor(settings.promotionPlans, tier)) throw badRequest(PROMOTION_MESSAGES.unknownPlan);
  const now = input.now ?? new Date();
  const found = await promotionById(db, input.promotionId);
  if (!found) throw notFound(PROMOTION_MESSAGES.promotionGone);
  await requireBuyerOrAdmin(db, input.actor, found);

  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    let promotion = (await promotionById(tx, input.promotionId, true))!;
    if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.notLive);
    if (promotion.provider === "stripe") throw conflict(CHANGE_PLAN_MESSAGES.stripe);
    if (promotion.provider === "admin") throw conflict(CHANGE_PLAN_MESSAGES.granted);
    const audit = async (before: PromotionRow, after: PromotionRow) =>
      recordAudit(tx, {
        actor: input.actor,
        action: "promotion.change",
        subject: { type: "promotion", id: before.id },
        before: changeSnapshot(before),
        after: changeSnapshot(after),
        requestId: input.requestId,
      });

    if (promotion.status === "pending") {
      if (promotion.tier === tier && promotion.interval === interval)
        return { row: promotion, changed: false, tierChanged: false };
      const [after] = await tx
        .update(promotions)
        .set({ tier, interval })
        .where(eq(promotions.id, promotion.id))
        .returning();
      await voidOpenInvoices(tx, promotion.id, PLAN_CHANGED, now);
      await audit(promotion, after!);
      return { row: after!, changed: true, tierChanged: false };
    }

    // Active or past due: the change waits for the next period.
    if (promotion.cancelAtPeriodEnd) throw conflict(CHANGE_PLAN_MESSAGES.cancelled);
    const rolled = await rollOver(tx, promotion, now);
    if (rolled) promotion = rolled.row;
    const [paidAhead] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.promotionId, promotion.id), eq(invoices.status, "paid"), gt(invoices.periodStart, now)))
      .limit(1);
    if (paidAhead) throw conflict(CHANGE_PLAN_MESSAGES.nextPaid);
    const backToCurrent = promotion.tier === tier && promotion.interval === interval;
    const next = backToCurrent ? { nextTier: null, nextInterval: null } : { nextTier: tier, nextInterval: interval };
    if (promotion.nextTier === next.nextTier && promotion.nextInterval === next.nextInterval)
      return { row: promotion, changed: false, tierChanged: rolled?.tierChanged ?? false };
    const [after] = await tx.update(promotions).set(next).where(eq(promotions.id, promotion.id)).returning();
    // An open renewal invoice bills the plan that is no longer next.
    await voidOpenInvoices(tx, promotion.id, PLAN_CHANGED, now);
    await audit(promotion, after!);
    return { row: after!, changed: true, tierChanged: rolled?.tierChanged ?? false };
  });
  await afterCommit(result.tierChanged, db, false);
  return { promotion: result.row, changed: result.changed };
}

/**
 * In the caller's transaction, with the promotion locked: if the latest paid invoice whose period
 * has begun bills another plan than the promotion's, and that period started after the promotion's
 * current one, the promotion takes the invoice's plan (its period now starts there), the scheduled
 * change (which that invoice billed) is cleared and the listing takes the new tier. Returns undefined when nothing is due.
 */
async function rollOver(tx: Database, promotion: PromotionRow, now: Date) {
  if (promotion.status !== "active" && promotion.status !== "past_due") return undefined;
  const [latest] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.promotionId, promotion.id), eq(invoices.status, "paid"), lte(invoices.periodStart, now)))
    .orderBy(desc(invoices.periodStart))
    .limit(1);
  if (!latest?.tier || !latest.interval || !latest.periodStart) return undefined;
  if (promotion.periodStart && latest.periodStart <= promotion.periodStart) return undefined;
  if (latest.tier === promotion.tier && latest.interval === promotion.interval) return undefined;
  const [after] = await tx
    .update(promotions)
    .set({
      tier: latest.tier,
      interval: latest.interval as Interval,
      periodStart: latest.periodStart,
      nextTier: null,
      nextInterval: null,
    })
    .where(eq(promotions.id, promotion.id))
    .returning();
  await recordAudit(tx, {
    actor: SYSTEM,
    action: "promotion.change",
    subject: { type: "promotion", id: promotion.id },
    before: changeSnapshot(promotion),
    after: { ...changeSnapshot(after!), invoiceId: latest.id, invoiceNumber: latest.number },
  });
  const tierChanged = await setListingTier(tx, promotion.locationId, latest.tier as PaidTier, SYSTEM);
  return { row: after!, tierChanged };
}

/**
 * The daily job (and the step after a late renewal is paid): switches the plan of every live
 * promotion whose paid renewal period with another plan has begun. One transaction per promotion,
 * re-checked under lock, so instances running it together switch each once. Without this job a
 * switch would wait for the next run: up to one day after the old period's end. `only` limits it to
 * some promotions. Returns how many switched.
 */
export async function applyScheduledPlanChanges(
  db: Database,
  now: Date = new Date(),
  only?: string[],
): Promise<{ changed: number }> {
  const conditions = [
    inArray(promotions.status, ["active", "past_due"]),
    eq(invoices.status, "paid"),
    isNotNull(invoices.tier),
    lte(invoices.periodStart, now),
    or(sql`${promotions.periodStart} is null`, gt(invoices.periodStart, promotions.periodStart)),
    or(sql`${invoices.tier} <> ${promotions.tier}`, sql`${invoices.interval} <> ${promotions.interval}`),
  ];
  if (only) {
    if (only.length === 0) return { changed: 0 };
    conditions.push(inArray(promotions.id, only));
  }
  const due = await db
    .selectDistinct({ id: promotions.id })
    .from(promotions)
    .innerJoin(invoices, eq(invoices.promotionId, promotions.id))
    .where(and(...conditions))
    .limit(1000);
  let changed = 0;
  let tierChanged = false;
  for (const { id } of due) {
    const result = await db.transaction(async (t) => {
      const tx = asTx(t);
      const promotion = await promotionById(tx, id, true);
      return promotion ? rollOver(tx, promotion, now) : undefined;
    });
    if (!result) continue;
    changed += 1;
    tierChanged ||= result.tierChanged;
  }
  await afterCommit(tierChanged, db, false);
  return { changed };
}
