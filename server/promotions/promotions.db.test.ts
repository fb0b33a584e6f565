import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import type { SearchQuery } from "../../domain/search";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { insertListing, insertPerson } from "../claims/test-support";
import { parseConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, invoices, listingOwners, locations, promotions } from "../db/schema";
import { getSearchIndex, refreshSearchIndex } from "../search";
import { hasVerifiedOwner, locationExists, ownsListing } from "../auth/ownership";
import { invoiceById, promotionById } from "./queries";
import { issueRenewalInvoices } from "./renewals";
import { addInterval, PROMOTION_MESSAGES } from "./common";
import {
  cancelAtPeriodEnd,
  endExpiredPromotions,
  endPromotion,
  grantPromotion,
  issueInvoice,
  markInvoicePaid,
  requestPromotion,
  voidInvoice,
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
const DAY = 24 * 60 * 60 * 1000;

const asActor = (p: Awaited<ReturnType<typeof insertPerson>>): Actor => p;
const key = () => `key-${randomUUID()}`;

/** A listing near the test search point with an owner, and an admin and a stranger. */
async function setup(overrides: Parameters<typeof insertListing>[1] = {}) {
  const listing = await insertListing(db(), { latitude: 45.5, longitude: -110.5, ...overrides });
  const owner = asActor(await insertPerson(db(), { role: "business_owner" }));
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: owner.userId });
  const admin = asActor(await insertPerson(db(), { role: "admin" }));
  const stranger = asActor(await insertPerson(db()));
  return { listing, owner, admin, stranger };
}

const tierOf = async (id: string) =>
  (await db().select({ tier: locations.tier }).from(locations).where(eq(locations.placeId, id)))[0]!.tier;
const promotionRow = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const auditActions = async (ids: string[]) =>
  (await db().select().from(auditLog).where(inArray(auditLog.subjectId, ids)).orderBy(auditLog.id)).map(
    (a) => a.action,
  );

/** A distance search within 5 miles of a point. */
const nearby = (lat: number, lng: number): SearchQuery => ({
  lat,
  lng,
  radius: 5,
  sizes: [],
  amenities: [],
  sort: "distance",
  page: 1,
  pageSize: 50,
});

/** The order in which the search index lists these listings for the query. */
const distanceOrder = (query: SearchQuery, ids: string[]) =>
  getSearchIndex()
    .query(query)
    .items.map((i) => i.id)
    .filter((id) => ids.includes(id));

async function paidPromotion(s: Awaited<ReturnType<typeof setup>>, tier = "Preferred", now = new Date()) {
  const { promotion } = await requestPromotion(db(), {
    actor: s.owner,
    locationId: s.listing.placeId,
    tier,
    interval: "month",
    idempotencyKey: key(),
    settings,
  });
  const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now });
  const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now });
  return { promotion: paid.promotion, invoice: paid.invoice };
}

describe("requestPromotion", () => {
  it("lets the owner and an admin request, and refuses a stranger", async () => {
    const s = await setup();
    const input = { locationId: s.listing.placeId, tier: "Pro", interval: "year", settings };
    expect(
      await rejection(requestPromotion(db(), { ...input, actor: s.stranger, idempotencyKey: key() })),
    ).toMatchObject({ status: 403, message: PROMOTION_MESSAGES.notYours });
    const mine = await requestPromotion(db(), { ...input, actor: s.owner, idempotencyKey: key() });
    expect(mine).toMatchObject({ created: true, promotion: { status: "pending", provider: "invoice", tier: "Pro" } });
    await cancelAtPeriodEnd(db(), { actor: s.owner, promotionId: mine.promotion.id });
    const admins = await requestPromotion(db(), { ...input, actor: s.admin, idempotencyKey: key() });
    expect(admins.promotion.buyerUserId).toBe(s.admin.userId);
    expect(
      await rejection(requestPromotion(db(), { ...input, locationId: "nope", actor: s.admin, idempotencyKey: key() })),
    ).toMatchObject({ status: 404 });
  });

  it("returns the same promotion for a repeated key, also when racing, and refuses a second live one", async () => {
    const s = await setup();
    const input = {
      actor: s.owner,
      locationId: s.listing.placeId,
      tier: "Basic",
      interval: "month",
      idempotencyKey: key(),
      settings,
    };
    const results = await Promise.all([requestPromotion(db(), input), requestPromotion(db(), input)]);
    expect(results[0].promotion.id).toBe(results[1].promotion.id);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect((await requestPromotion(db(), input)).created).toBe(false);
    expect(await rejection(requestPromotion(db(), { ...input, idempotencyKey: key() }))).toMatchObject({
      status: 409,
      message: PROMOTION_MESSAGES.oneLive,
    });
    expect(await rejection(requestPromotion(db(), { ...input, tier: "Pro" }))).toMatchObject({
      status: 409,
      message: PROMOTION_MESSAGES.keyReused,
    });
    const live = await db().select().from(promotions).where(eq(promotions.locationId, s.listing.placeId));
    expect(live).toHaveLength(1);
  });

  it("refuses an unknown plan, a Free 'plan' and an unknown interval", async () => {
    const s = await setup();
    const base = { actor: s.owner, locationId: s.listing.placeId, idempotencyKey: key(), settings };
    for (const [tier, interval] of [
      ["Gold", "month"],
      ["Free", "month"],
      ["Pro", "week"],
    ] as const)
      expect(await rejection(requestPromotion(db(), { ...base, tier, interval }))).toMatchObject({ status: 400 });
  });
});

describe("look-ups by an id from a request", () => {
  it("find nothing for an id holding a NUL character, which PostgreSQL refuses (found by the fuzz suite)", async () => {
    const { listing, owner } = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: owner,
      locationId: listing.placeId,
      tier: "Pro",
      interval: "month",
      idempotencyKey: key(),
    });
    const { invoice } = await issueInvoice(db(), { actor: owner, promotionId: promotion.id });
    expect(await promotionById(db(), promotion.id)).toBeDefined();
    expect(await promotionById(db(), `${promotion.id.slice(0, 8)}\u0000${promotion.id.slice(8)}`)).toBeUndefined();
    expect(await invoiceById(db(), `${invoice.id}\u0000`, true)).toBeUndefined();
    expect(await locationExists(db(), `${listing.placeId}\u0000`)).toBe(false);
    expect(await ownsListing(db(), owner.userId, `\u0000${listing.placeId}`)).toBe(false);
    expect(await hasVerifiedOwner(db(), `${listing.placeId}\u0000`)).toBe(false);
  });
});

describe("invoices", () => {
  it("issues one invoice with the plan's amount, a due date and an email in the outbox", async () => {
    const s = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: s.owner,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "year",
      idempotencyKey: key(),
      settings,
    });
    expect(
      await rejection(issueInvoice(db(), { actor: s.stranger, promotionId: promotion.id, settings })),
    ).toMatchObject({ status: 403 });
    const now = new Date("2026-03-01T10:00:00Z");
    const first = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now });
    const again = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now });
    expect(again).toMatchObject({ created: false, invoice: { id: first.invoice.id } });
    const plan = settings.promotionPlans.plans.find((p) => p.tier === "Preferred")!;
    expect(first.invoice).toMatchObject({ status: "open", amountCents: plan.prices.year, currency: "usd" });
    expect(first.invoice.number).toMatch(/^RVS-2026-\d{6}$/);
    expect(first.invoice.dueAt!.getTime() - now.getTime()).toBe(14 * DAY);
    const mail = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, s.owner.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Invoice ${first.invoice.number} for ${s.listing.name}`);
    expect(mail[0]!.textBody).toContain("$490.00");
    expect(mail[0]!.textBody).toContain(settings.INVOICE_PAYMENT_INSTRUCTIONS);
    expect(await auditActions([first.invoice.id])).toEqual(["invoice.issue"]);
  });

  it("numbers invoices uniquely when many are issued at once", async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => setup()));
    const requested = await Promise.all(
      people.map((s) =>
        requestPromotion(db(), {
          actor: s.owner,
          locationId: s.listing.placeId,
          tier: "Basic",
          interval: "month",
          idempotencyKey: key(),
          settings,
        }),
      ),
    );
    const issued = await Promise.all(
      requested.map((r, i) => issueInvoice(db(), { actor: people[i]!.owner, promotionId: r.promotion.id, settings })),
    );
    const numbers = issued.map((r) => r.invoice.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("paying activates the promotion, sets the tier and refreshes the search index at once", async () => {
    const s = await setup({ latitude: 46.25, longitude: -111.25, tier: "Free" });
    const rival = await insertListing(db(), { latitude: 46.25, longitude: -111.2501, tier: "Basic" });
    await refreshSearchIndex(db());
    const query = nearby(46.25, -111.25);
    const order = () => distanceOrder(query, [s.listing.placeId, rival.placeId]);
    expect(order()).toEqual([rival.placeId, s.listing.placeId]);

    const { promotion } = await requestPromotion(db(), {
      actor: s.owner,
      locationId: s.listing.placeId,
      tier: "Pro",
      interval: "month",
      idempotencyKey: key(),
      settings,
    });
    const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(await rejection(markInvoicePaid(db(), { actor: s.owner, invoiceId: invoice.id }))).toMatchObject({
      status: 403,
    });
    const now = new Date("2026-01-31T12:00:00Z");
    const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now });
    expect(paid.changed).toBe(true);
    expect(paid.promotion).toMatchObject({ status: "active", baseTier: "Free", periodStart: now });
    expect(paid.promotion.periodEnd).toEqual(new Date("2026-02-28T12:00:00Z"));
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
    expect(order()).toEqual([s.listing.placeId, rival.placeId]);
    const item = getSearchIndex()
      .query(query)
      .items.find((i) => i.id === s.listing.placeId);
    expect(item).toMatchObject({ tier: "Pro" });

    // Marking it paid again changes nothing: no second period, no second email.
    const again = await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now: new Date() });
    expect(again.changed).toBe(false);
    expect((await promotionRow(promotion.id)).periodEnd).toEqual(paid.promotion.periodEnd);
    const kinds = (await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, s.owner.email))).map(
      (m) => m.kind,
    );
    expect(kinds.sort()).toEqual(["promotion.invoice", "promotion.paid"]);
    expect(await auditActions([invoice.id, promotion.id, s.listing.placeId])).toEqual([
      "promotion.request",
      "invoice.issue",
      "invoice.paid",
      "promotion.activate",
      "listing.tier",
    ]);
    expect(
      await rejection(voidInvoice(db(), { actor: s.admin, invoiceId: invoice.id, reason: "mistake" })),
    ).toMatchObject({ status: 409, message: PROMOTION_MESSAGES.paidCannotVoid });
  });

  it("a renewal invoice extends the period from its end", async () => {
    const s = await setup();
    const start = new Date("2026-04-10T00:00:00Z");
    const { promotion } = await paidPromotion(s, "Basic", start);
    const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings, now: start });
    expect(invoice.periodStart).toEqual(new Date("2026-05-10T00:00:00Z"));
    const renewed = await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id, now: start });
    expect(renewed.promotion).toMatchObject({ periodStart: start, periodEnd: new Date("2026-06-10T00:00:00Z") });
  });

  it("voiding needs an admin and a reason, and voids the pending promotion so the owner can ask again", async () => {
    const s = await setup();
    const input = {
      actor: s.owner,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "month",
      idempotencyKey: key(),
      settings,
    };
    const { promotion } = await requestPromotion(db(), input);
    const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    expect(await rejection(voidInvoice(db(), { actor: s.owner, invoiceId: invoice.id, reason: "nope" }))).toMatchObject(
      { status: 403 },
    );
    expect(await rejection(voidInvoice(db(), { actor: s.admin, invoiceId: invoice.id, reason: " " }))).toMatchObject({
      status: 400,
      message: PROMOTION_MESSAGES.reasonNeeded,
    });
    const voided = await voidInvoice(db(), { actor: s.admin, invoiceId: invoice.id, reason: "Sent twice" });
    expect(voided.invoice).toMatchObject({ status: "void", voidReason: "Sent twice" });
    expect(await promotionRow(promotion.id)).toMatchObject({ status: "void" });
    expect((await voidInvoice(db(), { actor: s.admin, invoiceId: invoice.id, reason: "Sent twice" })).changed).toBe(
      false,
    );
    expect(await rejection(markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id }))).toMatchObject({
      status: 409,
      message: PROMOTION_MESSAGES.voidCannotPay,
    });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    expect((await requestPromotion(db(), { ...input, idempotencyKey: key() })).created).toBe(true);
  });
});

describe("what a paid invoice activates (issue 30)", () => {
  it("activates the plan the invoice bills, not a plan the promotion took after it was issued", async () => {
    const s = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: s.owner,
      locationId: s.listing.placeId,
      tier: "Basic",
      interval: "month",
      idempotencyKey: key(),
      settings,
    });
    const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
    // The promotion's plan moved to Pro yearly while the $19 Basic invoice stayed open (a change
    // that did not void it, as before plan changes voided invoices).
    await db().update(promotions).set({ tier: "Pro", interval: "year" }).where(eq(promotions.id, promotion.id));
    const paid = await markInvoicePaid(db(), { actor: s.admin, invoiceId: invoice.id });
    expect(paid.promotion).toMatchObject({ status: "active", tier: "Basic", interval: "month" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    // Its renewal bills the plan that is active.
    const near = new Date(paid.promotion.periodEnd!.getTime() - 3 * DAY);
    await issueRenewalInvoices(db(), near, settings);
    const [renewal] = (await db().select().from(invoices).where(eq(invoices.promotionId, promotion.id))).filter(
      (i) => i.status === "open",
    );
    expect(renewal).toMatchObject({ tier: "Basic", interval: "month", amountCents: 1900 });
  });
});

describe("cancel, grant and end", () => {
  it("cancel at period end keeps the tier until the period ends; strangers may not cancel", async () => {
    const s = await setup();
    const { promotion } = await paidPromotion(s);
    expect(await rejection(cancelAtPeriodEnd(db(), { actor: s.stranger, promotionId: promotion.id }))).toMatchObject({
      status: 403,
    });
    const cancelled = await cancelAtPeriodEnd(db(), { actor: s.owner, promotionId: promotion.id });
    expect(cancelled).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");
    const later = new Date(promotion.periodEnd!.getTime() + 1000);
    expect(await endExpiredPromotions(db(), later, settings)).toMatchObject({ ended: expect.any(Number) });
    expect(await promotionRow(promotion.id)).toMatchObject({ status: "ended", endReason: "cancelled at period end" });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
  });

  it("an admin grants and ends a promotion with a reason; the base tier comes back", async () => {
    const s = await setup({ tier: "Basic" });
    const input = { locationId: s.listing.placeId, tier: "Pro", interval: "month", reason: "Launch partner" };
    expect(await rejection(grantPromotion(db(), { ...input, actor: s.owner }))).toMatchObject({ status: 403 });
    expect(await rejection(grantPromotion(db(), { ...input, actor: s.admin, reason: "" }))).toMatchObject({
      status: 400,
    });
    const granted = await grantPromotion(db(), { ...input, actor: s.admin });
    expect(granted).toMatchObject({ provider: "admin", status: "active", baseTier: "Basic", tier: "Pro" });
    expect(await tierOf(s.listing.placeId)).toBe("Pro");
    expect(await rejection(grantPromotion(db(), { ...input, actor: s.admin }))).toMatchObject({ status: 409 });
    expect(
      await rejection(endPromotion(db(), { actor: s.owner, promotionId: granted.id, reason: "Because" })),
    ).toMatchObject({ status: 403 });
    const ended = await endPromotion(db(), { actor: s.admin, promotionId: granted.id, reason: "Partnership over" });
    expect(ended).toMatchObject({ status: "ended", endReason: "ended by an administrator: Partnership over" });
    expect(await tierOf(s.listing.placeId)).toBe("Basic");
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, granted.id), eq(auditLog.action, "promotion.grant")));
    expect(audit[0]!.after).toMatchObject({ reason: "Launch partner" });
    expect(
      await rejection(endPromotion(db(), { actor: s.admin, promotionId: granted.id, reason: "Again" })),
    ).toMatchObject({ status: 409, message: PROMOTION_MESSAGES.notLive });
  });
});

describe("endExpiredPromotions", () => {
  it("ends an expired promotion with a controlled clock, and the listing falls back behind a nearer rival", async () => {
    const s = await setup({ latitude: 44.75, longitude: -109.75, tier: "Free" });
    const rival = await insertListing(db(), { latitude: 44.75, longitude: -109.7501, tier: "Basic" });
    const order = () => distanceOrder(nearby(44.75, -109.7501), [s.listing.placeId, rival.placeId]);
    const start = new Date("2026-03-10T09:00:00Z");
    const { promotion } = await paidPromotion(s, "Preferred", start);
    await refreshSearchIndex(db());
    expect(order()).toEqual([s.listing.placeId, rival.placeId]);

    const end = promotion.periodEnd!;
    expect((await endExpiredPromotions(db(), new Date(end.getTime() - 1), settings)).ended).toBe(0);
    expect(order()).toEqual([s.listing.placeId, rival.placeId]);
    expect((await endExpiredPromotions(db(), new Date(end.getTime() + 1), settings)).ended).toBeGreaterThanOrEqual(1);
    expect(await promotionRow(promotion.id)).toMatchObject({ status: "ended", endReason: "period ended" });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    // The job refreshed the index itself: the nearer Basic rival is first again.
    expect(order()).toEqual([rival.placeId, s.listing.placeId]);
  });

  it("ends lapsed active promotions, and past-due ones only after the grace days", async () => {
    const start = new Date("2026-06-01T00:00:00Z");
    const lapsed = await setup();
    const a = await paidPromotion(lapsed, "Preferred", start);
    const late = await setup();
    const b = await paidPromotion(late, "Pro", start);
    await db().update(promotions).set({ status: "past_due" }).where(eq(promotions.id, b.promotion.id));
    const end = a.promotion.periodEnd!;
    expect(end).toEqual(addInterval(start, "month"));

    await endExpiredPromotions(db(), new Date(end.getTime() - 1000), settings);
    expect((await promotionRow(a.promotion.id)).status).toBe("active");

    await endExpiredPromotions(db(), new Date(end.getTime() + 1000), settings);
    expect(await promotionRow(a.promotion.id)).toMatchObject({ status: "ended", endReason: "period ended" });
    expect(await tierOf(lapsed.listing.placeId)).toBe("Free");
    expect((await promotionRow(b.promotion.id)).status).toBe("past_due");
    expect(await tierOf(late.listing.placeId)).toBe("Pro");

    await endExpiredPromotions(db(), new Date(end.getTime() + 7 * DAY - 1000), settings);
    expect((await promotionRow(b.promotion.id)).status).toBe("past_due");
    const [graceEnd] = await Promise.all([
      endExpiredPromotions(db(), new Date(end.getTime() + 7 * DAY + 1000), settings),
      endExpiredPromotions(db(), new Date(end.getTime() + 7 * DAY + 1000), settings),
    ]);
    expect(graceEnd.ended).toBeGreaterThanOrEqual(0);
    expect(await promotionRow(b.promotion.id)).toMatchObject({ status: "ended", endReason: "payment overdue" });
    expect(await tierOf(late.listing.placeId)).toBe("Free");
    const ends = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, b.promotion.id), eq(auditLog.action, "promotion.end")));
    expect(ends).toHaveLength(1);
    const endedMail = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, late.owner.email), eq(emailOutbox.kind, "promotion.ended")));
    expect(endedMail).toHaveLength(1);
    expect(
      (await db().select().from(invoices).where(eq(invoices.promotionId, a.promotion.id))).map((i) => i.status),
    ).toEqual(["paid"]);
  });
});

describe("issueRenewalInvoices", () => {
  it("sends the next period's invoice once, INVOICE_DUE_DAYS before the end, and never again after a void", async () => {
    const s = await setup();
    const start = new Date("2026-04-02T10:00:00Z");
    const { promotion } = await paidPromotion(s, "Basic", start);
    const end = promotion.periodEnd!;
    const renewals = async () =>
      (await db().select().from(invoices).where(eq(invoices.promotionId, promotion.id))).filter(
        (i) => i.periodStart !== null && i.periodStart >= end,
      );

    await issueRenewalInvoices(db(), new Date(end.getTime() - 20 * DAY), settings);
    expect(await renewals()).toHaveLength(0);
    const at = new Date(end.getTime() - 10 * DAY);
    await Promise.all([issueRenewalInvoices(db(), at, settings), issueRenewalInvoices(db(), at, settings)]);
    const [renewal, ...more] = await renewals();
    expect(more).toHaveLength(0);
    expect(renewal).toMatchObject({ status: "open", amountCents: 1900, periodStart: end, createdBy: null });
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, s.owner.email), eq(emailOutbox.kind, "promotion.invoice")));
    expect(mails.map((m) => m.subject)).toContain(`Invoice ${renewal!.number} for ${s.listing.name}`);

    // Voided by an admin (the owner declined): the job does not send it again.
    await voidInvoice(db(), { actor: s.admin, invoiceId: renewal!.id, reason: "owner declined" });
    expect((await issueRenewalInvoices(db(), new Date(at.getTime() + DAY), settings)).issued).toBe(0);
    expect(await renewals()).toHaveLength(1);
  });

  it("skips cancelled promotions, and after a paid renewal sends the one for the period after", async () => {
    const cancelled = await setup();
    const a = await paidPromotion(cancelled, "Preferred", new Date("2026-05-05T00:00:00Z"));
    await cancelAtPeriodEnd(db(), { actor: cancelled.owner, promotionId: a.promotion.id });
    const near = new Date(a.promotion.periodEnd!.getTime() - 3 * DAY);
    await issueRenewalInvoices(db(), near, settings);
    expect(await db().select().from(invoices).where(eq(invoices.promotionId, a.promotion.id))).toHaveLength(1);

    const renewing = await setup();
    const b = await paidPromotion(renewing, "Preferred", new Date("2026-05-05T00:00:00Z"));
    await issueRenewalInvoices(db(), near, settings);
    const [next] = (await db().select().from(invoices).where(eq(invoices.promotionId, b.promotion.id))).filter(
      (i) => i.status === "open",
    );
    const paid = await markInvoicePaid(db(), { actor: renewing.admin, invoiceId: next!.id, now: near });
    expect(paid.promotion.periodEnd).toEqual(addInterval(b.promotion.periodEnd!, "month"));
    const later = new Date(paid.promotion.periodEnd!.getTime() - 3 * DAY);
    expect((await issueRenewalInvoices(db(), later, settings)).issued).toBeGreaterThanOrEqual(1);
    const open = (await db().select().from(invoices).where(eq(invoices.promotionId, b.promotion.id))).filter(
      (i) => i.status === "open",
    );
    expect(open.map((i) => i.periodStart)).toEqual([paid.promotion.periodEnd]);
  });
});
