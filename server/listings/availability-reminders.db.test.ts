/**
 * Availability reminders against the database (docs/product.md section 17): an owner whose stated
 * availability is 14 days old gets one email with a signed link, not another within 14 days; the
 * link confirms every status as theirs, and stops working when it expires, is altered, or the
 * listing changes hands.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, locations } from "../db/schema";
import { confirmByLink, readConfirmToken, sendAvailabilityReminders, signConfirmToken } from "./availability-reminders";

let handle: DatabaseHandle;
const db = () => handle.db;
const DAY = 24 * 60 * 60_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

async function ownedListing(statusDaysAgo: number, email: string) {
  const listing = await insertListing(db(), {
    sizeOffers: [
      { width: 12, length: 40, monthlyPrice: 190, availability: "full", statusAt: ago(statusDaysAgo) },
      { width: 10, length: 20, monthlyPrice: 90, availability: null },
    ],
  });
  const owner = await insertPerson(db(), { role: "business_owner", email });
  await grantListing(db(), owner.userId, listing.placeId);
  return { listing, owner };
}

const mailsTo = (address: string) => db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
const linkIn = (text: string) => /\/availability\/confirm\?token=(\S+)/.exec(text)?.[1];

describe("availability reminders", () => {
  it("email an owner once when a status is 14 days old, with a link that confirms it as theirs", async () => {
    const { listing, owner } = await ownedListing(20, "due@example.com");
    await ownedListing(3, "fresh@example.com");
    await sendAvailabilityReminders(db(), now);
    const mails = await mailsTo("due@example.com");
    expect(mails.map((m) => m.subject)).toEqual([`Is the availability of ${listing.name} still correct?`]);
    expect(await mailsTo("fresh@example.com")).toEqual([]);
    // Not again within the reminder period, however often the job runs.
    await sendAvailabilityReminders(db(), new Date(now.getTime() + 5 * DAY));
    expect(await mailsTo("due@example.com")).toHaveLength(1);

    const token = decodeURIComponent(linkIn(mails[0]!.textBody)!);
    const done = await confirmByLink(db(), token, null);
    expect(done).toMatchObject({ ok: true, listing: { name: listing.name } });
    const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    const stated = row!.sizeOffers.find((o) => o.availability === "full")!;
    expect(Date.now() - Date.parse(stated.statusAt!)).toBeLessThan(60_000);
    expect(row!.sizeOffers.find((o) => o.availability === null)!.statusAt).toBeUndefined();
    const audit = await db().select().from(auditLog).where(eq(auditLog.subjectId, listing.placeId));
    expect(audit.map((a) => [a.action, a.actorId])).toContainEqual(["listing.update", owner.userId]);
  });

  it("refuses an altered, expired or handed-over link and changes nothing", async () => {
    const { listing, owner } = await ownedListing(20, "links@example.com");
    const secret = "s".repeat(40);
    const token = signConfirmToken(secret, { locationId: listing.placeId, ownerId: owner.userId, expires: 2_000 });
    expect(readConfirmToken(secret, token, 1_000)).toMatchObject({ ok: true });
    expect(readConfirmToken(secret, token, 3_000)).toEqual({ ok: false, reason: "expired" });
    expect(readConfirmToken(secret, `${token.slice(0, -2)}xx`, 1_000)).toEqual({ ok: false, reason: "invalid" });
    expect(readConfirmToken(secret, "garbage", 1_000)).toEqual({ ok: false, reason: "invalid" });
    expect(readConfirmToken("t".repeat(40), token, 1_000)).toEqual({ ok: false, reason: "invalid" });

    await sendAvailabilityReminders(db(), now);
    const [mail] = await mailsTo("links@example.com");
    const sent = decodeURIComponent(linkIn(mail!.textBody)!);
    const next = await insertPerson(db(), { role: "business_owner" });
    await grantListing(db(), next.userId, listing.placeId);
    expect(await confirmByLink(db(), sent, null)).toEqual({ ok: false, reason: "invalid" });
    const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    expect(row!.sizeOffers[0]!.statusAt).toBe(ago(20));
  });
});
