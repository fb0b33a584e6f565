import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { recordAudit, type Actor } from "../audit/record";
import { getConfig, type Config } from "../config";
import type { Database } from "../db/client";
import { invoices, promotions, stripeEvents, type PromotionRow } from "../db/schema";
import { AppError, badRequest, conflict, notFound } from "../errors";
import * as mail from "./emails";
import { INTERVALS, PAID_TIERS, planFor, type Interval, type PaidTier } from "./plans";
import { paymentProvider } from "./provider";
import { listingForTier, personById, promotionById } from "./queries";
import {
  actorOf,
  addInterval,
  afterCommit,
  asTx,
  cancelAtPeriodEnd,
  finish,
  nextInvoiceNumber,
  PROMOTION_MESSAGES,
  requireOwnerOrAdmin,
  setListingTier,
  snapshot,
  type PromotionActor,
} from "./service";

/**
 * The Stripe provider (docs/product.md section 11, ADR 016): Checkout Sessions in subscription
 * mode, the customer portal, and the webhook that activates, renews, marks past due and ends
 * promotions. Every webhook is applied in one transaction that first records its event id, so a
 * replay changes nothing, and a promotion remembers the time of the last event applied, so an
 * older event arriving late is recorded but not applied. Network calls to Stripe happen before a
 * transaction opens, never inside one.
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

function promotionIdOf(metadata: Stripe.Metadata | null | undefined): string | null {
  const id = metadata?.promotionId;
  return typeof id === "string" && id.length > 0 && id.length <= 200 ? id : null;
}

async function pendingStripePromotion(db: Database, actor: PromotionActor, promotionId: string) {
  const promotion = await promotionById(db, promotionId);
  if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
  await requireOwnerOrAdmin(db, actor, promotion.locationId);
  if (promotion.provider !== "stripe") throw conflict(STRIPE_MESSAGES.notStripe);
  return promotion;
}

export interface StartCheckoutInput {
  actor: PromotionActor;
  promotionId: string;
  /** The site's public origin: where Stripe sends the owner back. */
  origin: string;
  settings?: StripeSettings;
}

/**
 * The Checkout Session for a pending promotion, created once (Stripe's idempotency key is the
 * promotion's id): a double click or a browser closed on Stripe's page finds the same open
 * session; an expired one is replaced.
 */
export async function startCheckout(db: Database, input: StartCheckoutInput): Promise<{ url: string }> {
  const settings = input.settings ?? getConfig();
  const client = requireClient(settings);
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status !== "pending") throw conflict(STRIPE_MESSAGES.notPending);
  let retryKey = "";
  if (promotion.stripeCheckoutSessionId) {
    const earlier = await stripeCall(() => client.checkout.sessions.retrieve(promotion.stripeCheckoutSessionId!));
    if (earlier.status === "open" && earlier.url) return { url: earlier.url };
    if (earlier.status === "complete") return { url: `${input.origin}${successPathOf(promotion.id, earlier.id)}` };
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
        line_items: [{ price: priceIdOf(settings, promotion.tier, promotion.interval as Interval), quantity: 1 }],
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
      { idempotencyKey: `checkout:${promotion.id}${retryKey}` },
    ),
  );
  await db.update(promotions).set({ stripeCheckoutSessionId: session.id }).where(eq(promotions.id, promotion.id));
  if (!session.url) throw new AppError("bad_gateway", 502, "Stripe did not return a payment page. Try again.");
  return { url: session.url };
}

const successPathOf = (promotionId: string, sessionId: string) =>
  `/owner/checkout/success?promotion=${encodeURIComponent(promotionId)}&session_id=${encodeURIComponent(sessionId)}`;

interface Activation {
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
 * Makes a pending promotion active in the caller's transaction: period, Stripe ids, base tier,
 * the listing's tier, a paid receipt and the payment email. Nothing for a promotion no longer pending.
 */
async function activate(tx: Database, promotion: PromotionRow, a: Activation, now: Date, actor: Actor) {
  if (promotion.status !== "pending") return { tierChanged: false, emailed: false };
  const listing = await listingForTier(tx, promotion.locationId);
  if (!listing) return { tierChanged: false, emailed: false };
  const interval = promotion.interval as Interval;
  const periodStart = a.period.start ?? now;
  const periodEnd = a.period.end ?? addInterval(periodStart, interval);
  const [active] = await tx
    .update(promotions)
    .set({
      status: "active",
      periodStart,
      periodEnd,
      baseTier: promotion.baseTier ?? listing.tier,
      stripeCustomerId: a.customerId ?? promotion.stripeCustomerId,
      stripeSubscriptionId: a.subscriptionId ?? promotion.stripeSubscriptionId,
      stripeCheckoutSessionId: a.sessionId ?? promotion.stripeCheckoutSessionId,
    })
    .where(eq(promotions.id, promotion.id))
    .returning();
  await recordAudit(tx, {
    actor,
    action: "promotion.activate",
    subject: { type: "promotion", id: promotion.id },
    before: snapshot(promotion),
    after: snapshot(active!),
  });
  const tierChanged = await setListingTier(tx, promotion.locationId, active!.tier, actor);
  const receipt = await recordReceipt(tx, active!, a, periodStart, periodEnd, now);
  const buyer = await personById(tx, promotion.buyerUserId);
  if (buyer && receipt)
    await mail.paymentReceived(tx, buyer, { invoice: receipt, listingName: listing.name, promotion: active! });
  return { tierChanged, emailed: Boolean(buyer && receipt) };
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

async function activationOfSession(client: Stripe, session: Stripe.Checkout.Session): Promise<Activation> {
  const subscriptionId = idOf(session.subscription);
  const subscription =
    typeof session.subscription === "object" && session.subscription
      ? session.subscription
      : subscriptionId
        ? await stripeCall(() => client.subscriptions.retrieve(subscriptionId))
        : null;
  return {
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
  input: { actor: PromotionActor; promotionId: string; sessionId: string; settings?: StripeSettings; now?: Date },
): Promise<PromotionRow> {
  const settings = input.settings ?? getConfig();
  const client = requireClient(settings);
  const promotion = await pendingStripePromotion(db, input.actor, input.promotionId);
  if (promotion.status !== "pending") return promotion;
  if (input.sessionId.length > 200) throw badRequest(STRIPE_MESSAGES.badSession);
  const session = await stripeCall(() => client.checkout.sessions.retrieve(input.sessionId));
  if (session.client_reference_id !== promotion.id) throw badRequest(STRIPE_MESSAGES.badSession);
  if (!paid(session)) return promotion;
  const activation = await activationOfSession(client, session);
  const now = input.now ?? new Date();
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const locked = (await promotionById(tx, promotion.id, true))!;
    const done = await activate(tx, locked, activation, now, actorOf(input.actor));
    return { ...done, row: (await promotionById(tx, promotion.id))! };
  });
  await afterCommit(result.tierChanged, db, result.emailed);
  return result.row;
}

/** Stripe's customer portal for the promotion's customer (cards, receipts). */
export async function openCustomerPortal(
  db: Database,
  input: { actor: PromotionActor; promotionId: string; returnUrl: string; settings?: StripeSettings },
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
  input: { actor: PromotionActor; promotionId: string; requestId?: string | null; settings?: StripeSettings },
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
 * A change of plan on a card subscription: Stripe swaps the price with prorations (the card is
 * charged or credited the difference), and the listing takes the new tier at once.
 */
export async function changeStripePlan(
  db: Database,
  input: {
    actor: PromotionActor;
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
  if (promotion.status === "pending" || !promotion.stripeSubscriptionId) {
    // Not paid yet: the next checkout is for the new plan.
    const [row] = await db
      .update(promotions)
      .set({ tier, interval, stripeCheckoutSessionId: null })
      .where(eq(promotions.id, promotion.id))
      .returning();
    await recordAudit(db, {
      actor: actorOf(input.actor),
      action: "promotion.change",
      subject: { type: "promotion", id: promotion.id },
      before: snapshot(promotion),
      after: snapshot(row!),
      requestId: input.requestId,
    });
    return { promotion: row!, changed: true };
  }
  const subscription = await stripeCall(() => client.subscriptions.retrieve(promotion.stripeSubscriptionId!));
  const { itemId } = periodOf(subscription);
  await stripeCall(() =>
    client.subscriptions.update(promotion.stripeSubscriptionId!, {
      items: [{ id: itemId, price: priceIdOf(settings, tier, interval) }],
      proration_behavior: "create_prorations",
    }),
  );
  const result = await db.transaction(async (t) => {
    const tx = asTx(t);
    const locked = (await promotionById(tx, promotion.id, true))!;
    const [row] = await tx
      .update(promotions)
      .set({ tier, interval })
      .where(eq(promotions.id, promotion.id))
      .returning();
    await recordAudit(tx, {
      actor: actorOf(input.actor),
      action: "promotion.change",
      subject: { type: "promotion", id: promotion.id },
      before: snapshot(locked),
      after: snapshot(row!),
      requestId: input.requestId,
    });
    const tierChanged = await setListingTier(tx, promotion.locationId, tier, actorOf(input.actor), input.requestId);
    return { row: row!, tierChanged };
  });
  await afterCommit(result.tierChanged, db, false);
  return { promotion: result.row, changed: true };
}

const STRIPE_SYSTEM: Actor = { userId: null, email: null };

/** What an event needs from Stripe's API, fetched before the transaction. */
async function prefetch(client: Stripe, event: Stripe.Event): Promise<Activation | null> {
  if (event.type === "checkout.session.completed") return activationOfSession(client, event.data.object);
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
  const prefetched = await prefetch(client, event);
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
    return { outcome: "applied", ...applied };
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
): Promise<{ tierChanged: boolean; emailed: boolean }> {
  const none = { tierChanged: false, emailed: false };
  switch (event.type) {
    case "checkout.session.completed": {
      if (!paid(event.data.object) || !prefetched) return none;
      return activate(tx, promotion, prefetched, now, STRIPE_SYSTEM);
    }
    case "invoice.paid": {
      const invoice = event.data.object;
      const line = invoice.lines?.data?.[0];
      const period = { start: dateOf(line?.period?.start), end: dateOf(line?.period?.end) };
      const activation: Activation = {
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
      const periodEnd =
        period.end && (!promotion.periodEnd || period.end > promotion.periodEnd) ? period.end : promotion.periodEnd;
      const [row] = await tx
        .update(promotions)
        .set({ status: "active", periodEnd })
        .where(eq(promotions.id, promotion.id))
        .returning();
      if (promotion.status !== "active" || periodEnd !== promotion.periodEnd)
        await recordAudit(tx, {
          actor: STRIPE_SYSTEM,
          action: "promotion.renew",
          subject: { type: "promotion", id: promotion.id },
          before: snapshot(promotion),
          after: snapshot(row!),
        });
      const receipt = await recordReceipt(tx, row!, activation, period.start, period.end, now);
      const buyer = await personById(tx, promotion.buyerUserId);
      const listing = await listingForTier(tx, promotion.locationId);
      if (buyer && receipt && listing)
        await mail.paymentReceived(tx, buyer, { invoice: receipt, listingName: listing.name, promotion: row! });
      return { tierChanged: false, emailed: Boolean(buyer && receipt && listing) };
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
      const plan = planOfPrice(settings, priceId);
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
