import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { changeListingOwner } from "../catalogue/service";
import { decideClaim, fileClaim } from "../claims/service";
import { CLAIM_INPUT, insertListing, insertPerson, memoryStore } from "../claims/test-support";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, invoices, listingOwners, locations, promotions } from "../db/schema";
import { changePlan } from "./change-plan";
import { promotionSummaryOf } from "./queries";
import { cancelAtPeriodEnd, grantPromotion, issueInvoice, markInvoicePaid, requestPromotion } from "./service";
import { PROMOTION_MESSAGES } from "./common";
import {
  cancelStripeAtPeriodEnd,
  changeStripePlan,
  handleStripeWebhook,
  openCustomerPortal,
  startCheckout,
  syncCheckoutSession,
} from "./stripe";
import { startStripeStandIn, type StripeStandIn } from "./stripe-test-support";
import { invoiceForViewer } from "./summary";
import { TRANSFER_MESSAGES } from "./transfer";
import type { Actor } from "../auth/actor";

/**
 * What a listing transfer does to billing (issue 30 item 2): billing belongs to the account that
 * bought it. Old owner B, new owner A, an admin and a stranger, across a transfer, for promotions
 * and invoices in both modes; Stripe is the local stand-in, driven by the official SDK.
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
const key = () => `key-${randomUUID()}`;
const origin = "https://rv.example";

async function setup() {
  const listing = await insertListing(db(), { latitude: 44.5, longitude: -109.5, tier: "Free", name: "Ridge RV" });
  const b: Actor = await insertPerson(db(), { role: "business_owner", name: "Bea Before" });
  const a: Actor = await insertPerson(db(), { role: "business_owner", name: "Abe After" });
  const admin: Actor = await insertPerson(db(), { role: "admin" });
  const stranger: Actor = await insertPerson(db(), { role: "business_owner" });
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: b.userId });
  const transfer = (email: string | null) =>
    changeListingOwner(db(), { actor: admin, locationId: listing.placeId, email, settings });
  return { listing, a, b, admin, stranger, transfer };
}

const row = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const tierOf = async (id: string) =>
  (await db().select({ tier: locations.tier }).from(locations).where(eq(locations.placeId, id)))[0]!.tier;
const ownerOf = async (id: string) =>
  (await db().select().from(listingOwners).where(eq(listingOwners.locationId, id)))[0]?.userId;
const mailsTo = async (email: string) =>
  (await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).map((m) => m.kind);

describe("a listing transfer and invoice billing", () => {
  it("ends B's promotion, voids its open invoice and tells B; A sees and does nothing of it, B keeps the receipt", async () => {
    const s = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: s.b,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "month",
      idempotencyKey: key(),
      settings,
    });
    const first = await issueInvoice(db(), { actor: s.b, promotionId: promotion.id, settings });
    await markInvoicePaid(db(), { actor: s.admin, invoiceId: first.invoice.id });
    const renewal = await issueInvoice(db(), { actor: s.b, promotionId: promotion.id, settings });
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");

    expect(await s.transfer(s.a.email)).toEqual({ kind: "transferred", email: s.a.email });
    expect(await ownerOf(s.listing.placeId)).toBe(s.a.userId);
    expect(await row(promotion.id)).toMatchObject({
      status: "ended",
      endReason: "listing transferred to another owner",
    });
    const [open] = await db().select().from(invoices).where(eq(invoices.id, renewal.invoice.id));
    expect(open!.status).toBe("void");
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    const toB = await mailsTo(s.b.email);
    expect(toB).toContain("promotion.transferred");
    expect(toB).not.toContain("promotion.ended");

    // A, the new owner: nothing of B's billing is visible or actionable.
    const seenByA = (await promotionSummaryOf(db(), [s.listing.placeId], { buyerUserId: s.a.userId })).get(
      s.listing.placeId,
    )!;
    expect(seenByA).toMatchObject({ promotion: null, invoices: [] });
    for (const invoiceId of [first.invoice.id, renewal.invoice.id])
      expect(await rejection(invoiceForViewer(db(), s.a, invoiceId))).toMatchObject({
        status: 403,
        message: PROMOTION_MESSAGES.notBuyer,
      });
    const refusals = [
      () => issueInvoice(db(), { actor: s.a, promotionId: promotion.id, settings }),
      () => cancelAtPeriodEnd(db(), { actor: s.a, promotionId: promotion.id }),
      () => changePlan(db(), { actor: s.a, promotionId: promotion.id, tier: "Pro", interval: "year", settings }),
    ];
    // One at a time: made together, a refusal not yet awaited would be an unhandled rejection.
    for (const refusal of refusals) expect(await rejection(refusal())).toMatchObject({ status: 403 });
    // A stranger neither; B no longer acts on the listing's billing, but keeps the receipt.
    expect(await rejection(invoiceForViewer(db(), s.stranger, first.invoice.id))).toMatchObject({ status: 403 });
    expect(await rejection(issueInvoice(db(), { actor: s.b, promotionId: promotion.id, settings }))).toMatchObject({
      status: 403,
    });
    expect((await invoiceForViewer(db(), s.b, first.invoice.id)).buyer).toMatchObject({ email: s.b.email });
    // The admin sees all of it.
    expect((await invoiceForViewer(db(), s.admin, first.invoice.id)).invoice.id).toBe(first.invoice.id);
    expect((await promotionSummaryOf(db(), [s.listing.placeId])).get(s.listing.placeId)!.invoices).toHaveLength(2);

    // A promotes the listing on A's own account.
    const mine = await requestPromotion(db(), {
      actor: s.a,
      locationId: s.listing.placeId,
      tier: "Basic",
      interval: "month",
      idempotencyKey: key(),
      settings,
    });
    expect(mine.promotion).toMatchObject({ status: "pending", buyerUserId: s.a.userId });
    const a2 = (await promotionSummaryOf(db(), [s.listing.placeId], { buyerUserId: s.a.userId })).get(
      s.listing.placeId,
    )!;
    expect(a2.promotion?.id).toBe(mine.promotion.id);
  });

  it("removing the owner ends their pending request the same way; a granted promotion stays with the listing", async () => {
    const s = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: s.b,
      locationId: s.listing.placeId,
      tier: "Pro",
      interval: "year",
      idempotencyKey: key(),
      settings,
    });
    const { invoice } = await issueInvoice(db(), { actor: s.b, promotionId: promotion.id, settings });
    expect(await s.transfer(null)).toEqual({ kind: "removed", email: s.b.email });
    expect(await row(promotion.id)).toMatchObject({ status: "void", endReason: "owner removed from the listing" });
    expect((await db().select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!.status).toBe("void");
    expect(await mailsTo(s.b.email)).toContain("promotion.transferred");

    const granted = await grantPromotion(db(), {
      actor: s.admin,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "month",
      reason: "launch partner",
    });
    await s.transfer(s.a.email);
    expect((await row(granted.id)).status).toBe("active");
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");
  });
});

describe("a listing transfer and card billing", () => {
  async function paidByCard(s: Awaited<ReturnType<typeof setup>>) {
    const { promotion } = await requestPromotion(db(), {
      actor: s.b,
      locationId: s.listing.placeId,
      tier: "Preferred",
      interval: "month",
      idempotencyKey: key(),
      provider: "stripe",
      settings,
    });
    await startCheckout(db(), { actor: s.b, promotionId: promotion.id, origin, settings });
    const sessionId = (await row(promotion.id)).stripeCheckoutSessionId!;
    const { subscriptionId } = stand.pay(sessionId, promotion.id);
    await syncCheckoutSession(db(), { actor: s.b, promotionId: promotion.id, sessionId, settings });
    return { promotion: await row(promotion.id), sessionId, subscriptionId };
  }

  it("cancels B's subscription at Stripe; A cannot open B's portal, change, cancel or pay it", async () => {
    const s = await setup();
    const { promotion, sessionId, subscriptionId } = await paidByCard(s);
    expect(await tierOf(s.listing.placeId)).toBe("Preferred");

    expect((await s.transfer(s.a.email)).kind).toBe("transferred");
    expect(stand.recorded.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(
      true,
    );
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect(await row(promotion.id)).toMatchObject({ status: "ended" });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    expect(await mailsTo(s.b.email)).toContain("promotion.transferred");

    const refusals = [
      () => openCustomerPortal(db(), { actor: s.a, promotionId: promotion.id, returnUrl: `${origin}/owner`, settings }),
      () => changeStripePlan(db(), { actor: s.a, promotionId: promotion.id, tier: "Pro", interval: "year", settings }),
      () => cancelStripeAtPeriodEnd(db(), { actor: s.a, promotionId: promotion.id, settings }),
      () => startCheckout(db(), { actor: s.a, promotionId: promotion.id, origin, settings }),
      () => syncCheckoutSession(db(), { actor: s.a, promotionId: promotion.id, sessionId, settings }),
      () => openCustomerPortal(db(), { actor: s.stranger, promotionId: promotion.id, returnUrl: origin, settings }),
    ];
    for (const refusal of refusals)
      expect(await rejection(refusal())).toMatchObject({ status: 403, message: PROMOTION_MESSAGES.notBuyer });
    const portalCalls = stand.recorded.filter((r) => r.path === "/v1/billing_portal/sessions").length;
    // Stripe's word that the subscription is gone changes nothing more.
    const sub = stand.subscriptions.get(subscriptionId)!;
    const event = stand.signed("customer.subscription.deleted", sub, Math.floor(Date.now() / 1000));
    await handleStripeWebhook(db(), Buffer.from(event.payload), event.signature, { settings });
    expect(await row(promotion.id)).toMatchObject({
      status: "ended",
      endReason: "listing transferred to another owner",
    });
    // The admin still can.
    expect(
      (await openCustomerPortal(db(), { actor: s.admin, promotionId: promotion.id, returnUrl: origin, settings })).url,
    ).toMatch(/^https:/);
    expect(stand.recorded.filter((r) => r.path === "/v1/billing_portal/sessions").length).toBe(portalCalls + 1);
  });

  it("an approved claim moves the listing like a transfer: B's subscription is cancelled and B is told", async () => {
    const s = await setup();
    const { promotion, subscriptionId } = await paidByCard(s);
    const claimant = await insertPerson(db(), { role: "user", name: "Cleo Claimant" });
    const filed = await fileClaim(db(), memoryStore(), {
      actor: claimant,
      locationId: s.listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!filed.ok) throw new Error(`claim refused: ${filed.fileErrors.join(" ")}`);
    stand.down = true;
    try {
      // Stripe unreachable: the approval is refused and nothing changes (the claim stays pending).
      expect(
        await rejection(
          decideClaim(db(), {
            actor: { ...s.admin, name: "Admin", isAdmin: true },
            claimId: filed.claimId,
            decision: "approve",
            reason: "Verified by phone.",
            settings,
          }),
        ),
      ).toMatchObject({ status: 502 });
    } finally {
      stand.down = false;
    }
    expect(await ownerOf(s.listing.placeId)).toBe(s.b.userId);
    expect((await row(promotion.id)).status).toBe("active");

    await decideClaim(db(), {
      actor: { ...s.admin, name: "Admin", isAdmin: true },
      claimId: filed.claimId,
      decision: "approve",
      reason: "Verified by phone.",
      settings,
    });
    expect(await ownerOf(s.listing.placeId)).toBe(claimant.userId);
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect(await row(promotion.id)).toMatchObject({
      status: "ended",
      endReason: "listing transferred to another owner",
    });
    expect(await tierOf(s.listing.placeId)).toBe("Free");
    expect(await mailsTo(s.b.email)).toContain("promotion.transferred");
    expect(
      await rejection(
        openCustomerPortal(db(), { actor: claimant, promotionId: promotion.id, returnUrl: origin, settings }),
      ),
    ).toMatchObject({ status: 403 });
  });

  it("an approval the claim's rules refuse (the listing hidden meanwhile) leaves B's subscription running", async () => {
    const s = await setup();
    const { promotion, subscriptionId } = await paidByCard(s);
    const claimant = await insertPerson(db(), { role: "user" });
    const filed = await fileClaim(db(), memoryStore(), {
      actor: claimant,
      locationId: s.listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!filed.ok) throw new Error(`claim refused: ${filed.fileErrors.join(" ")}`);
    await db().update(locations).set({ hiddenAt: new Date() }).where(eq(locations.placeId, s.listing.placeId));
    const approve = () =>
      decideClaim(db(), {
        actor: { ...s.admin, name: "Admin", isAdmin: true },
        claimId: filed.claimId,
        decision: "approve",
        reason: "Verified by phone.",
        settings,
      });
    expect(await rejection(approve())).toMatchObject({ status: 409 });
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("active");
    expect((await row(promotion.id)).status).toBe("active");
    expect(await ownerOf(s.listing.placeId)).toBe(s.b.userId);
  });

  it("refuses the transfer, changing nothing, when Stripe cannot be reached; a retry then works", async () => {
    const s = await setup();
    const { promotion, subscriptionId } = await paidByCard(s);
    stand.down = true;
    try {
      expect(await rejection(s.transfer(s.a.email))).toMatchObject({
        code: "bad_gateway",
        status: 502,
        message: TRANSFER_MESSAGES.stripeDown,
      });
    } finally {
      stand.down = false;
    }
    expect(await ownerOf(s.listing.placeId)).toBe(s.b.userId);
    expect((await row(promotion.id)).status).toBe("active");
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("active");
    expect(await mailsTo(s.b.email)).not.toContain("promotion.transferred");

    expect((await s.transfer(s.a.email)).kind).toBe("transferred");
    expect(stand.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect((await row(promotion.id)).status).toBe("ended");
  });

  it("expires an unpaid Checkout Session, so B cannot pay for a listing that is now A's", async () => {
    const s = await setup();
    const { promotion } = await requestPromotion(db(), {
      actor: s.b,
      locationId: s.listing.placeId,
      tier: "Pro",
      interval: "month",
      idempotencyKey: key(),
      provider: "stripe",
      settings,
    });
    await startCheckout(db(), { actor: s.b, promotionId: promotion.id, origin, settings });
    const sessionId = (await row(promotion.id)).stripeCheckoutSessionId!;
    await s.transfer(s.a.email);
    expect(stand.sessions.get(sessionId)!.status).toBe("expired");
    expect(await row(promotion.id)).toMatchObject({ status: "void" });
    const live = await db()
      .select()
      .from(promotions)
      .where(and(eq(promotions.locationId, s.listing.placeId), eq(promotions.status, "pending")));
    expect(live).toEqual([]);
  });
});
