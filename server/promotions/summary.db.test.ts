import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { insertListing, insertPerson } from "../claims/test-support";
import { parseConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { listingOwners } from "../db/schema";
import { adminInvoiceList, adminPromotionList, promotionCounts } from "./admin-queries";
import { issueInvoice, requestPromotion } from "./service";
import { invoiceForPage } from "./summary";
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

async function owned(name: string) {
  const listing = await insertListing(db(), { name });
  const owner: Actor = await insertPerson(db(), { role: "business_owner" });
  await db().insert(listingOwners).values({ locationId: listing.placeId, userId: owner.userId });
  return { listing, owner };
}

async function requested(s: Awaited<ReturnType<typeof owned>>, tier = "Preferred") {
  const { promotion } = await requestPromotion(db(), {
    actor: s.owner,
    locationId: s.listing.placeId,
    tier,
    interval: "month",
    idempotencyKey: `key-${randomUUID()}`,
    settings,
  });
  const { invoice } = await issueInvoice(db(), { actor: s.owner, promotionId: promotion.id, settings });
  return { promotion, invoice };
}

describe("invoiceForPage", () => {
  it("finds one invoice with its listing and buyer for the printable page", async () => {
    const s = await owned("Delta Storage");
    const { invoice } = await requested(s);
    const page = await invoiceForPage(db(), invoice.id);
    expect(page).toMatchObject({
      invoice: { number: invoice.number },
      listing: { placeId: s.listing.placeId, name: "Delta Storage" },
      buyer: { email: s.owner.email },
    });
    expect(await invoiceForPage(db(), "no-such-invoice")).toBeUndefined();
  });
});

describe("admin lists", () => {
  it("filter invoices by status and search, and promotions by status, provider, plan and search", async () => {
    const s = await owned("Echo 100% Storage");
    const { invoice, promotion } = await requested(s, "Basic");
    const paging = { page: 1, pageSize: 25, dir: "desc" as const };

    const open = await adminInvoiceList(db(), { ...paging, status: "open", q: invoice.number, sort: "issued" });
    expect(open.rows.map((r) => r.id)).toEqual([invoice.id]);
    expect(open.total).toBe(1);
    expect(open.rows[0]).toMatchObject({ listingName: "Echo 100% Storage", buyerEmail: s.owner.email });
    // "%" in a search is a character, not a wildcard.
    const literal = await adminInvoiceList(db(), { ...paging, status: "all", q: "100%", sort: "amount" });
    expect(literal.rows.map((r) => r.id)).toEqual([invoice.id]);
    expect((await adminInvoiceList(db(), { ...paging, status: "paid", q: invoice.number, sort: "due" })).total).toBe(0);

    const live = await adminPromotionList(db(), {
      ...paging,
      status: "live",
      provider: "invoice",
      tier: "Basic",
      q: s.owner.email,
      sort: "ends",
    });
    expect(live.rows.map((r) => r.id)).toEqual([promotion.id]);
    expect(
      (
        await adminPromotionList(db(), {
          ...paging,
          status: "live",
          provider: "all",
          tier: "Pro",
          q: s.listing.placeId,
          sort: "listing",
        })
      ).total,
    ).toBe(0);
    expect(
      (
        await adminPromotionList(db(), {
          ...paging,
          status: "all",
          provider: "stripe",
          tier: "all",
          q: s.listing.placeId,
          sort: "created",
        })
      ).total,
    ).toBe(0);

    const counts = await promotionCounts(db());
    expect(counts.openInvoices).toBeGreaterThanOrEqual(1);
    expect(counts.livePromotions).toBeGreaterThanOrEqual(1);
  });
});
