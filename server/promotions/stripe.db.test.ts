import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { insertListing, insertPerson } from "../claims/test-support";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, invoices, listingOwners, locations, promotions, stripeEvents } from "../db/schema";
import { getSearchIndex, refreshSearchIndex } from "../search";
import { endExpiredPromotions, requestPromotion } from "./service";
import {
  changeStripePlan,
  endPromotionWithBilling,
  handleStripeWebhook,
  openCustomerPortal,
  startCheckout,
  STRIPE_MESSAGES,
  syncCheckoutSession,
} from "./stripe";
import {
  FOREIGN_PRICE,
  PERIOD_END,
  PERIOD_START,
  PRICES,
  startStripeStandIn,
  type StripeStandIn,
} from "./stripe-test-support";
import type { Actor } from "../auth/actor";

/**
 * The Stripe provider against a local stand-in for Stripe's API (./stripe-test-support.ts: the
 * official SDK pointed at it by STRIPE_API_BASE), with webhooks signed by the SDK's own test
 * helper. No internet needed.
 */
let handle: DatabaseHandle;
let stand: StripeStandIn;
let settings: Config;
beforeAll(async () => {
  handle = await createTestDatabase();
  stand = await startStripeStandIn();
  settings = stand.settings;
});
afterAll(async () => {
  await handle?.close();
  await stand?.close();
});
const db = () => handle.db;
const recorded = () => stand.recorded;

async function setup(plan: { tier: string; interval: string } = { tier: "Preferred", interval: "month" }) {
  const listing = await insertListing(db(), { latitude: 43.25, longitude: -108.25, tier: "Free" });
  const rival = await insertListing(db(), { latitude: 43.25, longitude: -108.2501, tier: "Basic" });
  const owner: Actor = await insertPerson(db(), { role: "business_owner" });
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: owner.userId });
  const stranger: Actor = await insertPerson(db(), { role: "business_owner" });
  const { promotion } = await requestPromotion(db(), {
    actor: owner,
    locationId: listing.placeId,
    ...plan,
    idempotencyKey: `key-${randomUUID()}`,
    provider: "stripe",
    settings,
  });
  return { listing, rival, owner, stranger, promotion };
}

const row = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const tierOf = async (id: string) =>
  (await db().select({ tier: locations.tier }).from(locations).where(eq(locations.placeId, id)))[0]!.tier;

const signed = (type: string, object: Record<string, unknown>, created?: number, id?: string) =>
  stand.signed(type, object, created, id);
const deliver = (event: { payload: string; signature: string }) =>
  handleStripeWebhook(db(), Buffer.from(event.payload), event.signature, { settings });
const pay = (sessionId: string, promotionId: string, overrides?: Parameters<StripeStandIn["pay"]>[2]) =>
  stand.pay(sessionId, promotionId, overrides);
const subscriptions = { get: (id: string) => stand.subscriptions.get(id) };

describe("Stripe checkout", () => {
  it("creates one Checkout Session with the plan's price, the listing and the owner, and refuses strangers", async () => {
    const s = await setup();
    const origin = "https://rv.example";
    const first = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    const second = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    expect(second.url).toBe(first.url);
    const created = recorded().filter(
      (r) => r.path === "/v1/checkout/sessions" && r.body.get("client_reference_id") === s.promotion.id,
    );
    expect(created).toHaveLength(1);
    const body = created[0]!.body;
    expect(Object.fromEntries(body)).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_pref_m",
      "line_items[0][quantity]": "1",
      "metadata[promotionId]": s.promotion.id,
      "metadata[locationId]": s.listing.placeId,
      "metadata[buyerUserId]": s.owner.userId,
      "subscription_data[metadata][promotionId]": s.promotion.id,
      customer_email: s.owner.email,
      cancel_url: `${origin}/owner/checkout?promotion=${s.promotion.id}`,
    });
    expect(body.get("success_url")).toBe(
      `${origin}/owner/checkout/success?promotion=${s.promotion.id}&session_id={CHECKOUT_SESSION_ID}`,
    );
    expect(created[0]!.idempotencyKey).toBe(`checkout:${s.promotion.id}:Preferred-month`);
    expect(
      await rejection(startCheckout(db(), { actor: s.stranger, promotionId: s.promotion.id, origin, settings })),
    ).toMatchObject({ status: 403 });
  });

  it("activates from the success page when the webhook has not arrived, and the webhook then changes nothing", async () => {
    const s = await setup();
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const sessionId = (await row(s.promotion.id)).stripeCheckoutSessionId!;
    expect(
      await rejection(
        syncCheckoutSession(db(), { actor: s.owner, promotionId: s.promotion.id, sessionId: "cs_other", settings }),
      ),
    ).toMatchObject({ status: 400, message: "This payment does not belong to this promotion." });
    const { session } = pay(sessionId, s.promotion.id);
    const active = await syncCheckoutSession(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      sessionId,
      settings,
    });
    expect(active).toMatchObject({ status: "active", baseTier: "Free", periodEnd: new Date(PERIOD_END * 1000) });
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");
    expect(await deliver(signed("checkout.session.completed", session))).toMatchObject({ status: 200 });
    const receipts = await db().select().from(invoices).where(eq(invoices.promotionId, s.promotion.id));
    expect(receipts.map((r) => [r.status, r.amountCents])).toEqual([["paid", 4900]]);
    // The daily job leaves a card plan to Stripe's renewal for the grace days after its period.
    const end = active.periodEnd!.getTime();
    await endExpiredPromotions(db(), new Date(end + 86_400_000), settings);
    expect((await row(s.promotion.id)).status).toBe("active");
    await endExpiredPromotions(db(), new Date(end + (settings.PROMOTION_GRACE_DAYS + 1) * 86_400_000), settings);
    expect((await row(s.promotion.id)).status).toBe("ended");
    const portal = await openCustomerPortal(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      returnUrl: "https://rv.example/owner/promote",
      settings,
    });
    expect(portal.url).toBe("https://billing.stripe.test/p/1");
  });
});

describe("Stripe webhooks", () => {
  it("activate, renew, mark past due and cancel; replays and older events change nothing", async () => {
    const s = await setup();
    await refreshSearchIndex(db());
    const order = () =>
      getSearchIndex()
        .query({
          lat: 43.25,
          lng: -108.2501,
          radius: 5,
          sizes: [],
          amenities: [],
          sort: "distance",
          page: 1,
          pageSize: 50,
        })
        .items.map((i) => i.id)
        .filter((id) => id === s.listing.placeId || id === s.rival.placeId);
    expect(order()).toEqual([s.rival.placeId, s.listing.placeId]);
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const sessionId = (await row(s.promotion.id)).stripeCheckoutSessionId!;
    const { session, subscriptionId } = pay(sessionId, s.promotion.id);

    // A bad signature: 400, nothing recorded, nothing changed.
    const forged = signed("checkout.session.completed", session);
    expect(await handleStripeWebhook(db(), Buffer.from(forged.payload), "t=1,v1=bad", { settings })).toMatchObject({
      status: 400,
    });
    expect(await handleStripeWebhook(db(), Buffer.from(forged.payload), undefined, { settings })).toMatchObject({
      status: 400,
    });
    expect(
      await handleStripeWebhook(db(), Buffer.from(`${forged.payload} `), forged.signature, { settings }),
    ).toMatchObject({
      status: 400,
    });
    expect((await row(s.promotion.id)).status).toBe("pending");

    // Checkout completed: active, the listing is Preferred and ahead of the nearer Basic rival.
    const completed = signed("checkout.session.completed", session, PERIOD_START + 10);
    expect(await deliver(completed)).toMatchObject({ status: 200, body: { outcome: "applied" } });
    expect(await row(s.promotion.id)).toMatchObject({
      status: "active",
      stripeSubscriptionId: subscriptionId,
      stripeCustomerId: "cus_test_1",
    });
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");
    expect(order()).toEqual([s.listing.placeId, s.rival.placeId]);
    // The same event again: a no-op.
    expect(await deliver(completed)).toMatchObject({ status: 200, body: { outcome: "duplicate" } });

    // Renewal: invoice.paid for the next period extends it; two events for one invoice record it once.
    const nextEnd = PERIOD_END + 30 * 86_400;
    const renewal = {
      id: "in_renewal_1",
      object: "invoice",
      customer: "cus_test_1",
      amount_paid: 4900,
      currency: "usd",
      hosted_invoice_url: "https://invoice.stripe.test/in_renewal_1",
      billing_reason: "subscription_cycle",
      parent: { subscription_details: { subscription: subscriptionId, metadata: { promotionId: s.promotion.id } } },
      lines: {
        object: "list",
        data: [
          {
            amount: 4900,
            currency: "usd",
            quantity: 1,
            pricing: { type: "price_details", price_details: { price: PRICES.Preferred.month, product: "prod_pref" } },
            period: { start: PERIOD_END, end: nextEnd },
          },
        ],
      },
    };
    await deliver(signed("invoice.paid", renewal, PERIOD_END + 100));
    await deliver(signed("invoice.paid", renewal, PERIOD_END + 101));
    expect((await row(s.promotion.id)).periodEnd).toEqual(new Date(nextEnd * 1000));
    const stripeInvoices = await db().select().from(invoices).where(eq(invoices.stripeInvoiceId, "in_renewal_1"));
    expect(stripeInvoices).toHaveLength(1);
    expect(stripeInvoices[0]).toMatchObject({ status: "paid", amountCents: 4900 });

    // A failed payment: past due, the tier kept for the grace days.
    const failed = { ...renewal, id: "in_renewal_2", billing_reason: "subscription_cycle" };
    await deliver(signed("invoice.payment_failed", failed, nextEnd + 100));
    expect((await row(s.promotion.id)).status).toBe("past_due");
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");

    // An older event arriving late (the renewal paid before the failure) does not undo past due.
    expect(await deliver(signed("invoice.paid", { ...renewal, id: "in_renewal_0" }, PERIOD_END + 50))).toMatchObject({
      body: { outcome: "stale" },
    });
    expect((await row(s.promotion.id)).status).toBe("past_due");

    // Cancelled in Stripe: ended, the listing back on its base tier, behind the rival again.
    const sub = subscriptions.get(subscriptionId)!;
    await deliver(signed("customer.subscription.deleted", { ...sub, status: "canceled" }, nextEnd + 200));
    expect(await row(s.promotion.id)).toMatchObject({ status: "ended", endReason: "subscription cancelled" });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    expect(order()).toEqual([s.rival.placeId, s.listing.placeId]);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, s.owner.email));
    expect(mails.map((m) => m.kind).sort()).toEqual(["promotion.ended", "promotion.paid", "promotion.paid"]);
    const events = await db().select().from(stripeEvents);
    expect(events.length).toBeGreaterThanOrEqual(6);
  });

  it("changes plan through the subscription, and syncs a subscription update", async () => {
    const s = await setup();
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const sessionId = (await row(s.promotion.id)).stripeCheckoutSessionId!;
    const { session, subscriptionId } = pay(sessionId, s.promotion.id);
    await deliver(signed("checkout.session.completed", session, PERIOD_START + 20));
    const changed = await changeStripePlan(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      tier: "Pro",
      interval: "year",
      settings,
    });
    expect(changed.promotion).toMatchObject({ tier: "Pro", interval: "year" });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
    const update = recorded()
      .filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`)
      .at(-1)!;
    expect(Object.fromEntries(update.body)).toMatchObject({
      "items[0][id]": `si_${subscriptionId}`,
      "items[0][price]": "price_pro_y",
      // Charged now, and applied only once paid: an upgrade is never granted on credit.
      proration_behavior: "always_invoice",
      payment_behavior: "pending_if_incomplete",
    });
    expect(
      await rejection(
        changeStripePlan(db(), {
          actor: s.stranger,
          promotionId: s.promotion.id,
          tier: "Basic",
          interval: "month",
          settings,
        }),
      ),
    ).toMatchObject({ status: 403 });

    // The owner downgraded in the portal: the update event carries the Basic price.
    const basic = stand.subscription(subscriptionId, PRICES.Basic.month, { promotionId: s.promotion.id });
    await deliver(
      signed("customer.subscription.updated", { ...basic, cancel_at_period_end: true }, PERIOD_START + 500),
    );
    expect(await row(s.promotion.id)).toMatchObject({ tier: "Basic", interval: "month", cancelAtPeriodEnd: true });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
  });
});

/** The audit rows of a promotion, oldest first. */
const auditOf = async (promotionId: string) =>
  (
    await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "promotion"), eq(auditLog.subjectId, promotionId)))
      .orderBy(auditLog.id)
  ).map((a) => ({ action: a.action, after: a.after as Record<string, unknown> }));
const receiptsOf = async (promotionId: string) =>
  (await db().select().from(invoices).where(eq(invoices.promotionId, promotionId))).map((i) => ({
    status: i.status,
    amountCents: i.amountCents,
    tier: i.tier,
    interval: i.interval,
  }));
const sessionIdOf = async (promotionId: string) => (await row(promotionId)).stripeCheckoutSessionId!;

describe("What is activated is what Stripe says was paid (issue 30)", () => {
  it("Basic requested, checkout opened, changed to Pro yearly, the old Basic session paid: Basic is active, not Pro", async () => {
    const s = await setup({ tier: "Basic", interval: "month" });
    const origin = "https://rv.example";
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    const s1 = await sessionIdOf(s.promotion.id);
    await changeStripePlan(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      tier: "Pro",
      interval: "year",
      settings,
    });
    // The old payment page no longer works.
    expect(recorded().some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${s1}/expire`)).toBe(true);
    expect(stand.sessions.get(s1)!.status).toBe("expired");

    // The payment of S1 went through all the same (it raced the expiry): $19 for Basic monthly.
    const { session } = pay(s1, s.promotion.id);
    const after = await syncCheckoutSession(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      sessionId: s1,
      settings,
    });
    expect(after).toMatchObject({ status: "active", tier: "Basic", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    expect(await receiptsOf(s.promotion.id)).toEqual([
      { status: "paid", amountCents: 1900, tier: "Basic", interval: "month" },
    ]);
    // Renewals bill the plan that is active: the subscription's price is Basic monthly.
    const sub = stand.subscriptions.get(after.stripeSubscriptionId!)!;
    expect((sub.items as { data: { price: { id: string } }[] }).data[0]!.price.id).toBe(PRICES.Basic.month);
    // The webhook for the same session changes nothing more.
    await deliver(signed("checkout.session.completed", session));
    expect(await row(s.promotion.id)).toMatchObject({ tier: "Basic", interval: "month" });
  });

  it("a new checkout after a change of plan is a new session at the new price", async () => {
    const s = await setup({ tier: "Basic", interval: "month" });
    const origin = "https://rv.example";
    const first = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    await changeStripePlan(db(), {
      actor: s.owner,
      promotionId: s.promotion.id,
      tier: "Pro",
      interval: "year",
      settings,
    });
    const second = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    expect(second.url).not.toBe(first.url);
    const s2 = await sessionIdOf(s.promotion.id);
    const lines = stand.sessions.get(s2)!.line_items as { data: { price: { id: string }; quantity: number }[] };
    expect(lines.data.map((l) => [l.price.id, l.quantity])).toEqual([[PRICES.Pro.year, 1]]);
    // Paying it activates Pro yearly.
    pay(s2, s.promotion.id);
    expect(
      await syncCheckoutSession(db(), { actor: s.owner, promotionId: s.promotion.id, sessionId: s2, settings }),
    ).toMatchObject({ status: "active", tier: "Pro", interval: "year" });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
  });

  it("a change of plan after the old session was paid is refused: the payment stands", async () => {
    const s = await setup({ tier: "Basic", interval: "month" });
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    pay(await sessionIdOf(s.promotion.id), s.promotion.id);
    expect(
      await rejection(
        changeStripePlan(db(), {
          actor: s.owner,
          promotionId: s.promotion.id,
          tier: "Pro",
          interval: "year",
          settings,
        }),
      ),
    ).toMatchObject({ status: 409, message: STRIPE_MESSAGES.alreadyPaid });
    expect(await row(s.promotion.id)).toMatchObject({ status: "pending", tier: "Basic", interval: "month" });
  });

  it("the webhook refuses a payment that is not a plan (price, quantity, currency, amount) and records it", async () => {
    const cases: [string, Parameters<StripeStandIn["pay"]>[2]][] = [
      ["a price that is no plan", { priceId: FOREIGN_PRICE }],
      ["quantity 2", { quantity: 2 }],
      ["another currency", { currency: "eur" }],
      ["less than the plan's price", { amountTotal: 100 }],
    ];
    for (const [what, overrides] of cases) {
      const s = await setup({ tier: "Pro", interval: "month" });
      await startCheckout(db(), {
        actor: s.owner,
        promotionId: s.promotion.id,
        origin: "https://rv.example",
        settings,
      });
      const sessionId = await sessionIdOf(s.promotion.id);
      const { session } = pay(sessionId, s.promotion.id, overrides);
      expect(await deliver(signed("checkout.session.completed", session)), what).toMatchObject({
        status: 200,
        body: { outcome: "unmatched" },
      });
      expect((await row(s.promotion.id)).status, what).toBe("pending");
      expect(await tierOf(s.listing.placeId), what).toBe("Free");
      expect(
        (await auditOf(s.promotion.id)).map((a) => a.action),
        what,
      ).toContain("promotion.payment_unmatched");
      // The success page says so instead of pretending.
      expect(
        await rejection(
          syncCheckoutSession(db(), { actor: s.owner, promotionId: s.promotion.id, sessionId, settings }),
        ),
        what,
      ).toMatchObject({ status: 409 });
      expect((await row(s.promotion.id)).status, what).toBe("pending");
    }
  });

  it("invoice.paid activates a pending promotion at the plan the invoice bills, and refuses a short one", async () => {
    const s = await setup({ tier: "Pro", interval: "year" });
    const subscriptionId = `sub_${randomUUID().slice(0, 8)}`;
    const invoice = (priceId: string, amount: number) => ({
      id: `in_${randomUUID().slice(0, 8)}`,
      object: "invoice",
      customer: "cus_test_1",
      amount_paid: amount,
      currency: "usd",
      billing_reason: "subscription_create",
      parent: { subscription_details: { subscription: subscriptionId, metadata: { promotionId: s.promotion.id } } },
      lines: {
        object: "list",
        data: [
          {
            amount,
            currency: "usd",
            quantity: 1,
            pricing: { type: "price_details", price_details: { price: priceId, product: "prod" } },
            period: { start: PERIOD_START, end: PERIOD_END },
          },
        ],
      },
    });
    // The Pro yearly price at the Basic amount: refused.
    expect(await deliver(signed("invoice.paid", invoice(PRICES.Pro.year, 1900)))).toMatchObject({
      body: { outcome: "unmatched" },
    });
    expect((await row(s.promotion.id)).status).toBe("pending");
    // Basic monthly, paid in full: active at Basic monthly, not at the Pro yearly the promotion asked.
    await deliver(signed("invoice.paid", invoice(PRICES.Basic.month, 1900)));
    expect(await row(s.promotion.id)).toMatchObject({ status: "active", tier: "Basic", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
  });

  it("a subscription update never raises the tier by itself: the paid invoice for the new price does", async () => {
    const s = await setup({ tier: "Basic", interval: "month" });
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const { session, subscriptionId } = pay(await sessionIdOf(s.promotion.id), s.promotion.id);
    await deliver(signed("checkout.session.completed", session, PERIOD_START + 1000));
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    // Switched to Pro in Stripe (the portal, say), with its difference not yet paid.
    const pro = stand.subscription(subscriptionId, PRICES.Pro.month, { promotionId: s.promotion.id });
    await deliver(signed("customer.subscription.updated", pro, PERIOD_START + 1001));
    expect(await row(s.promotion.id)).toMatchObject({ status: "active", tier: "Basic", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    // The proration invoice for Pro is paid: now it is Pro.
    const proration = {
      id: `in_${randomUUID().slice(0, 8)}`,
      object: "invoice",
      customer: "cus_test_1",
      amount_paid: 5000,
      currency: "usd",
      billing_reason: "subscription_update",
      parent: { subscription_details: { subscription: subscriptionId, metadata: { promotionId: s.promotion.id } } },
      lines: {
        object: "list",
        data: [
          {
            amount: -1000,
            currency: "usd",
            quantity: 1,
            pricing: { type: "price_details", price_details: { price: PRICES.Basic.month, product: "prod" } },
            period: { start: PERIOD_START + 1000, end: PERIOD_END },
          },
          {
            amount: 6000,
            currency: "usd",
            quantity: 1,
            pricing: { type: "price_details", price_details: { price: PRICES.Pro.month, product: "prod" } },
            period: { start: PERIOD_START + 1000, end: PERIOD_END },
          },
        ],
      },
    };
    await deliver(signed("invoice.paid", proration, PERIOD_START + 1002));
    expect(await row(s.promotion.id)).toMatchObject({ status: "active", tier: "Pro", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
  });

  it("an upgrade whose charge is declined leaves the plan as it was", async () => {
    const s = await setup({ tier: "Basic", interval: "month" });
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const { session } = pay(await sessionIdOf(s.promotion.id), s.promotion.id);
    await deliver(signed("checkout.session.completed", session, PERIOD_START + 2000));
    stand.declineCharges = true;
    try {
      expect(
        await rejection(
          changeStripePlan(db(), {
            actor: s.owner,
            promotionId: s.promotion.id,
            tier: "Pro",
            interval: "month",
            settings,
          }),
        ),
      ).toMatchObject({ status: 409, message: STRIPE_MESSAGES.declined });
    } finally {
      stand.declineCharges = false;
    }
    expect(await row(s.promotion.id)).toMatchObject({ tier: "Basic", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
  });
});

describe("an admin ends a card promotion", () => {
  it("cancels its subscription at Stripe first, so it never keeps charging; a refused end changes nothing", async () => {
    const s = await setup();
    const admin: Actor = await insertPerson(db(), { role: "admin" });
    await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin: "https://rv.example", settings });
    const { session, subscriptionId } = pay(await sessionIdOf(s.promotion.id), s.promotion.id);
    await deliver(signed("checkout.session.completed", session, PERIOD_START + 3000));
    const input = { promotionId: s.promotion.id, settings };
    expect(
      await rejection(endPromotionWithBilling(db(), { ...input, actor: s.owner, reason: "moving" })),
    ).toMatchObject({ status: 403 });
    expect(await rejection(endPromotionWithBilling(db(), { ...input, actor: admin, reason: "" }))).toMatchObject({
      status: 400,
    });
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("active");
    const ended = await endPromotionWithBilling(db(), { ...input, actor: admin, reason: "owner asked by phone" });
    expect(ended.status).toBe("ended");
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect(await tierOf(s.listing.placeId)).toBe("Free");
  });
});
