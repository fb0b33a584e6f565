import { randomUUID } from "node:crypto";
import { isUniqueViolation } from "../db/errors";
import { and, eq, lte, ne, or } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/record";
import { getConfig } from "../config";
import type { Database } from "../db/client";
import { invoices, locations, promotions, type InvoiceRow, type PromotionRow } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import { applyScheduledPlanChanges } from "./change-plan";
import {
  activatePromotion,
  addInterval,
  afterCommit,
  asTx,
  intervalOf,
  nextInvoiceNumber,
  paidTierOf,
  PROMOTION_MESSAGES,
  reasonOf,
  requireAdmin,
  requireBuyerOrAdmin,
  requireOwnerOrAdmin,
  setListingTier,
  snapshot,
  voidOpenInvoices,
  type PromotionSettings,
} from "./common";
import * as mail from "./emails";
import { planFor, type Interval } from "./plans";
import {
  invoiceById,
  listingForTier,
  livePromotionOf,
  openInvoiceOf,
  personById,
  promotionById,
  promotionByKey,
} from "./queries";
import type { Actor } from "../auth/actor";

/**
 * Promotion and payments (docs/product.md section 11, ADR 016). Every write runs in one
 * transaction with its audit rows and emails; a write that changes a listing's tier refreshes the
 * search index after the commit, so ordering and badges change at once. Money is whole cents.
 * Invoice mode has no automatic renewal: a period ends unless an admin marks a renewal invoice
 * paid before it does.
 */
interface Common {
  actor: Actor;
  now?: Date;
  requestId?: string | null;
  settings?: PromotionSettings;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const KEY_MAX = 200;

const invoiceSnapshot = (i: InvoiceRow) => ({
  number: i.number,
  status: i.status,
  amountCents: i.amountCents,
  voidReason: i.voidReason,
});

/** After a promotion stops being live: the tier of another live promotion, else its base tier. */
async function restoreTier(db: Database, ended: PromotionRow, actor: AuditActor, requestId?: string | null) {
  if (ended.status === "pending" || !ended.baseTier) return false;
  const other = await livePromotionOf(db, ended.locationId);
  const tier = other && other.id !== ended.id && other.status !== "pending" ? other.tier : ended.baseTier;
  return setListingTier(db, ended.locationId, tier, actor, requestId);
}

export interface RequestPromotionInput extends Common {
  locationId: string;
  tier: string;
  interval: string;
  /** The form's one-time key: a repeated submission returns the same promotion. */
  idempotencyKey: string;
  /** Who will take the payment (server/promotions/provider.ts); invoice by default. */
  provider?: "invoice" | "stripe";
}

/**
 * Starts a purchase: a pending promotion, paid by invoice (the default). The same key returns the
 * same promotion; a second live promotion for the listing is refused (409). A change of plan
 * later ends or amends the live one; ADR 016.
 */
export async function requestPromotion(
  db: Database,
  input: RequestPromotionInput,
): Promise<{ promotion: PromotionRow; created: boolean }> {
  const settings = input.settings ?? getConfig();
  const tier = paidTierOf(input.tier);
  const interval = intervalOf(input.interval);
  if (!planFor(settings.promotionPlans, tier)) throw badRequest(PROMOTION_MESSAGES.unknownPlan);
  const key = input.idempotencyKey.trim();
  if (key.length < 8 || key.length > KEY_MAX) throw badRequest("The request key must be 8 to 200 characters.");
  const { actor } = input;

  const same = (p: PromotionRow) =>
    p.locationId === input.locationId && p.tier === tier && p.interval === interval && p.buyerUserId === actor.userId;
  const replay = async () => {
    const existing = await promotionByKey(db, key);
    if (!existing) return undefined;
    if (!same(existing)) throw conflict(PROMOTION_MESSAGES.keyReused);
    return { promotion: existing, created: false };
  };

  const earlier = await replay();
  if (earlier) return earlier;
  const [listing] = await db
    .select({ placeId: locations.placeId })
    .from(locations)
    .where(eq(locations.placeId, input.locationId))
    .limit(1);
  if (!listing) throw notFound(PROMOTION_MESSAGES.listingGone);
  await requireOwnerOrAdmin(db, actor, input.locationId);

  try {
    const promotion = await db.transaction(async (t) => {
      const tx = asTx(t);
      const twin = await promotionByKey(tx, key);
      if (twin) {
        if (!same(twin)) throw conflict(PROMOTION_MESSAGES.keyReused);
        return { row: twin, created: false };
      }
      if (await livePromotionOf(tx, input.locationId)) {
        // On PostgreSQL (read committed) a racing twin can commit between the two reads above: the
        // live promotion is then this request's own, and the same request gets it back.
        const late = await promotionByKey(tx, key);
        if (!late) throw conflict(PROMOTION_MESSAGES.oneLive);
        if (!same(late)) throw conflict(PROMOTION_MESSAGES.keyReused);
        return { row: late, created: false };
      }
      const [row] = await tx
        .insert(promotions)
        .values({
          id: randomUUID(),
          locationId: input.locationId,
          buyerUserId: actor.userId,
          tier,
          interval,
          provider: input.provider ?? "invoice",
          status: "pending",
          idempotencyKey: key,
        })
        .returning();
      await recordAudit(tx, {
        actor,
        action: "promotion.request",
        subject: { type: "promotion", id: row!.id },
        after: { locationId: input.locationId, ...snapshot(row!) },
        requestId: input.requestId,
      });
      return { row: row!, created: true };
    });
    return { promotion: promotion.row, created: promotion.created };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A racing twin won: the same request returns its promotion; anything else is one-live.
    const twin = await replay();
    if (twin) return twin;
    throw conflict(PROMOTION_MESSAGES.oneLive);
  }
}

export interface IssueInvoiceInput extends Common {
  promotionId: string;
  /** The daily renewal job (no person): skips the owner check, and the invoice has no creator. */
  system?: boolean;
}

/**
 * Issues the invoice for a pending promotion (or the renewal invoice for the next period of an
 * active or past-due one) and emails it to the buyer. An open invoice is returned as it is: asking
 * twice never bills twice.
 */
export async function issueInvoice(
  db: Database,
  input: IssueInvoiceInput,
): Promise<{ invoice: InvoiceRow; created: boolean }> {
  const settings = input.settings ?? getConfig();
  const now = input.now ?? new Date();
  const { actor } = input;
  const found = await promotionById(db, input.promotionId);
  if (!found) throw notFound(PROMOTION_MESSAGES.promotionGone);
  if (!input.system) await requireBuyerOrAdmin(db, actor, found);
  const auditActor: AuditActor = input.system ? { userId: null, email: null } : actor;

  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const promotion = (await promotionById(tx, input.promotionId, true))!;
    if (promotion.provider !== "invoice") throw conflict(PROMOTION_MESSAGES.notInvoiceMode);
    if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.notBillable);
    const open = await openInvoiceOf(tx, promotion.id);
    if (open) return { invoice: open, created: false };
    const renewal = promotion.status !== "pending" && promotion.periodEnd;
    // A renewal bills the plan scheduled for the next period, if any (docs/product.md section 11).
    const tier = (renewal && promotion.nextTier) || promotion.tier;
    const interval = ((renewal && promotion.nextInterval) || promotion.interval) as Interval;
    const plan = planFor(settings.promotionPlans, tier);
    if (!plan) throw conflict(PROMOTION_MESSAGES.unknownPlan);
    const amountCents = plan.prices[interval];
    const periodStart = renewal ? promotion.periodEnd : null;
    const periodEnd = periodStart ? addInterval(periodStart, interval) : null;
    const [invoice] = await tx
      .insert(invoices)
      .values({
        id: randomUUID(),
        number: await nextInvoiceNumber(tx, now),
        promotionId: promotion.id,
        amountCents,
        currency: settings.promotionPlans.currency,
        status: "open",
        periodStart,
        periodEnd,
        tier,
        interval,
        issuedAt: now,
        dueAt: new Date(now.getTime() + settings.INVOICE_DUE_DAYS * DAY_MS),
        createdBy: input.system ? null : actor.userId,
      })
      .returning();
    await recordAudit(tx, {
      actor: auditActor,
      action: "invoice.issue",
      subject: { type: "invoice", id: invoice!.id },
      after: { promotionId: promotion.id, ...invoiceSnapshot(invoice!) },
      requestId: input.requestId,
    });
    const buyer =
      (await personById(tx, promotion.buyerUserId)) ??
      (input.system ? null : { email: actor.email, name: actor.name ?? null });
    if (!buyer) return { invoice: invoice!, created: true };
    const [listing] = await tx
      .select({ name: locations.name })
      .from(locations)
      .where(eq(locations.placeId, promotion.locationId));
    await mail.invoiceIssued(tx, buyer, {
      invoice: invoice!,
      listingName: listing?.name ?? "your listing",
      planName: plan.name,
      interval,
      settings,
    });
    return { invoice: invoice!, created: true };
  });
  await afterCommit(false, db, result.created);
  return result;
}

export interface InvoiceDecisionInput extends Common {
  invoiceId: string;
}

/**
 * An admin records an invoice's payment: the promotion becomes active for one interval from now
 * (a renewal extends from the current period's end), the listing takes the plan's tier and its
 * previous tier is remembered. Marking a paid invoice paid again changes nothing.
 */
export async function markInvoicePaid(
  db: Database,
  input: InvoiceDecisionInput,
): Promise<{ invoice: InvoiceRow; promotion: PromotionRow; changed: boolean }> {
  requireAdmin(input.actor);
  const now = input.now ?? new Date();
  const actor = input.actor;
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const peek = await invoiceById(tx, input.invoiceId);
    if (!peek) throw notFound(PROMOTION_MESSAGES.invoiceGone);
    // The promotion is locked before its invoice, the order every other write uses (no deadlock).
    const promotion = (await promotionById(tx, peek.promotionId, true))!;
    const invoice = (await invoiceById(tx, input.invoiceId, true))!;
    if (invoice.status === "paid") return { invoice, promotion, changed: false, tierChanged: false };
    if (invoice.status === "void") throw conflict(PROMOTION_MESSAGES.voidCannotPay);
    if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.endedCannotPay);

    // The invoice's own plan: a renewal after a change of plan runs for the new interval.
    const interval = (invoice.interval ?? promotion.interval) as Interval;
    const listing = await listingForTier(tx, promotion.locationId);
    if (!listing) throw notFound(PROMOTION_MESSAGES.listingGone);
    const extending = promotion.status !== "pending" && promotion.periodEnd;
    const periodStart = extending ? promotion.periodStart : now;
    const periodEnd = addInterval(extending ? promotion.periodEnd! : now, interval);
    const [paid] = await tx
      .update(invoices)
      .set({
        status: "paid",
        paidAt: now,
        periodStart: invoice.periodStart ?? (extending ? promotion.periodEnd : now),
        periodEnd: invoice.periodEnd ?? periodEnd,
      })
      .where(eq(invoices.id, invoice.id))
      .returning();
    // A first payment activates the plan its invoice bills (what was paid), whatever the promotion
    // asks for now; a renewal's plan starts with its period (./change-plan.ts applyScheduledPlanChanges).
    const paidPlan = !extending && invoice.tier ? { tier: invoice.tier, interval } : {};
    await recordAudit(tx, {
      actor,
      action: "invoice.paid",
      subject: { type: "invoice", id: invoice.id },
      before: invoiceSnapshot(invoice),
      after: invoiceSnapshot(paid!),
      requestId: input.requestId,
    });
    const { active, tierChanged } = await activatePromotion(
      tx,
      promotion,
      listing.tier,
      { ...paidPlan, periodStart, periodEnd },
      actor,
      input.requestId,
    );
    const buyer = await personById(tx, promotion.buyerUserId);
    if (buyer) await mail.paymentReceived(tx, buyer, { invoice: paid!, listingName: listing.name, promotion: active });
    return { invoice: paid!, promotion: active, changed: true, tierChanged };
  });
  await afterCommit(result.tierChanged, db, result.changed);
  const paid = result.invoice;
  const startsNewPlan =
    result.changed &&
    paid.periodStart &&
    paid.periodStart <= now &&
    paid.tier &&
    (paid.tier !== result.promotion.tier || paid.interval !== result.promotion.interval);
  if (startsNewPlan) {
    // A renewal paid after its period began switches plan now rather than at the next daily job.
    await applyScheduledPlanChanges(db, now, [result.promotion.id]);
    const switched = (await promotionById(db, result.promotion.id)) ?? result.promotion;
    return { invoice: paid, promotion: switched, changed: true };
  }
  return { invoice: result.invoice, promotion: result.promotion, changed: result.changed };
}

/**
 * An admin voids an open invoice, with a reason. A pending promotion whose invoice is voided is
 * voided too, so the owner can request again. Voiding a void invoice changes nothing.
 */
export async function voidInvoice(
  db: Database,
  input: InvoiceDecisionInput & { reason: string },
): Promise<{ invoice: InvoiceRow; changed: boolean }> {
  requireAdmin(input.actor);
  const reason = reasonOf(input.reason);
  const now = input.now ?? new Date();
  const actor = input.actor;
  return db.transaction(async (t) => {
    const tx = asTx(t);
    const peek = await invoiceById(tx, input.invoiceId);
    if (!peek) throw notFound(PROMOTION_MESSAGES.invoiceGone);
    // The promotion is locked before its invoice, the order every other write uses (no deadlock).
    const promotion = (await promotionById(tx, peek.promotionId, true))!;
    const invoice = (await invoiceById(tx, input.invoiceId, true))!;
    if (invoice.status === "void") return { invoice, changed: false };
    if (invoice.status === "paid") throw conflict(PROMOTION_MESSAGES.paidCannotVoid);
    const [voided] = await tx
      .update(invoices)
      .set({ status: "void", voidedAt: now, voidReason: reason })
      .where(eq(invoices.id, invoice.id))
      .returning();
    await recordAudit(tx, {
      actor,
      action: "invoice.void",
      subject: { type: "invoice", id: invoice.id },
      before: invoiceSnapshot(invoice),
      after: invoiceSnapshot(voided!),
      requestId: input.requestId,
    });
    if (promotion.status === "pending") {
      const [gone] = await tx
        .update(promotions)
        .set({ status: "void", endedAt: now, endReason: `invoice voided: ${reason}` })
        .where(eq(promotions.id, promotion.id))
        .returning();
      await recordAudit(tx, {
        actor,
        action: "promotion.void",
        subject: { type: "promotion", id: promotion.id },
        before: snapshot(promotion),
        after: snapshot(gone!),
        requestId: input.requestId,
      });
    }
    return { invoice: voided!, changed: true };
  });
}

export interface PromotionChangeInput extends Common {
  promotionId: string;
}

/**
 * The owner (or an admin) stops a promotion from renewing: it stays active until its period ends,
 * then the daily job ends it. A pending promotion has nothing to keep, so it is voided at once
 * with its open invoice.
 */
export async function cancelAtPeriodEnd(db: Database, input: PromotionChangeInput): Promise<PromotionRow> {
  const now = input.now ?? new Date();
  const found = await promotionById(db, input.promotionId);
  if (!found) throw notFound(PROMOTION_MESSAGES.promotionGone);
  await requireBuyerOrAdmin(db, input.actor, found);
  return db.transaction(async (t) => {
    const tx = asTx(t);
    const promotion = (await promotionById(tx, input.promotionId, true))!;
    if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.notLive);
    if (promotion.cancelAtPeriodEnd) return promotion;
    const pending = promotion.status === "pending";
    const [after] = await tx
      .update(promotions)
      .set(
        pending
          ? { status: "void", endedAt: now, endReason: "cancelled before payment", cancelAtPeriodEnd: true }
          : { cancelAtPeriodEnd: true, nextTier: null, nextInterval: null },
      )
      .where(eq(promotions.id, promotion.id))
      .returning();
    if (pending) await voidOpenInvoices(tx, promotion.id, "promotion cancelled before payment", now);
    await recordAudit(tx, {
      actor: input.actor,
      action: pending ? "promotion.void" : "promotion.cancel",
      subject: { type: "promotion", id: promotion.id },
      before: snapshot(promotion),
      after: snapshot(after!),
      requestId: input.requestId,
    });
    return after!;
  });
}

export interface GrantPromotionInput extends Common {
  locationId: string;
  tier: string;
  interval: string;
  reason: string;
  idempotencyKey?: string;
}

/** An admin gives a listing a tier for one interval without payment (provider 'admin'), with a reason. */
export async function grantPromotion(db: Database, input: GrantPromotionInput): Promise<PromotionRow> {
  requireAdmin(input.actor);
  const tier = paidTierOf(input.tier);
  const interval = intervalOf(input.interval);
  const reason = reasonOf(input.reason);
  const now = input.now ?? new Date();
  const key = input.idempotencyKey?.trim() || `grant:${randomUUID()}`;
  if (key.length > KEY_MAX) throw badRequest("The request key must be at most 200 characters.");
  const actor = input.actor;
  const earlier = await promotionByKey(db, key);
  if (earlier) {
    if (earlier.locationId !== input.locationId || earlier.tier !== tier) throw conflict(PROMOTION_MESSAGES.keyReused);
    return earlier;
  }
  try {
    const result = await db.transaction(async (t) => {
      const tx = asTx(t);
      const listing = await listingForTier(tx, input.locationId);
      if (!listing) throw notFound(PROMOTION_MESSAGES.listingGone);
      if (await livePromotionOf(tx, input.locationId)) throw conflict(PROMOTION_MESSAGES.oneLive);
      const [row] = await tx
        .insert(promotions)
        .values({
          id: randomUUID(),
          locationId: input.locationId,
          buyerUserId: null,
          tier,
          interval,
          provider: "admin",
          status: "active",
          baseTier: listing.tier,
          periodStart: now,
          periodEnd: addInterval(now, interval),
          idempotencyKey: key,
        })
        .returning();
      await recordAudit(tx, {
        actor,
        action: "promotion.grant",
        subject: { type: "promotion", id: row!.id },
        after: { locationId: input.locationId, reason, ...snapshot(row!) },
        requestId: input.requestId,
      });
      const tierChanged = await setListingTier(tx, input.locationId, tier, actor, input.requestId);
      return { row: row!, tierChanged };
    });
    await afterCommit(result.tierChanged, db, false);
    return result.row;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(PROMOTION_MESSAGES.oneLive);
    throw error;
  }
}

/** An admin ends a live promotion at once, with a reason; the listing returns to its base tier. */
export async function endPromotion(
  db: Database,
  input: PromotionChangeInput & { reason: string },
): Promise<PromotionRow> {
  requireAdmin(input.actor);
  const reason = reasonOf(input.reason);
  const now = input.now ?? new Date();
  const actor = input.actor;
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const promotion = await promotionById(tx, input.promotionId, true);
    if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
    if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.notLive);
    const ended = await finish(tx, promotion, {
      status: promotion.status === "pending" ? "void" : "ended",
      reason: `ended by an administrator: ${reason}`,
      now,
      actor,
      requestId: input.requestId,
    });
    return ended;
  });
  await afterCommit(result.tierChanged, db, result.emailed);
  return result.row;
}

/**
 * Ends one promotion in the caller's transaction: status, open invoices, tier, audit, email. With
 * `notify` false the caller sends its own email (a listing transfer says why, ./transfer.ts).
 */
export async function finish(
  tx: Database,
  promotion: PromotionRow,
  o: {
    status: "ended" | "void";
    reason: string;
    now: Date;
    actor: AuditActor;
    requestId?: string | null;
    notify?: boolean;
  },
) {
  const [row] = await tx
    .update(promotions)
    .set({ status: o.status, endedAt: o.now, endReason: o.reason })
    .where(eq(promotions.id, promotion.id))
    .returning();
  await voidOpenInvoices(tx, promotion.id, o.reason, o.now);
  await recordAudit(tx, {
    actor: o.actor,
    action: o.status === "void" ? "promotion.void" : "promotion.end",
    subject: { type: "promotion", id: promotion.id },
    before: snapshot(promotion),
    after: snapshot(row!),
    requestId: o.requestId,
  });
  const tierChanged = await restoreTier(tx, promotion, o.actor, o.requestId);
  let emailed = false;
  const buyer = await personById(tx, promotion.buyerUserId);
  if (buyer && o.status === "ended" && o.notify !== false) {
    const [listing] = await tx
      .select({ name: locations.name, tier: locations.tier })
      .from(locations)
      .where(eq(locations.placeId, promotion.locationId));
    await mail.promotionEnded(tx, buyer, {
      listingName: listing?.name ?? "your listing",
      tier: listing?.tier ?? "Free",
    });
    emailed = true;
  }
  return { row: row!, tierChanged, emailed };
}

/**
 * The daily job: ends active promotions whose period is over (cancelled, or not renewed: invoice
 * mode never renews by itself) and past-due ones whose period ended more than the grace days ago.
 * Each is ended in its own transaction and re-checked under lock, so two instances running the
 * job at once end each promotion once. Returns how many ended.
 */
export async function endExpiredPromotions(
  db: Database,
  now: Date = new Date(),
  settings: Pick<PromotionSettings, "PROMOTION_GRACE_DAYS"> = getConfig(),
): Promise<{ ended: number }> {
  const graceCutoff = new Date(now.getTime() - settings.PROMOTION_GRACE_DAYS * DAY_MS);
  const due = await db
    .select({ id: promotions.id })
    .from(promotions)
    .where(
      or(
        and(eq(promotions.status, "active"), ne(promotions.provider, "stripe"), lte(promotions.periodEnd, now)),
        // Stripe renews by itself and says so by webhook: a card plan is ended by the job only when
        // that word is overdue by the grace days (normally customer.subscription.deleted ends it).
        and(eq(promotions.status, "active"), eq(promotions.provider, "stripe"), lte(promotions.periodEnd, graceCutoff)),
        and(eq(promotions.status, "past_due"), lte(promotions.periodEnd, graceCutoff)),
      ),
    )
    .limit(1000);
  let ended = 0;
  let tierChanged = false;
  let emailed = false;
  const system: AuditActor = { userId: null, email: null };
  for (const { id } of due) {
    const result = await db.transaction(async (t) => {
      const tx = asTx(t);
      const p = await promotionById(tx, id, true);
      if (!p?.periodEnd) return undefined;
      const cutoff = p.status === "past_due" || p.provider === "stripe" ? graceCutoff : now;
      const expired = (p.status === "active" || p.status === "past_due") && p.periodEnd <= cutoff;
      if (!expired) return undefined;
      const reason =
        p.status === "past_due" ? "payment overdue" : p.cancelAtPeriodEnd ? "cancelled at period end" : "period ended";
      return finish(tx, p, { status: "ended", reason, now, actor: system });
    });
    if (!result) continue;
    ended += 1;
    tierChanged ||= result.tierChanged;
    emailed ||= result.emailed;
  }
  await afterCommit(tierChanged, db, emailed);
  return { ended };
}
