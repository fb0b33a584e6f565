import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import type { SearchQuery } from "../../domain/search";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { insertListing, insertPerson } from "../claims/test-support";
import { parseConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, invoices, listingOwners, locations, promotions } from "../db/schema";
import { getSearchIndex, refreshSearchIndex } from "../search";
import { applyScheduledPlanChanges, CHANGE_PLAN_MESSAGES, changePlan } from "./change-plan";
import { promotionSummaryOf, SUMMARY_INVOICES_MAX } from "./queries";
import { addInterval, PROMOTION_MESSAGES } from "./common";
import {
  cancelAtPeriodEnd,
  endExpiredPromotions,
  endPromotion,
  grantPromotion,
  issueInvoice,
  markInvoicePaid,
  requestPromotion,
} from "./service";
import type { Actor } from "../auth/actor";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
const db = () => handle.db;
const settings = parseConfig({});
const price = (tier: string, interval: "month" | "year") =>
  settings.promotionPlans.plans.find((p) => p.tier === tier)!.prices[interval];

const asActor = (p: Awaited<ReturnType<typeof insertPerson>>): Actor => p;
const key = () => `key-${randomUUID()}`;

async function setup(overrides: Parameters<typeof insertListing>[1] = {}) {
  const listing = await insertListing(db(), { latitude: 44.5, longitude: -109.5, ...overrides });
  const owner = asActor(await insertPerson(db(), { role: "business_owner" }));
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: owner.userId });
  const admin = asActor(await insertPerson(db(), { role: "admin" }));
  const stranger = asActor(await insertPerson(db()));
  return { listing, owner, admin, stranger };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const tierOf = async (id: string) =>
  (await db().select({ tier: locations.tier }).from(locations).where(eq(locations.placeId, id)))[0]!.tier;
const promotionRow = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const auditCount = async (subjectId: string, action: string) =>
  (
    await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, subjectId), eq(auditLog.action, action)))
  ).length;

async function pending(s: Setup, tier = "Basic", interval = "month") {
  const { promotion } = await requestPromotion(db(), {
    actor: s.owner,
    locationId: s.listing.placeId,
    tier,
    interval,
    idempotencyKey: key(),
    settings,
  });
  return promotion;
}

async function active(s: Setup, tier = "Basic", now = new Date("2026-05-01T00:00:00Z")) {
  const promotion = await pending(s, tier);
  const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now });
  return (await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now })).promotion;
}

describe("changePlan on a pending promotion", () => {
  it("amends the plan, voids the open invoice, and the next invoice has the new price", async () => {
    const s = await setup();
    const promotion = await pending(s, "Basic", "month");
    const first = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(first.invoice).toMatchObject({ tier: "Basic", interval: "month", amountCents: price("Basic", "month") });

    const changed = await changePlan(db(), {
      actor: s.owner,
      promotionId: promotion.id,
      tier: "Pro",
      interval: "year",
      settings,
    });
    expect(changed).toMatchObject({ changed: true, promotion: { status: "pending", tier: "Pro", interval: "year" } });
    expect(await invoiceRow(first.invoice.id)).toMatchObject({ status: "void", voidReason: "plan changed" });
    const second = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(second.created).toBe(true);
    expect(second.invoice).toMatchObject({ tier: "Pro", interval: "year", amountCents: price("Pro", "year") });
    expect(await auditCount(promotion.id, "promotion.change")).toBe(1);

    const same = await changePlan(db(), { actor: s.owner, promotionId: promotion.id, tier: "Pro", interval: "year" });
    expect(same.changed).toBe(false);
    expect(await invoiceRow(second.invoice.id)).toMatchObject({ status: "open" });
    expect(await auditCount(promotion.id, "promotion.change")).toBe(1);

    // Paying the new invoice activates the new plan.
    const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: second.invoice.id });
    expect(paid.promotion).toMatchObject({ status: "active", tier: "Pro", interval: "year" });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
  });
});

describe("changePlan on an active promotion", () => {
  it("schedules an upgrade: the renewal bills the new plan and the tier switches when it begins", async () => {
    const s = await setup({ latitude: 47.25, longitude: -112.25, tier: "Free" });
    const rival = await insertListing(db(), { latitude: 47.25, longitude: -112.2501, tier: "Preferred" });
    const start = new Date("2026-03-10T00:00:00Z");
    const promotion = await active(s, "Basic", start);
    await refreshSearchIndex(db());
    const query: SearchQuery = {
      lat: 47.25,
      lng: -112.25,
      radius: 5,
      sizes: [],
      amenities: [],
      sort: "distance",
      page: 1,
      pageSize: 50,
    };
    const order = () =>
      getSearchIndex()
        .query(query)
        .items.map((i) => i.id)
        .filter((id) => id === s.listing.placeId || id === rival.placeId);
    expect(order()).toEqual([rival.placeId, s.listing.placeId]);

    // A renewal at the old price was already asked for: the change voids it.
    const stale = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: start });
    expect(stale.invoice).toMatchObject({ tier: "Basic", amountCents: price("Basic", "month") });
    const scheduled = await changePlan(db(), {
      actor: s.owner,
      promotionId: promotion.id,
      tier: "Pro",
      interval: "year",
      settings,
      now: start,
    });
    expect(scheduled.promotion).toMatchObject({
      tier: "Basic",
      interval: "month",
      nextTier: "Pro",
      nextInterval: "year",
    });
    expect(await invoiceRow(stale.invoice.id)).toMatchObject({ status: "void", voidReason: "plan changed" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");

    const oldEnd = promotion.periodEnd!;
    const renewal = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: start });
    expect(renewal.invoice).toMatchObject({
      tier: "Pro",
      interval: "year",
      amountCents: price("Pro", "year"),
      periodStart: oldEnd,
      periodEnd: addInterval(oldEnd, "year"),
    });
    const paidAt = new Date(oldEnd.getTime() - 3 * 24 * 60 * 60 * 1000);
    const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: renewal.invoice.id, now: paidAt });
    // Paid ahead: the old plan runs to its end; the period now reaches a year past it.
    expect(paid.promotion).toMatchObject({ tier: "Basic", periodEnd: addInterval(oldEnd, "year") });
    const [receipt] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, s.owner.email), eq(emailOutbox.kind, "promotion.paid")))
      .orderBy(desc(emailOutbox.id))
      .limit(1);
    expect(receipt!.subject).toBe(`Payment received: ${s.listing.name} becomes Pro on 2026-04-10`);
    expect(receipt!.textBody).toContain(
      `${s.listing.name} stays Basic until 2026-04-10, then is listed as Pro until 2027-04-10.`,
    );
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    expect(await applyScheduledPlanChanges(db(), paidAt, [promotion.id])).toEqual({ changed: 0 });
    // With the next period paid, another change must wait.
    expect(
      await rejection(
        changePlan(db(), {
          actor: s.owner,
          promotionId: promotion.id,
          tier: "Preferred",
          interval: "month",
          now: paidAt,
        }),
      ),
    ).toMatchObject({ status: 409, message: CHANGE_PLAN_MESSAGES.nextPaid });

    const after = new Date(oldEnd.getTime() + 1000);
    expect(await endExpiredPromotions(db(), after, settings)).toBeDefined();
    expect(await applyScheduledPlanChanges(db(), after, [promotion.id])).toEqual({ changed: 1 });
    expect(await promotionRow(promotion.id)).toMatchObject({
      status: "active",
      tier: "Pro",
      interval: "year",
      nextTier: null,
      nextInterval: null,
      periodStart: oldEnd,
      periodEnd: addInterval(oldEnd, "year"),
      baseTier: "Free",
    });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
    expect(order()).toEqual([s.listing.placeId, rival.placeId]);
    expect(await auditCount(s.listing.placeId, "listing.tier")).toBe(2);

    // Running again later changes nothing; the next renewal bills Pro yearly.
    expect(await applyScheduledPlanChanges(db(), new Date(after.getTime() + 1000), [promotion.id])).toEqual({
      changed: 0,
    });
    const next = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: after });
    expect(next.invoice).toMatchObject({ tier: "Pro", amountCents: price("Pro", "year") });
  });

  it("a renewal paid after its period began switches the plan at once", async () => {
    const s = await setup();
    const start = new Date("2026-07-01T00:00:00Z");
    const promotion = await active(s, "Preferred", start);
    await changePlan(db(), { actor: s.owner, promotionId: promotion.id, tier: "Basic", interval: "month", now: start });
    const renewal = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: start });
    expect(renewal.invoice.amountCents).toBe(price("Basic", "month"));
    const late = new Date(promotion.periodEnd!.getTime() + 60_000);
    const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: renewal.invoice.id, now: late });
    expect(paid.promotion).toMatchObject({ tier: "Basic", nextTier: null });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
  });

  it("changing back to the current plan clears the scheduled change and voids its renewal invoice", async () => {
    const s = await setup();
    const promotion = await active(s, "Preferred");
    await changePlan(db(), { actor: s.owner, promotionId: promotion.id, tier: "Pro", interval: "month" });
    const renewal = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(renewal.invoice.tier).toBe("Pro");
    const back = await changePlan(db(), {
      actor: s.owner,
      promotionId: promotion.id,
      tier: "Preferred",
      interval: "month",
    });
    expect(back).toMatchObject({ changed: true, promotion: { tier: "Preferred", nextTier: null, nextInterval: null } });
    expect(await invoiceRow(renewal.invoice.id)).toMatchObject({ status: "void", voidReason: "plan changed" });
    const again = await changePlan(db(), {
      actor: s.owner,
      promotionId: promotion.id,
      tier: "Preferred",
      interval: "month",
    });
    expect(again.changed).toBe(false);
    expect(await auditCount(promotion.id, "promotion.change")).toBe(2);
    const renewed = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(renewed.invoice).toMatchObject({ tier: "Preferred", amountCents: price("Preferred", "month") });
  });

  it("refuses a cancelled promotion, a stranger, an ended one, a bad plan, granted and card promotions", async () => {
    const s = await setup();
    const promotion = await active(s, "Basic");
    const input = { promotionId: promotion.id, tier: "Pro", interval: "month", settings };
    expect(await rejection(changePlan(db(), { ...input, actor: s.stranger }))).toMatchObject({
      status: 403,
      message: PROMOTION_MESSAGES.notBuyer,
    });
    for (const [tier, interval] of [
      ["Gold", "month"],
      ["Free", "month"],
      ["Pro", "week"],
    ] as const)
      expect(await rejection(changePlan(db(), { ...input, tier, interval, actor: s.owner }))).toMatchObject({
        status: 400,
      });
    const onlyBasic = {
      promotionPlans: { ...settings.promotionPlans, plans: settings.promotionPlans.plans.slice(0, 1) },
    };
    expect(await rejection(changePlan(db(), { ...input, actor: s.owner, settings: onlyBasic }))).toMatchObject({
      status: 400,
      message: PROMOTION_MESSAGES.unknownPlan,
    });
    expect(await rejection(changePlan(db(), { ...input, promotionId: "missing", actor: s.owner }))).toMatchObject({
      status: 404,
    });

    await cancelAtPeriodEnd(db(), { actor: s.owner, promotionId: promotion.id });
    expect(await rejection(changePlan(db(), { ...input, actor: s.owner }))).toMatchObject({
      status: 409,
      message: CHANGE_PLAN_MESSAGES.cancelled,
    });
    await endPromotion(db(), { actor: s.admin, promotionId: promotion.id, reason: "Testing the end" });
    expect(await rejection(changePlan(db(), { ...input, actor: s.admin }))).toMatchObject({
      status: 409,
      message: PROMOTION_MESSAGES.notLive,
    });

    const granted = await grantPromotion(db(), {
      actor: s.admin,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "month",
      reason: "Launch partner",
    });
    expect(await rejection(changePlan(db(), { ...input, promotionId: granted.id, actor: s.admin }))).toMatchObject({
      status: 409,
      message: CHANGE_PLAN_MESSAGES.granted,
    });

    const other = await setup();
    const card = await pending(other, "Basic");
    await db().update(promotions).set({ provider: "stripe" }).where(eq(promotions.id, card.id));
    expect(await rejection(changePlan(db(), { ...input, promotionId: card.id, actor: other.owner }))).toMatchObject({
      status: 409,
      message: CHANGE_PLAN_MESSAGES.stripe,
    });
  });
});

describe("changePlan racing an admin", () => {
  it("a change and a payment of the renewal at once: one wins, the other is a clear 409, never a deadlock", async () => {
    for (let i = 0; i < 20; i++) {
      const s = await setup();
      // Paid today, so the renewal's period lies ahead.
      const promotion = await active(s, "Basic", new Date());
      const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
      const [change, pay] = await Promise.allSettled([
        changePlan(db(), { actor: s.owner, promotionId: promotion.id, tier: "Pro", interval: "month", settings }),
        markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id }),
      ]);
      const reasons = [change, pay].flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatchObject({ status: 409 });
      const row = await promotionRow(promotion.id);
      if (change.status === "fulfilled") {
        expect(reasons[0]).toMatchObject({ message: PROMOTION_MESSAGES.voidCannotPay });
        expect(row.nextTier).toBe("Pro");
        expect(await invoiceRow(invoice.id)).toMatchObject({ status: "void" });
      } else {
        expect(reasons[0]).toMatchObject({ message: CHANGE_PLAN_MESSAGES.nextPaid });
        expect(row.nextTier).toBeNull();
        expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", tier: "Basic" });
      }
    }
  });
});

describe("applyScheduledPlanChanges", () => {
  it("two instances racing switch a promotion once", async () => {
    const s = await setup();
    const start = new Date("2026-09-15T00:00:00Z");
    const promotion = await active(s, "Basic", start);
    await changePlan(db(), {
      actor: s.owner,
      promotionId: promotion.id,
      tier: "Preferred",
      interval: "month",
      now: start,
    });
    const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: start });
    await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now: start });
    const after = new Date(promotion.periodEnd!.getTime() + 1000);
    const results = await Promise.all([applyScheduledPlanChanges(db(), after), applyScheduledPlanChanges(db(), after)]);
    expect(results.every((r) => r.changed >= 0)).toBe(true);
    expect(await promotionRow(promotion.id)).toMatchObject({ tier: "Preferred", nextTier: null });
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");
    // One scheduling by the owner and one switch by the job; the listing's tier changed twice in all.
    expect(await auditCount(promotion.id, "promotion.change")).toBe(2);
    expect(await auditCount(s.listing.placeId, "listing.tier")).toBe(2);
  });
});

describe("promotionSummaryOf", () => {
  it("gives each listing its live promotion and its newest invoices, ended promotions' too", async () => {
    const s = await setup();
    const old = await active(s, "Basic", new Date("2026-01-05T00:00:00Z"));
    await endPromotion(db(), { actor: s.admin, promotionId: old.id, reason: "Moved plans" });
    const live = await pending(s, "Basic", "month");
    const issued: string[] = [];
    for (let i = 0; i < SUMMARY_INVOICES_MAX; i++) {
      const tier = i % 2 === 0 ? "Basic" : "Pro";
      await changePlan(db(), { actor: s.owner, promotionId: live.id, tier, interval: "month", settings });
      const { invoice } = await issueInvoice(db(), {
        actor: s.owner,
        promotionId: live.id,
        settings,
        now: new Date(Date.UTC(2026, 2, 1 + i)),
      });
      issued.push(invoice.id);
    }
    await changePlan(db(), { actor: s.owner, promotionId: live.id, tier: "Preferred", interval: "year", settings });
    const empty = await setup();

    const summary = await promotionSummaryOf(db(), [s.listing.placeId, empty.listing.placeId, s.listing.placeId]);
    expect([...summary.keys()]).toEqual([s.listing.placeId, empty.listing.placeId]);
    expect(summary.get(empty.listing.placeId)).toEqual({
      locationId: empty.listing.placeId,
      promotion: null,
      invoices: [],
    });
    const mine = summary.get(s.listing.placeId)!;
    expect(mine.promotion).toEqual({
      id: live.id,
      tier: "Preferred",
      interval: "year",
      provider: "invoice",
      status: "pending",
      periodStart: null,
      periodEnd: null,
      cancelAtPeriodEnd: false,
      nextTier: null,
      nextInterval: null,
    });
    // Twelve newest: the old promotion's paid invoice (January) falls off behind the twelve of March.
    expect(mine.invoices.map((i) => i.id)).toEqual([...issued].reverse());
    expect(mine.invoices[0]).toMatchObject({
      status: "void",
      tier: "Pro",
      interval: "month",
      amountCents: price("Pro", "month"),
      currency: "usd",
      hostedInvoiceUrl: null,
    });
    expect(mine.invoices[0]!.issuedAt).toBeInstanceOf(Date);
    expect(Object.keys(mine.invoices[0]!).sort()).toEqual(
      [
        "id",
        "number",
        "status",
        "amountCents",
        "currency",
        "issuedAt",
        "dueAt",
        "paidAt",
        "periodStart",
        "periodEnd",
        "tier",
        "interval",
        "hostedInvoiceUrl",
        "promotionId",
        "promotionTier",
      ].sort(),
    );

    // With fewer invoices the ended promotion's receipt is included.
    const t = await setup();
    const gone = await active(t, "Pro", new Date("2026-02-01T00:00:00Z"));
    await endPromotion(db(), { actor: t.admin, promotionId: gone.id, reason: "Moved plans" });
    const receipts = (await promotionSummaryOf(db(), [t.listing.placeId])).get(t.listing.placeId)!;
    expect(receipts.promotion).toBeNull();
    expect(receipts.invoices).toHaveLength(1);
    expect(receipts.invoices[0]).toMatchObject({
      status: "paid",
      tier: "Pro",
      paidAt: new Date("2026-02-01T00:00:00Z"),
    });
    expect(await promotionSummaryOf(db(), [])).toEqual(new Map());
  });
});
