import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { parseConfig, type Config } from "../config";

/**
 * A local stand-in for the part of Stripe's API the provider uses (server/promotions/stripe.ts),
 * for tests: the official SDK is pointed at it by STRIPE_API_BASE. It models what the checks
 * depend on: a Checkout Session's line items (price, quantity, amount) and their `expand`, Stripe's
 * idempotency keys (the same key with other parameters is refused, as Stripe does), expiring an
 * open session, subscription updates with `payment_behavior=pending_if_incomplete` (a declined card
 * leaves a pending update and the old price), cancelling a subscription, and the customer portal.
 * `down` makes every call answer 503, as Stripe does during an outage.
 */
export interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

export const PRICES = {
  Basic: { month: "price_basic_m", year: "price_basic_y" },
  Preferred: { month: "price_pref_m", year: "price_pref_y" },
  Pro: { month: "price_pro_m", year: "price_pro_y" },
};
/** A price that exists at Stripe but is no plan of the plans file. */
export const FOREIGN_PRICE = "price_foreign_m";
export const SECRET = "whsec_test_secret";
export const PERIOD_START = 1_790_000_000;
export const PERIOD_END = PERIOD_START + 30 * 86_400;

type Json = Record<string, unknown>;

export interface StripeStandIn {
  settings: Config;
  recorded: Recorded[];
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** Every call answers 503 while true. */
  down: boolean;
  /** A subscription update that charges the card is declined while true. */
  declineCharges: boolean;
  price(id: string): Json;
  subscription(id: string, priceId: string, metadata: Record<string, string>, quantity?: number): Json;
  /**
   * What Stripe's checkout does when the owner pays: the session completes with a subscription
   * for the session's own line item. `overrides` model a payment that is not what was asked for.
   */
  pay(
    sessionId: string,
    promotionId: string,
    overrides?: { priceId?: string; quantity?: number; currency?: string; amountTotal?: number },
  ): { session: Json; subscriptionId: string };
  /** A signed event, as Stripe would post it. */
  signed(type: string, object: Json, created?: number, id?: string): { payload: string; signature: string };
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const plans = JSON.parse(fs.readFileSync("config/promotion-plans.json", "utf8")) as {
    currency: string;
    plans: { tier: keyof typeof PRICES; prices: { month: number; year: number }; stripePriceIds: unknown }[];
  };
  const amounts = new Map<string, { cents: number; interval: "month" | "year" }>();
  for (const plan of plans.plans) {
    plan.stripePriceIds = PRICES[plan.tier];
    amounts.set(PRICES[plan.tier].month, { cents: plan.prices.month, interval: "month" });
    amounts.set(PRICES[plan.tier].year, { cents: plan.prices.year, interval: "year" });
  }
  amounts.set(FOREIGN_PRICE, { cents: 100, interval: "month" });

  const recorded: Recorded[] = [];
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const byIdempotencyKey = new Map<string, { id: string; params: string }>();

  const price = (id: string): Json => {
    const known = amounts.get(id) ?? { cents: 100, interval: "month" as const };
    return {
      id,
      object: "price",
      currency: "usd",
      unit_amount: known.cents,
      recurring: { interval: known.interval, interval_count: 1 },
    };
  };
  const subscription = (id: string, priceId: string, metadata: Record<string, string>, quantity = 1): Json => ({
    id,
    object: "subscription",
    status: "active",
    cancel_at_period_end: false,
    pending_update: null,
    metadata,
    items: {
      object: "list",
      data: [
        {
          id: `si_${id}`,
          price: price(priceId),
          quantity,
          current_period_start: PERIOD_START,
          current_period_end: PERIOD_END,
        },
      ],
    },
  });

  const state = { down: false, declineCharges: false };
  const notFound = (what: string) => ({ error: { type: "invalid_request_error", message: `No such ${what}` } });

  function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const body = new URLSearchParams(req.method === "GET" ? url.search : raw);
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    recorded.push({ method: req.method ?? "", path: url.pathname, body, idempotencyKey });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (state.down) return send(503, { error: { type: "api_error", message: "Stripe is down (stand-in)" } });
    const expanded = [...url.searchParams.entries()].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
    const parts = url.pathname.split("/");
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      // Stripe answers a repeated idempotency key with the first answer, and refuses the same key
      // sent with other parameters.
      const again = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
      if (again && again.params !== raw)
        return send(400, {
          error: {
            type: "idempotency_error",
            message:
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          },
        });
      if (again) return send(200, withoutLines(sessions.get(again.id)!));
      const id = `cs_test_${randomUUID().slice(0, 8)}`;
      const priceId = body.get("line_items[0][price]") ?? "";
      const quantity = Number(body.get("line_items[0][quantity]") ?? "1");
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
        line_items: {
          object: "list",
          data: [
            {
              id: `li_${id}`,
              object: "item",
              price: price(priceId),
              quantity,
              currency: "usd",
              amount_total: (amounts.get(priceId)?.cents ?? 100) * quantity,
            },
          ],
        },
      };
      sessions.set(id, session);
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, { id, params: raw });
      return send(200, withoutLines(session));
    }
    if (parts[2] === "checkout" && parts[3] === "sessions" && parts[4]) {
      const session = sessions.get(parts[4]);
      if (!session) return send(404, notFound("checkout.session"));
      if (req.method === "POST" && parts[5] === "expire") {
        if (session.status !== "open")
          return send(400, {
            error: {
              type: "invalid_request_error",
              message: 'Only Checkout Sessions with a status in ["open"] can be expired.',
            },
          });
        Object.assign(session, { status: "expired", url: null });
        return send(200, withoutLines(session));
      }
      if (req.method === "GET") return send(200, expanded.includes("line_items") ? session : withoutLines(session));
    }
    if (parts[2] === "subscriptions" && parts[3]) {
      const sub = subscriptions.get(parts[3]);
      if (!sub) return send(404, notFound("subscription"));
      if (req.method === "DELETE") {
        if (sub.status === "canceled")
          return send(400, {
            error: { type: "invalid_request_error", message: "This subscription has already been canceled." },
          });
        sub.status = "canceled";
        return send(200, sub);
      }
      if (req.method === "POST") {
        if (body.get("cancel_at_period_end") !== null)
          sub.cancel_at_period_end = body.get("cancel_at_period_end") === "true";
        const newPrice = body.get("items[0][price]");
        if (newPrice) {
          const pendingIfIncomplete = body.get("payment_behavior") === "pending_if_incomplete";
          if (state.declineCharges && pendingIfIncomplete)
            sub.pending_update = { subscription_items: [{ price: price(newPrice) }], expires_at: PERIOD_END };
          else {
            const item = (sub.items as { data: Json[] }).data[0]!;
            item.price = price(newPrice);
            sub.pending_update = null;
          }
        }
        return send(200, sub);
      }
      return send(200, sub);
    }
    if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions")
      return send(200, { id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.test/p/1" });
    return send(404, notFound(url.pathname));
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "plans-")), "plans.json");
  fs.writeFileSync(file, JSON.stringify(plans));
  const settings = parseConfig({
    STRIPE_SECRET_KEY: "sk_test_stand_in",
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    PROMOTION_PLANS_FILE: file,
  });

  let eventSeq = 0;
  return {
    settings,
    recorded,
    sessions,
    subscriptions,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    get declineCharges() {
      return state.declineCharges;
    },
    set declineCharges(value: boolean) {
      state.declineCharges = value;
    },
    price,
    subscription,
    pay(sessionId, promotionId, overrides = {}) {
      const subscriptionId = `sub_${randomUUID().slice(0, 8)}`;
      const stored = sessions.get(sessionId)!;
      const line = (stored.line_items as { data: Json[] }).data[0]!;
      const priceId = overrides.priceId ?? (line.price as { id: string }).id;
      const quantity = overrides.quantity ?? (line.quantity as number);
      const amountTotal = overrides.amountTotal ?? (amounts.get(priceId)?.cents ?? 100) * quantity;
      const currency = overrides.currency ?? "usd";
      subscriptions.set(subscriptionId, subscription(subscriptionId, priceId, { promotionId }, quantity));
      Object.assign(line, { price: { ...price(priceId), currency }, quantity, currency, amount_total: amountTotal });
      Object.assign(stored, {
        status: "complete",
        payment_status: "paid",
        url: null,
        customer: "cus_test_1",
        subscription: subscriptionId,
        invoice: `in_${randomUUID().slice(0, 8)}`,
        amount_total: amountTotal,
        currency,
      });
      return { session: withoutLines(stored), subscriptionId };
    },
    signed(type, object, created = PERIOD_START + eventSeq, id) {
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
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A session as Stripe sends it without `expand[]=line_items` (webhooks never include them). */
function withoutLines(session: Json): Json {
  const { line_items: _lines, ...rest } = session;
  return rest;
}
