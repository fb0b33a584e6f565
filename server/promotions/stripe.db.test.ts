import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { insertListing, insertPerson } from "../claims/test-support";
import { parseConfig, type Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, invoices, listingOwners, locations, promotions, stripeEvents } from "../db/schema";
import { getSearchIndex, refreshSearchIndex } from "../search";
import { endExpiredPromotions, requestPromotion, type PromotionActor } from "./service";
import {
  changeStripePlan,
  handleStripeWebhook,
  openCustomerPortal,
  startCheckout,
  syncCheckoutSession,
} from "./stripe";

/**
 * The Stripe provider against a local stand-in for Stripe's API (the SDK is pointed at it by
 * STRIPE_API_BASE), with webhooks signed by the SDK's own test helper. No internet needed.
 */
interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

const PRICES = {
  Basic: { month: "price_basic_m", year: "price_basic_y" },
  Preferred: { month: "price_pref_m", year: "price_pref_y" },
  Pro: { month: "price_pro_m", year: "price_pro_y" },
};
const SECRET = "whsec_test_secret";
const PERIOD_START = 1_790_000_000;
const PERIOD_END = PERIOD_START + 30 * 86_400;

let handle: DatabaseHandle;
let server: http.Server;
let settings: Config;
const recorded: Recorded[] = [];
const sessions = new Map<string, Record<string, unknown>>();
const byIdempotencyKey = new Map<string, string>();
const subscriptions = new Map<string, Record<string, unknown>>();

function subscription(id: string, priceId: string, metadata: Record<string, string>) {
  return {
    id,
    object: "subscription",
    status: "active",
    cancel_at_period_end: false,
    metadata,
    items: {
      object: "list",
      data: [
        { id: `si_${id}`, price: { id: priceId }, current_period_start: PERIOD_START, current_period_end: PERIOD_END },
      ],
    },
  };
}

function standIn(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
  const url = new URL(req.url ?? "/", "http://stand-in");
  const body = new URLSearchParams(raw);
  const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
  recorded.push({ method: req.method ?? "", path: url.pathname, body, idempotencyKey });
  const send = (status: number, value: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const parts = url.pathname.split("/");
  if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
    // Stripe answers a repeated idempotency key with the first answer.
    const again = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
    if (again) return send(200, sessions.get(again));
    const id = `cs_test_${randomUUID().slice(0, 8)}`;
    const session = {
      id,
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      url: `https://checkout.stripe.test/pay/${id}`,
      client_reference_id: body.get("client_reference_id"),
      metadata: { promotionId: body.get("metadata[promotionId]") },
      customer: null,
      subscription: null,
      invoice: null,
      amount_total: null,
      currency: "usd",
    };
    sessions.set(id, session);
    if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
    return send(200, session);
  }
  if (req.method === "GET" && parts[2] === "checkout" && parts[3] === "sessions") {
    const session = sessions.get(parts[4]!);
    return session
      ? send(200, session)
      : send(404, { error: { type: "invalid_request_error", message: "No such session" } });
  }
  if (parts[2] === "subscriptions") {
    const sub = subscriptions.get(parts[3]!);
    if (!sub) return send(404, { error: { type: "invalid_request_error", message: "No such subscription" } });
    return send(200, sub);
  }
  if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions")
    return send(200, { id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.test/p/1" });
  return send(404, { error: { type: "invalid_request_error", message: `Unknown ${url.pathname}` } });
}

beforeAll(async () => {
  handle = await createTestDatabase();
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => standIn(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const plans = JSON.parse(fs.readFileSync("config/promotion-plans.json", "utf8")) as {
    plans: { tier: keyof typeof PRICES; stripePriceIds: unknown }[];
  };
  for (const plan of plans.plans) plan.stripePriceIds = PRICES[plan.tier];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "plans-")), "plans.json");
  fs.writeFileSync(file, JSON.stringify(plans));
  settings = parseConfig({
    STRIPE_SECRET_KEY: "sk_test_stand_in",
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    PROMOTION_PLANS_FILE: file,
  });
});
afterAll(async () => {
  await handle?.close();
  await new Promise((resolve) => server?.close(resolve));
});
const db = () => handle.db;

async function setup() {
  const listing = await insertListing(db(), { latitude: 43.25, longitude: -108.25, tier: "Free" });
  const rival = await insertListing(db(), { latitude: 43.25, longitude: -108.2501, tier: "Basic" });
  const owner: PromotionActor = await insertPerson(db(), { role: "business_owner" });
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: owner.userId });
  const stranger: PromotionActor = await insertPerson(db(), { role: "business_owner" });
  const { promotion } = await requestPromotion(db(), {
    actor: owner,
    locationId: listing.placeId,
    tier: "Preferred",
    interval: "month",
    idempotencyKey: `key-${randomUUID()}`,
    provider: "stripe",
    settings,
  });
  return { listing, rival, owner, stranger, promotion };
}

const row = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const tierOf = async (id: string) =>
  (await db().select({ tier: locations.tier }).from(locations).where(eq(locations.placeId, id)))[0]!.tier;

let eventSeq = 0;
/** A signed event, as Stripe would post it. */
function signed(type: string, object: Record<string, unknown>, created = PERIOD_START + eventSeq, id?: string) {
  eventSeq += 1;
  const payload = JSON.stringify({
    id: id ?? `evt_${randomUUID().slice(0, 12)}`,
    object: "event",
    type,
    created,
    livemode: false,
    api_version: "2026-10-28",
    pending_webhooks: 0,
    request: null,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  return { payload, signature };
}

const deliver = (event: { payload: string; signature: string }) =>
  handleStripeWebhook(db(), Buffer.from(event.payload), event.signature, { settings });

/** What Stripe's checkout does when the owner pays: the session completes with a subscription. */
function pay(sessionId: string, promotionId: string, subscriptionId = `sub_${randomUUID().slice(0, 8)}`) {
  const metadata = { promotionId };
  subscriptions.set(subscriptionId, subscription(subscriptionId, PRICES.Preferred.month, metadata));
  const session = {
    ...sessions.get(sessionId)!,
    status: "complete",
    payment_status: "paid",
    customer: "cus_test_1",
    subscription: subscriptionId,
    invoice: `in_${randomUUID().slice(0, 8)}`,
    amount_total: 4900,
  };
  sessions.set(sessionId, session);
  return { session, subscriptionId };
}

describe("Stripe checkout", () => {
  it("creates one Checkout Session with the plan's price, the listing and the owner, and refuses strangers", async () => {
    const s = await setup();
    const origin = "https://rv.example";
    const first = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    const second = await startCheckout(db(), { actor: s.owner, promotionId: s.promotion.id, origin, settings });
    expect(second.url).toBe(first.url);
    const created = recorded.filter(
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
    expect(created[0]!.idempotencyKey).toBe(`checkout:${s.promotion.id}`);
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
      lines: { object: "list", data: [{ period: { start: PERIOD_END, end: nextEnd } }] },
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
    const update = recorded
      .filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`)
      .at(-1)!;
    expect(Object.fromEntries(update.body)).toMatchObject({
      "items[0][id]": `si_${subscriptionId}`,
      "items[0][price]": "price_pro_y",
      proration_behavior: "create_prorations",
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
    const basic = subscription(subscriptionId, PRICES.Basic.month, { promotionId: s.promotion.id });
    await deliver(
      signed("customer.subscription.updated", { ...basic, cancel_at_period_end: true }, PERIOD_START + 500),
    );
    expect(await row(s.promotion.id)).toMatchObject({ tier: "Basic", interval: "month", cancelAtPeriodEnd: true });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
  });
});
