import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { TIER_WEIGHT } from "../../domain/tiers";
import { recordAudit, type AuditActor } from "../audit/record";
import { getConfig, type Config } from "../config";
import type { Database } from "../db/client";
import { invoices, LIVE_PROMOTION_STATUSES, promotions, stripeEvents, type PromotionRow } from "../db/schema";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors";
import { logger } from "../logger";
import * as mail from "./emails";
import { INTERVALS, PAID_TIERS, planFor, type Interval, type PaidTier } from "./plans";
import { paymentProvider } from "./provider";
import { listingForTier, personById, promotionById } from "./queries";
import {
  activatePromotion,
  addInterval,
  afterCommit,
  asTx,
  nextInvoiceNumber,
  PROMOTION_MESSAGES,
  reasonOf,
  requireBuyerOrAdmin,
  setListingTier,
  snapshot,
} from "./common";
import type { Actor } from "../auth/actor";
import { cancelAtPeriodEnd, endPromotion, finish } from "./service";

/**
 * The Stripe provider (docs/product.md section 11, ADR 016): Checkout Sessions in subscription
 * mode, the customer portal, and the webhook that activates, renews, marks past due and ends
 * promotions. Every webhook is applied in one transaction that first records its event id, so a
 * replay changes nothing, and a promotion remembers the time of the last event applied, so an
 * older event arriving late is recorded but not applied. Network calls to Stripe happen before a
 * transaction opens, never inside one. What a promotion becomes is what Stripe says was paid (the
 * price, its interval, quantity 1, the currency, at least the plan's amount), never the plan the
 * promotion asks for: docs/api.md "POST /api/stripe/webhook" lists the checks.
 */
export type StripeSettings = Pick<
  Config,
  "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_BASE" | "promotionPlans" | "PROMOTION_GRACE_DAYS"
>;

export const STRIPE_MESSAGES = {
  notStripe: "This promotion is not paid by card.",
  notPending: "This promotion is already paid or has ended.",
  notLive: "This promotion has no card subscription to manage.",
  badSession: "This payment does not belong to this promotion.",
  badSignature: "The webhook signature is missing or does not match.",
  off: "Card payments are not configured.",
  unavailable: "Card payments are unavailable right now. Try again in a few minutes.",
  alreadyPaid:
    "This request was already paid at Stripe, so its plan can no longer change. Reload the page: the plan you paid for becomes active.",
  declined:
    "Stripe could not charge your card for the new plan, so your plan stays as it was. Update your card under 'Card and receipts' and try again.",
  unmatched:
    "Stripe took a payment for this promotion that does not match the plan on offer, so it was not applied. It is recorded for an administrator, who will sort it out with you.",
} as const;

let cached: { key: string; client: Stripe } | undefined;

/** The SDK client for the configured key (and, in tests, the stand-in's address); null without Stripe. */
export function stripeClient(settings: StripeSettings = getConfig()): Stripe | null {
  if (paymentProvider(settings) !== "stripe") return null;
  const key = `${settings.STRIPE_SECRET_KEY}|${settings.STRIPE_API_BASE ?? ""}`;
  if (cached?.key === key) return cached.client;
  const base = settings.STRIPE_API_BASE ? new URL(settings.STRIPE_API_BASE) : null;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  const client = new Stripe(settings.STRIPE_SECRET_KEY!, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base ? { host: base.hostname, port: Number(base.port) || (protocol === "http" ? 80 : 443), protocol } : {}),
  });
  cached = { key, client };
  return client;
}

function requireClient(settings: StripeSettings): Stripe {
  const client = stripeClient(settings);
  if (!client) throw new AppError("not_found", 404, STRIPE_MESSAGES.off);
  return client;
}

/**
 * A call to Stripe's API, with its failures in the owner's words: an unknown object named by a
 * request (a hand-edited session id) is a 400, anything else (network, Stripe down) a 502.
 */
async function stripeCall<T>(call: () => Promise<T>, unknown: string = STRIPE_MESSAGES.badSession): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) throw badRequest(unknown);
    if (error instanceof Stripe.errors.StripeError) throw new AppError("bad_gateway", 502, STRIPE_MESSAGES.unavailable);
    throw error;
  }
}

export function priceIdOf(settings: StripeSettings, tier: string, interval: Interval): string {
  const id = planFor(settings.promotionPlans, tier)?.stripePriceIds?.[interval];
  if (!id) throw badRequest(PROMOTION_MESSAGES.unknownPlan);
  return id;
}

/** The plan a Stripe price id stands for, from the plans file. */
export function planOfPrice(settings: StripeSettings, priceId: string | undefined) {
  if (!priceId) return undefined;
  for (const plan of settings.promotionPlans.plans)
    for (const interval of INTERVALS)
      if (plan.stripePriceIds?.[interval] === priceId) return { tier: plan.tier as PaidTier, interval };
  return undefined;
}

/** One line of what Stripe says was paid: a Checkout Session's line item or an invoice line. */
export interface PaidLine {
  priceId: string | undefined;
  quantity: number | null | undefined;
  amountCents: number | null | undefined;
  currency: string | null | undefined;
  /** The price's recurring interval, when Stripe sent the price itself. */
  interval?: string | null;
}

export type PaidPlan = { tier: PaidTier; interval: Interval; priceId: string };
export type Verdict = { plan: PaidPlan; problem?: undefined } | { plan?: undefined; problem: string };

/**
 * The plan a payment bought, or what is wrong with it (docs/api.md: a promotion is activated at what
 * was paid, never at what it asks for). Lines with a positive amount must all bill one price of the
 * plans file, once each, in the plans' currency, recurring at that plan's interval; a `full`
 * payment (the first one, a renewal) must be at least the plan's listed amount (tax on top is
 * fine; a discount below it is not a plan on offer). A proration (`full` false) charges part of it.
 */
export function paidPlanOf(settings: StripeSettings, lines: PaidLine[], o: { full: boolean }): Verdict {
  const charged = lines.filter((l) => (l.amountCents ?? 0) > 0);
  if (charged.length === 0) return { problem: "nothing was charged" };
  const prices = new Set(charged.map((l) => l.priceId ?? ""));
  if (prices.size !== 1) return { problem: `it bills ${prices.size} prices in one payment` };
  const priceId = charged[0]!.priceId;
  const plan = planOfPrice(settings, priceId);
  if (!plan || !priceId) return { problem: `the price ${priceId || "(none)"} is not a plan on offer` };
  const { currency } = settings.promotionPlans;
  for (const line of charged) {
    if (line.quantity !== 1) return { problem: `the quantity is ${line.quantity ?? "unknown"}, not 1` };
    if ((line.currency ?? "").toLowerCase() !== currency)
      return { problem: `it is in ${line.currency ?? "an unknown currency"}, not ${currency}` };
    if (line.interval && line.interval !== plan.interval)
      return { problem: `it recurs every ${line.interval}, not every ${plan.interval}` };
  }
  const listed = planFor(settings.promotionPlans, plan.tier)!.prices[plan.interval];
  const amount = Math.max(...charged.map((l) => l.amountCents ?? 0));
  if (o.full && amount < listed)
    return {
      problem: `${mail.formatAmount(amount, currency)} is less than the plan's ${mail.formatAmount(listed, currency)}`,
    };
  return { plan: { ...plan, priceId } };
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);
const dateOf = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** A subscription's current period: on its first item in current API versions, on itself before. */
function periodOf(sub: Stripe.Subscription) {
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    start: dateOf(item?.current_period_start ?? legacy.current_period_start),
    end: dateOf(item?.current_period_end ?? legacy.current_period_end),
    priceId: item?.price?.id,
    itemId: item?.id,
  };
}

/** The subscription an invoice bills: under `parent` in current API versions, at the top before. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = (
    invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }
  ).parent;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } }).subscription;
  return idOf(parent?.subscription_details?.subscription ?? legacy);
}

/** An invoice's lines as paid lines: the price under `pricing` in current API versions, at the top before. */
function linesOfInvoice(invoice: Stripe.Invoice): (PaidLine & { period: { start: Date | null; end: Date | null } })[] {
  return (invoice.lines?.data ?? []).map((line) => {
    const legacy = (line as unknown as { price?: { id: string } | null }).price;
    return {
      priceId: idOf(line.pricing?.price_details?.price ?? legacy) ?? undefined,
      quantity: line.quantity,
      amountCents: line.amount,
      currency: line.currency ?? invoice.currency,
      period: { start: dateOf(line.period?.start), end: dateOf(line.period?.end) },
    };
  });
}

/** What an invoice paid for: a proration (a change of plan within a period) charges part of a plan. */
function verdictOfInvoice(settings: StripeSettings, invoice: Stripe.Invoice) {
  const lines = linesOfInvoice(invoice);
  const verdict = paidPlanOf(settings, lines, { full: invoice.billing_reason !== "subscription_update" });
  const line = verdict.plan
    ? lines
        .filter((l) => l.priceId === verdict.plan.priceId && (l.amountCents ?? 0) > 0)
        .sort((a, b) => (b.amountCents ?? 0) - (a.amountCents ?? 0))[0]
    : undefined;
  return { verdict, period: line?.period ?? { start: null, end: null } };
}

function promotionIdOf(metadata: Stripe.Metadata | null | undefined): string | null {
  const id = metadata?.promotionId;
  return typeof id === "string" && id.length > 0 && id.length <= 200 ? id : null;
}

async function pendingStripePromotion(db: Database, actor: Actor, promotionId: string) {
  const promotion = await promotionById(db, promotionId);
  if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
  await requireBuyerOrAdmin(db, actor, promotion);
  if (promotion.provider !== "stripe") throw conflict(STRIPE_MESSAGES.notStripe);
  return promotion;
}

export interface StartCheckoutInput {
  actor: Actor;
  promotionId: string;
  /** The site's public origin: where Stripe sends the owner back. */
  origin: string;
  settings?: StripeSettings;
}

/**
 * The Checkout Session for a pending promotion, created once per plan (Stripe's idempotency key is
 * the promotion's id and plan): a double click or a browser closed on Stripe's page finds the same
 * open session; an expired one is replaced, and an open one for another plan (left by a change of
 * plan that raced it) is expired first, so only a session for the promotion's plan can be paid.
 */
export async function startCheckout(db: Database, input: StartCheckoutInput): Promise<{ url: string }> {
  const settings = input.settings ?? getConfig();
  const client = requireClient(settings);
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status !== "pending") throw conflict(STRIPE_MESSAGES.notPending);
  const price = priceIdOf(settings, promotion.tier, promotion.interval as Interval);
  let retryKey = "";
  if (promotion.stripeCheckoutSessionId) {
    const earlier = await retrieveSession(client, promotion.stripeCheckoutSessionId);
    if (earlier.status === "open" && earlier.url && priceOfSession(earlier) === price) return { url: earlier.url };
    if (earlier.status === "complete") return { url: `${input.origin}${successPathOf(promotion.id, earlier.id)}` };
    if ((await closeSession(client, earlier)) === "complete")
      return { url: `${input.origin}${successPathOf(promotion.id, earlier.id)}` };
    retryKey = `:${earlier.id}`;
  }
  const buyer = await personById(db, promotion.buyerUserId);
  const metadata = {
    promotionId: promotion.id,
    locationId: promotion.locationId,
    buyerUserId: promotion.buyerUserId ?? "",
  };
  const session = await stripeCall(() =>
    client.checkout.sessions.create(
      {
        mode: "subscription",
        line_items: [{ price, quantity: 1 }],
        client_reference_id: promotion.id,
        metadata,
        subscription_data: { metadata },
        ...(promotion.stripeCustomerId
          ? { customer: promotion.stripeCustomerId }
          : buyer
            ? { customer_email: buyer.email }
            : {}),
        success_url: `${input.origin}/owner/checkout/success?promotion=${encodeURIComponent(promotion.id)}&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${input.origin}/owner/checkout?promotion=${encodeURIComponent(promotion.id)}`,
      },
      { idempotencyKey: `checkout:${promotion.id}:${promotion.tier}-${promotion.interval}${retryKey}` },
    ),
  );
  await db.update(promotions).set({ stripeCheckoutSessionId: session.id }).where(eq(promotions.id, promotion.id));
  if (!session.url) throw new AppError("bad_gateway", 502, "Stripe did not return a payment page. Try again.");
  return { url: session.url };
}

/** A Checkout Session with its line items, which Stripe sends only when asked (never in a webhook). */
const retrieveSession = (client: Stripe, sessionId: string) =>
  stripeCall(() => client.checkout.sessions.retrieve(sessionId, { expand: ["line_items"] }));

const priceOfSession = (session: Stripe.Checkout.Session) => {
  const lines = session.line_items?.data ?? [];
  return lines.length === 1 ? lines[0]!.price?.id : undefined;
};

/**
 * Makes an unpaid Checkout Session unpayable (docs/product.md section 11: after a change of plan
 * its page must not take a payment). Answers "complete" when it was paid first, whether before or
 * while expiring.
 */
async function closeSession(client: Stripe, session: Stripe.Checkout.Session): Promise<"complete" | "closed"> {
  if (session.status === "complete") return "complete";
  if (session.status !== "open") return "closed";
  try {
    await client.checkout.sessions.expire(session.id);
    return "closed";
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) return stripeCall(() => Promise.reject(error));
    // Stripe refuses to expire a session that is no longer open: paid (or expired) meanwhile.
    const now = await stripeCall(() => client.checkout.sessions.retrieve(session.id));
    return now.status === "complete" ? "complete" : "closed";
  }
}

const successPathOf = (promotionId: string, sessionId: string) =>
  `/owner/checkout/success?promotion=${encodeURIComponent(promotionId)}&session_id=${encodeURIComponent(sessionId)}`;

interface Activation {
  /** The plan Stripe says was paid, or what is wrong with the payment. */
  paid: Verdict;
  customerId: string | null;
  subscriptionId: string | null;
  sessionId: string | null;
  period: { start: Date | null; end: Date | null };
  stripeInvoiceId: string | null;
  amountCents: number | null;
  currency: string;
  hostedInvoiceUrl?: string | null;
}

/**
 * Makes a pending promotion active in the caller's transaction, at the plan that was paid (which
 * may not be the one the promotion asked for, if its plan changed after the checkout opened):
 * plan, period, Stripe ids, base tier, the listing's tier, a paid receipt and the payment email.
 * Nothing for a promotion no longer pending; a payment that is no plan is recorded, not applied.
 */
async function activate(
  tx: Database,
  promotion: PromotionRow,
  a: Activation,
  now: Date,
  actor: AuditActor,
): Promise<Applied> {
  if (promotion.status !== "pending") return NONE;
  if (!a.paid.plan) return recordUnmatched(tx, promotion, a, actor);
  const listing = await listingForTier(tx, promotion.locationId);
  if (!listing) return NONE;
  const { tier, interval } = a.paid.plan;
  const periodStart = a.period.start ?? now;
  const periodEnd = a.period.end ?? addInterval(periodStart, interval);
  const { active, tierChanged } = await activatePromotion(
    tx,
    promotion,
    listing.tier,
    {
      tier,
      interval,
      periodStart,
      periodEnd,
      stripeCustomerId: a.customerId ?? promotion.stripeCustomerId,
      stripeSubscriptionId: a.subscriptionId ?? promotion.stripeSubscriptionId,
      stripeCheckoutSessionId: a.sessionId ?? promotion.stripeCheckoutSessionId,
    },
    actor,
  );
  const receipt = await recordReceipt(tx, active, a, periodStart, periodEnd, now);
  const buyer = await personById(tx, promotion.buyerUserId);
  if (buyer && receipt)
    await mail.paymentReceived(tx, buyer, { invoice: receipt, listingName: listing.name, promotion: active });
  return { tierChanged, emailed: Boolean(buyer && receipt) };
}

interface Applied {
  tierChanged: boolean;
  emailed: boolean;
  /** A payment that was not applied: the webhook answers `unmatched`. */
  unmatched?: boolean;
}
const NONE: Applied = { tierChanged: false, emailed: false };

/**
 * A payment Stripe took that is not applied (not a plan on offer, or a second subscription for a
 * promotion already paid): an audit row an administrator sees, and a warning in the log, so that
 * money taken is never silently kept. The owner is told on the success page.
 */
async function recordUnmatched(
  tx: Database,
  promotion: PromotionRow,
  a: Pick<Activation, "paid" | "sessionId" | "subscriptionId" | "stripeInvoiceId" | "amountCents" | "currency">,
  actor: AuditActor,
  problem = a.paid.problem ?? "",
): Promise<Applied> {
  const details = {
    problem,
    sessionId: a.sessionId,
    subscriptionId: a.subscriptionId,
    stripeInvoiceId: a.stripeInvoiceId,
    amountCents: a.amountCents,
    currency: a.currency,
  };
  logger.warn({ promotionId: promotion.id, ...details }, "a Stripe payment does not match a plan; not applied");
  await recordAudit(tx, {
    actor,
    action: "promotion.payment_unmatched",
    subject: { type: "promotion", id: promotion.id },
    before: snapshot(promotion),
    after: details,
  });
  return { ...NONE, unmatched: true };
}

/** A paid receipt for a Stripe payment, once per Stripe invoice (its id is unique). */
async function recordReceipt(
  tx: Database,
  promotion: PromotionRow,
  a: Pick<Activation, "stripeInvoiceId" | "amountCents" | "currency" | "hostedInvoiceUrl">,
  periodStart: Date | null,
  periodEnd: Date | null,
  now: Date,
) {
  if (a.stripeInvoiceId) {
    const [seen] = await tx.select().from(invoices).where(eq(invoices.stripeInvoiceId, a.stripeInvoiceId));
    if (seen) return undefined;
  }
  const [row] = await tx
    .insert(invoices)
    .values({
      id: randomUUID(),
      number: await nextInvoiceNumber(tx, now),
      promotionId: promotion.id,
      amountCents: a.amountCents ?? 0,
      currency: a.currency,
      status: "paid",
      periodStart,
      periodEnd,
      issuedAt: now,
      paidAt: now,
      stripeInvoiceId: a.stripeInvoiceId,
      hostedInvoiceUrl: a.hostedInvoiceUrl?.startsWith("https://") ? a.hostedInvoiceUrl : null,
      tier: promotion.tier,
      interval: promotion.interval,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/**
 * What a paid Checkout Session bought, from Stripe itself: the session's line items (fetched, as
 * webhooks leave them out) and its subscription, which must bill the same one price once.
 */
async function activationOfSession(
  client: Stripe,
  settings: StripeSettings,
  given: Stripe.Checkout.Session,
): Promise<Activation> {
  const session = given.line_items ? given : await retrieveSession(client, given.id);
  const subscriptionId = idOf(session.subscription);
  const subscription =
    typeof session.subscription === "object" && session.subscription
      ? session.subscription
      : subscriptionId
        ? await stripeCall(() => client.subscriptions.retrieve(subscriptionId))
        : null;
  const lines: PaidLine[] = (session.line_items?.data ?? []).map((line) => ({
    priceId: line.price?.id,
    quantity: line.quantity,
    amountCents: line.amount_total,
    currency: line.currency ?? session.currency,
    interval: line.price?.recurring?.interval,
  }));
  let paid = paidPlanOf(settings, lines, { full: true });
  if (paid.plan && (session.currency ?? "").toLowerCase() !== settings.promotionPlans.currency)
    paid = { problem: `it is in ${session.currency ?? "an unknown currency"}` };
  const items = subscription?.items?.data ?? [];
  if (
    paid.plan &&
    subscription &&
    (items.length !== 1 || items[0]!.price?.id !== paid.plan.priceId || items[0]!.quantity !== 1)
  )
    paid = { problem: "its subscription bills another price or quantity than the checkout" };
  return {
    paid,
    customerId: idOf(session.customer),
    subscriptionId,
    sessionId: session.id,
    period: subscription ? periodOf(subscription) : { start: null, end: null },
    stripeInvoiceId: idOf(session.invoice),
    amountCents: session.amount_total ?? null,
    currency: session.currency ?? "usd",
  };
}

const paid = (session: Stripe.Checkout.Session) =>
  session.status === "complete" &&
  (session.payment_status === "paid" || session.payment_status === "no_payment_required");

/**
 * The success page's check (safe to reload): when Stripe says the session is paid and the webhook
 * has not arrived yet, the promotion is activated here, exactly as the webhook would.
 */
export async function syncCheckoutSession(
  db: Database,
  input: { actor: Actor; promotionId: string; sessionId: string; settings?: StripeSettings; now?: Date },
): Promise<PromotionRow> {
  const settings = input.settings ?? getConfig();
  const client = requireClient(settings);
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status !== "pending") return promotion;
  if (input.sessionId.length > 200) throw badRequest(STRIPE_MESSAGES.badSession);
  const session = await retrieveSession(client, input.sessionId);
  if (session.client_reference_id !== promotion.id) throw badRequest(STRIPE_MESSAGES.badSession);
  if (!paid(session)) return promotion;
  const activation = await activationOfSession(client, settings, session);
  const now = input.now ?? new Date();
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const locked = (await promotionById(tx, promotion.id, true))!;
    const done = await activate(tx, locked, activation, now, input.actor);
    return { ...done, row: (await promotionById(tx, promotion.id))! };
  });
  if (result.unmatched) throw conflict(STRIPE_MESSAGES.unmatched);
  await afterCommit(result.tierChanged, db, result.emailed);
  return result.row;
}

/** Stripe's customer portal for the promotion's customer (cards, receipts). */
export async function openCustomerPortal(
  db: Database,
  input: { actor: Actor; promotionId: string; returnUrl: string; settings?: StripeSettings },
): Promise<{ url: string }> {
  const client = requireClient(input.settings ?? getConfig());
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (!promotion.stripeCustomerId) throw conflict(STRIPE_MESSAGES.notLive);
  const portal = await stripeCall(() =>
    client.billingPortal.sessions.create({
      customer: promotion.stripeCustomerId!,
      return_url: input.returnUrl,
    }),
  );
  return { url: portal.url };
}

/** Cancel at period end: Stripe stops renewing first, then the promotion records it. */
export async function cancelStripeAtPeriodEnd(
  db: Database,
  input: { actor: Actor; promotionId: string; requestId?: string | null; settings?: StripeSettings },
): Promise<PromotionRow> {
  const settings = input.settings ?? getConfig();
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status !== "pending" && promotion.stripeSubscriptionId && !promotion.cancelAtPeriodEnd)
    await stripeCall(() =>
      requireClient(settings).subscriptions.update(promotion.stripeSubscriptionId!, { cancel_at_period_end: true }),
    );
  return cancelAtPeriodEnd(db, { actor: input.actor, promotionId: promotion.id, requestId: input.requestId });
}

/**
 * A change of plan on a card subscription: Stripe swaps the price and charges (or credits) the
 * difference at once (`always_invoice`), and with `pending_if_incomplete` the swap happens only if
 * that charge succeeds; the listing takes the new tier only then, so an upgrade is never granted on
 * credit. Before payment, the change expires the open Checkout Session at Stripe, so the old plan's
 * payment page cannot be paid any more; one already paid keeps its plan (409).
 */
export async function changeStripePlan(
  db: Database,
  input: {
    actor: Actor;
    promotionId: string;
    tier: string;
    interval: string;
    requestId?: string | null;
    settings?: StripeSettings;
  },
): Promise<{ promotion: PromotionRow; changed: boolean }> {
  const settings = input.settings ?? getConfig();
  if (!(PAID_TIERS as readonly string[]).includes(input.tier)) throw badRequest(PROMOTION_MESSAGES.unknownPlan);
  if (!(INTERVALS as readonly string[]).includes(input.interval)) throw badRequest(PROMOTION_MESSAGES.unknownInterval);
  const tier = input.tier as PaidTier;
  const interval = input.interval as Interval;
  const client = requireClient(settings);
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status === "ended" || promotion.status === "void") throw conflict(PROMOTION_MESSAGES.notLive);
  if (promotion.tier === tier && promotion.interval === interval) return { promotion, changed: false };
  const price = priceIdOf(settings, tier, interval);
  const pending = promotion.status === "pending" || !promotion.stripeSubscriptionId;
  if (pending) {
    // Not paid yet: the open payment page is for the old plan. It is expired first; its id is kept,
    // so the next checkout knows to make a new session (./stripe.ts startCheckout).
    if (promotion.stripeCheckoutSessionId) {
      const session = await retrieveSession(client, promotion.stripeCheckoutSessionId);
      if ((await closeSession(client, session)) === "complete") throw conflict(STRIPE_MESSAGES.alreadyPaid);
    }
  } else {
    const subscription = await stripeCall(() => client.subscriptions.retrieve(promotion.stripeSubscriptionId!));
    const { itemId } = periodOf(subscription);
    const updated = await stripeCall(() =>
      client.subscriptions.update(promotion.stripeSubscriptionId!, {
        items: [{ id: itemId, price }],
        proration_behavior: "always_invoice",
        payment_behavior: "pending_if_incomplete",
      }),
    );
    if (updated.pending_update || periodOf(updated).priceId !== price) throw conflict(STRIPE_MESSAGES.declined);
  }
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const locked = (await promotionById(tx, promotion.id, true))!;
    if (pending && locked.status !== "pending") throw conflict(STRIPE_MESSAGES.alreadyPaid);
    const [row] = await tx
      .update(promotions)
      .set({ tier, interval })
      .where(eq(promotions.id, promotion.id))
      .returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: "promotion.change",
      subject: { type: "promotion", id: promotion.id },
      before: snapshot(locked),
      after: snapshot(row!),
      requestId: input.requestId,
    });
    const tierChanged = pending
      ? false
      : await setListingTier(tx, promotion.locationId, tier, input.actor, input.requestId);
    return { row: row!, tierChanged };
  });
  await afterCommit(result.tierChanged, db, false);
  return { promotion: result.row, changed: true };
}

/**
 * Stops a promotion's card billing at Stripe for good (a listing transfer, ./transfer.ts): its
 * subscription is cancelled at once; before payment, its Checkout Session is expired (a session
 * paid meanwhile has its new subscription cancelled). Safe to repeat: what is already cancelled or
 * expired is left as it is. Throws the 502 of `stripeCall` when Stripe cannot be reached.
 */
export async function cancelCardBilling(client: Stripe, promotion: PromotionRow): Promise<void> {
  let subscriptionId = promotion.stripeSubscriptionId;
  if (!subscriptionId && promotion.stripeCheckoutSessionId) {
    const session = await stripeCall(() => client.checkout.sessions.retrieve(promotion.stripeCheckoutSessionId!));
    if ((await closeSession(client, session)) === "complete")
      subscriptionId = idOf((await stripeCall(() => client.checkout.sessions.retrieve(session.id))).subscription);
  }
  if (!subscriptionId) return;
  const gone = new Set(["canceled", "incomplete_expired"]);
  const subscription = await stripeCall(() => client.subscriptions.retrieve(subscriptionId));
  if (gone.has(subscription.status)) return;
  await stripeCall(() => client.subscriptions.cancel(subscriptionId));
}

/**
 * An admin ends a promotion at once (./service.ts endPromotion); a card one's billing is stopped
 * at Stripe first, so a subscription never keeps charging for a promotion that has ended.
 */
export async function endPromotionWithBilling(
  db: Database,
  input: Parameters<typeof endPromotion>[1] & { settings?: StripeSettings },
): Promise<PromotionRow> {
  if (!input.actor.isAdmin) throw forbidden(PROMOTION_MESSAGES.adminsOnly);
  reasonOf(input.reason);
  const promotion = await promotionById(db, input.promotionId);
  const live = promotion && (LIVE_PROMOTION_STATUSES as readonly string[]).includes(promotion.status);
  const client = stripeClient(input.settings ?? getConfig());
  if (live && promotion.provider === "stripe" && client) await cancelCardBilling(client, promotion);
  return endPromotion(db, input);
}

const STRIPE_SYSTEM: AuditActor = { userId: null, email: null };

/** What an event needs from Stripe's API, fetched before the transaction. */
async function prefetch(client: Stripe, settings: StripeSettings, event: Stripe.Event): Promise<Activation | null> {
  if (event.type === "checkout.session.completed" && paid(event.data.object))
    return activationOfSession(client, settings, event.data.object);
  return null;
}

/** The promotion an event is about: its metadata, else its subscription or checkout session. */
async function promotionOfEvent(tx: Database, event: Stripe.Event): Promise<PromotionRow | undefined> {
  const object = event.data.object as unknown as {
    object: string;
    id: string;
    metadata?: Stripe.Metadata;
    subscription?: string | { id: string };
  };
  let byMetadata = promotionIdOf(object.metadata);
  let subscriptionId: string | null = null;
  if (object.object === "checkout.session") subscriptionId = idOf(object.subscription);
  if (object.object === "subscription") subscriptionId = object.id;
  if (object.object === "invoice") {
    const invoice = event.data.object as Stripe.Invoice;
    subscriptionId = subscriptionOfInvoice(invoice);
    const parent = (invoice as unknown as { parent?: { subscription_details?: { metadata?: Stripe.Metadata } } })
      .parent;
    byMetadata ??= promotionIdOf(parent?.subscription_details?.metadata);
  }
  if (byMetadata) return promotionById(tx, byMetadata, true);
  if (subscriptionId) {
    const [row] = await tx
      .select({ id: promotions.id })
      .from(promotions)
      .where(eq(promotions.stripeSubscriptionId, subscriptionId));
    if (row) return promotionById(tx, row.id, true);
  }
  if (object.object === "checkout.session") {
    const [row] = await tx
      .select({ id: promotions.id })
      .from(promotions)
      .where(eq(promotions.stripeCheckoutSessionId, object.id));
    if (row) return promotionById(tx, row.id, true);
  }
  return undefined;
}

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POST /api/stripe/webhook: verifies the signature on the raw body, then applies the event once
 * (docs/product.md section 11). Unknown events and events about no promotion are acknowledged.
 */
export async function handleStripeWebhook(
  db: Database,
  rawBody: Buffer | string,
  signature: string | null | undefined,
  options: { settings?: StripeSettings; now?: Date } = {},
): Promise<WebhookAnswer> {
  const settings = options.settings ?? getConfig();
  const client = stripeClient(settings);
  if (!client) return { status: 404, body: { error: STRIPE_MESSAGES.off } };
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no signature");
    event = client.webhooks.constructEvent(rawBody, signature, settings.STRIPE_WEBHOOK_SECRET!);
  } catch {
    return { status: 400, body: { error: STRIPE_MESSAGES.badSignature } };
  }
  const now = options.now ?? new Date();
  const eventTime = new Date(event.created * 1000);
  const prefetched = await prefetch(client, settings, event);
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const inserted = await tx
      .insert(stripeEvents)
      .values({ eventId: event.id, type: event.type, created: eventTime, processedAt: now })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) return { outcome: "duplicate", tierChanged: false, emailed: false };
    const promotion = await promotionOfEvent(tx, event);
    if (!promotion) return { outcome: "ignored", tierChanged: false, emailed: false };
    if (promotion.providerStateAt && eventTime < promotion.providerStateAt)
      return { outcome: "stale", tierChanged: false, emailed: false };
    const applied = await apply(tx, promotion, event, prefetched, settings, now);
    await tx.update(promotions).set({ providerStateAt: eventTime }).where(eq(promotions.id, promotion.id));
    return { outcome: applied.unmatched ? "unmatched" : "applied", ...applied };
  });
  await afterCommit(result.tierChanged, db, result.emailed);
  return { status: 200, body: { received: true, outcome: result.outcome } };
}

async function apply(
  tx: Database,
  promotion: PromotionRow,
  event: Stripe.Event,
  prefetched: Activation | null,
  settings: StripeSettings,
  now: Date,
): Promise<Applied> {
  const none = NONE;
  switch (event.type) {
    case "checkout.session.completed": {
      if (!paid(event.data.object) || !prefetched) return none;
      if (promotion.status === "pending") return activate(tx, promotion, prefetched, now, STRIPE_SYSTEM);
      // Paid already through another session (two tabs, or an old page that raced its expiry): a
      // second subscription is money taken for nothing; it is recorded for an administrator.
      if (prefetched.subscriptionId && prefetched.subscriptionId !== promotion.stripeSubscriptionId)
        return recordUnmatched(
          tx,
          promotion,
          prefetched,
          STRIPE_SYSTEM,
          "a second subscription for a promotion already paid",
        );
      return none;
    }
    case "invoice.paid": {
      const invoice = event.data.object;
      const { verdict, period } = verdictOfInvoice(settings, invoice);
      const activation: Activation = {
        paid: verdict,
        customerId: idOf(invoice.customer),
        subscriptionId: subscriptionOfInvoice(invoice),
        sessionId: null,
        period,
        stripeInvoiceId: invoice.id ?? null,
        amountCents: invoice.amount_paid,
        currency: invoice.currency,
        hostedInvoiceUrl: invoice.hosted_invoice_url,
      };
      // The first invoice may arrive before checkout.session.completed: it activates just the same.
      if (promotion.status === "pending") return activate(tx, promotion, activation, now, STRIPE_SYSTEM);
      if (promotion.status !== "active" && promotion.status !== "past_due") return none;
      // A renewal or a change of plan: the period and the plan are what this invoice paid for.
      if (!verdict.plan) return recordUnmatched(tx, promotion, activation, STRIPE_SYSTEM);
      const periodEnd =
        period.end && (!promotion.periodEnd || period.end > promotion.periodEnd) ? period.end : promotion.periodEnd;
      const { tier, interval } = verdict.plan;
      const [row] = await tx
        .update(promotions)
        .set({ status: "active", periodEnd, tier, interval })
        .where(eq(promotions.id, promotion.id))
        .returning();
      const planChanged = tier !== promotion.tier || interval !== promotion.interval;
      if (promotion.status !== "active" || periodEnd !== promotion.periodEnd || planChanged)
        await recordAudit(tx, {
          actor: STRIPE_SYSTEM,
          action: planChanged ? "promotion.change" : "promotion.renew",
          subject: { type: "promotion", id: promotion.id },
          before: snapshot(promotion),
          after: snapshot(row!),
        });
      const tierChanged = await setListingTier(tx, promotion.locationId, tier, STRIPE_SYSTEM);
      const receipt = await recordReceipt(tx, row!, activation, period.start, period.end, now);
      const buyer = await personById(tx, promotion.buyerUserId);
      const listing = await listingForTier(tx, promotion.locationId);
      if (buyer && receipt && listing)
        await mail.paymentReceived(tx, buyer, { invoice: receipt, listingName: listing.name, promotion: row! });
      return { tierChanged, emailed: Boolean(buyer && receipt && listing) };
    }
    case "invoice.payment_failed": {
      if (promotion.status !== "active") return none;
      const [row] = await tx
        .update(promotions)
        .set({ status: "past_due" })
        .where(eq(promotions.id, promotion.id))
        .returning();
      await recordAudit(tx, {
        actor: STRIPE_SYSTEM,
        action: "promotion.past_due",
        subject: { type: "promotion", id: promotion.id },
        before: snapshot(promotion),
        after: snapshot(row!),
      });
      return none;
    }
    case "customer.subscription.updated": {
      if (promotion.status === "pending" || promotion.status === "ended" || promotion.status === "void") return none;
      const sub = event.data.object;
      const { end, priceId } = periodOf(sub);
      // A subscription's new price is not a payment: a lower or equal tier applies at once (the
      // owner gets less), a higher one when the invoice that charges it is paid (invoice.paid).
      const priced = planOfPrice(settings, priceId);
      const plan =
        priced &&
        (sub.items?.data?.length ?? 0) === 1 &&
        TIER_WEIGHT[priced.tier] <= TIER_WEIGHT[promotion.tier as PaidTier]
          ? priced
          : undefined;
      const status =
        sub.status === "past_due" || sub.status === "unpaid"
          ? "past_due"
          : sub.status === "active" || sub.status === "trialing"
            ? "active"
            : promotion.status;
      const [row] = await tx
        .update(promotions)
        .set({
          status,
          cancelAtPeriodEnd: sub.cancel_at_period_end,
          periodEnd: end ?? promotion.periodEnd,
          ...(plan ? { tier: plan.tier, interval: plan.interval } : {}),
        })
        .where(eq(promotions.id, promotion.id))
        .returning();
      await recordAudit(tx, {
        actor: STRIPE_SYSTEM,
        action: "promotion.sync",
        subject: { type: "promotion", id: promotion.id },
        before: snapshot(promotion),
        after: snapshot(row!),
      });
      const tierChanged = plan ? await setListingTier(tx, promotion.locationId, plan.tier, STRIPE_SYSTEM) : false;
      return { tierChanged, emailed: false };
    }
    case "customer.subscription.deleted": {
      if (promotion.status === "ended" || promotion.status === "void") return none;
      const ended = await finish(tx, promotion, {
        status: promotion.status === "pending" ? "void" : "ended",
        reason: "subscription cancelled",
        now,
        actor: STRIPE_SYSTEM,
      });
      return { tierChanged: ended.tierChanged, emailed: ended.emailed };
    }
    default:
      return none;
  }
}
