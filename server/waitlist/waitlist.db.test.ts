/**
 * The waitlist against the database (docs/product.md section 17): double opt-in, the same answer
 * whatever the address's state, one email per person per opening in the order they joined, a
 * leave link in every email, and counts (never addresses) for the owner.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SizeOffer } from "../../domain/listings";
import { createTestDatabase } from "../../tests/setup/db";
import { grantListing } from "../auth/ownership";
import { readLinkToken, signLinkToken } from "../auth/signed-link";
import { resolveAuthSecret } from "../auth/secret";
import { insertListing, insertPerson } from "../claims/test-support";
import { getConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { availabilityOpenings, emailOutbox, locations, waitlistEntries, waitlistNotices } from "../db/schema";
import { updateListing } from "../listings/edit";
import { confirmLinkState, confirmWaitlist, joinWaitlist, leaveWaitlist, waitlistCounts } from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const FULL: SizeOffer = {
  width: 12,
  length: 40,
  monthlyPrice: 190,
  availability: "full",
  statusAt: new Date().toISOString(),
};
const OPEN: SizeOffer = {
  width: 10,
  length: 20,
  monthlyPrice: 90,
  availability: "available",
  statusAt: new Date().toISOString(),
};

async function ownedListing() {
  const listing = await insertListing(db(), { sizeOffers: [FULL, OPEN] });
  const owner = await insertPerson(db(), { role: "business_owner" });
  await grantListing(db(), owner.userId, listing.placeId);
  return { listing, owner };
}

const mailsTo = (address: string) =>
  db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address)).orderBy(asc(emailOutbox.id));
const linkIn = (text: string, path: string) =>
  decodeURIComponent(new RegExp(`/waitlist/${path}\\?token=(\\S+)`).exec(text)?.[1] ?? "");
const join = (locationId: string, email: string, sizeKey = "12x40") =>
  joinWaitlist(db(), { locationId, sizeKey, email, rvLengthFeet: 38, visitorUserId: null });

/** Joins and confirms through the emailed link, as a visitor does. */
async function joined(locationId: string, email: string) {
  await join(locationId, email);
  const mails = await mailsTo(email);
  const confirmed = await confirmWaitlist(db(), linkIn(mails.at(-1)!.textBody, "confirm"));
  expect(confirmed).toMatchObject({ ok: true, entry: { status: "active" } });
}

/** The owner saves the sizes through the listing edit, as the availability screen does. */
async function ownerSets(listing: { placeId: string }, owner: { userId: string; email: string }, sizes: SizeOffer[]) {
  const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
  return updateListing(db(), {
    actor: { userId: owner.userId, email: owner.email, name: null, isAdmin: false },
    locationId: listing.placeId,
    changes: { sizes },
    expectedVersion: row!.version,
  });
}

describe("joining", () => {
  it("asks the address to confirm, answers alike for a waiting one, and counts only confirmed people", async () => {
    const { listing } = await ownedListing();
    await join(listing.placeId, "Robin@Example.com");
    const [first] = await mailsTo("robin@example.com");
    expect(first).toMatchObject({ kind: "waitlist.confirm" });
    expect(await waitlistCounts(db(), listing.placeId)).toEqual({});
    // Asking again before confirming sends the link again; the first one still works.
    await join(listing.placeId, "robin@example.com");
    expect(await mailsTo("robin@example.com")).toHaveLength(2);
    const state = await confirmWaitlist(db(), linkIn(first!.textBody, "confirm"));
    expect(state).toMatchObject({ ok: true, entry: { status: "active", email: "robin@example.com" } });
    expect(await waitlistCounts(db(), listing.placeId)).toEqual({ "12x40": 1 });
    // Confirming twice changes nothing; joining again is told it already waits, with a leave link.
    expect(await confirmWaitlist(db(), linkIn(first!.textBody, "confirm"))).toMatchObject({ ok: true });
    await join(listing.placeId, "robin@example.com");
    const last = (await mailsTo("robin@example.com")).at(-1)!;
    expect(last.kind).toBe("waitlist.already");
    expect(linkIn(last.textBody, "leave")).not.toBe("");
    expect(
      await db().select().from(waitlistEntries).where(eq(waitlistEntries.locationId, listing.placeId)),
    ).toHaveLength(1);
  });

  it("refuses a size that is not full, and a listing that is not on the site", async () => {
    const { listing } = await ownedListing();
    await expect(join(listing.placeId, "a@example.com", "10x20")).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/has space now/),
    });
    await expect(join(listing.placeId, "a@example.com", "99x99")).rejects.toMatchObject({ status: 400 });
    await db().update(locations).set({ hiddenAt: new Date() }).where(eq(locations.placeId, listing.placeId));
    await expect(join(listing.placeId, "a@example.com")).rejects.toMatchObject({ status: 404 });
    await expect(join(`${listing.placeId}\u0000`, "a@example.com")).rejects.toMatchObject({ status: 404 });
    expect(await mailsTo("a@example.com")).toEqual([]);
  });
});

describe("an opening", () => {
  it("emails everyone waiting once, in the order they joined, and again only at the next opening", async () => {
    const { listing, owner } = await ownedListing();
    await joined(listing.placeId, "first@example.com");
    await joined(listing.placeId, "second@example.com");
    await join(listing.placeId, "unconfirmed@example.com");
    await joined(listing.placeId, "gone@example.com");
    const goneMail = (await mailsTo("gone@example.com")).at(-1)!;
    // Every waitlist email has a leave link; the confirmation's page offers the same.
    await join(listing.placeId, "gone@example.com");
    const leaveToken = linkIn((await mailsTo("gone@example.com")).at(-1)!.textBody, "leave");
    expect(await leaveWaitlist(db(), leaveToken)).toMatchObject({ ok: true, entry: { status: "left" } });
    // An old confirmation link does not bring back someone who left.
    expect(await confirmWaitlist(db(), linkIn(goneMail.textBody, "confirm"))).toEqual({ ok: false, reason: "invalid" });

    const result = await ownerSets(listing, owner, [{ ...FULL, availability: "few_left" }, OPEN]);
    expect(result.waitlistEmailed).toBe(2);
    const openingMails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "waitlist.opening"))
      .orderBy(asc(emailOutbox.id));
    expect(openingMails.map((m) => m.toAddress)).toEqual(["first@example.com", "second@example.com"]);
    expect(openingMails[0]!.subject).toBe(`12x40 ft has space at ${listing.name}`);
    expect(openingMails[0]!.textBody).toContain("/waitlist/leave?token=");
    const [opening] = await db()
      .select()
      .from(availabilityOpenings)
      .where(eq(availabilityOpenings.locationId, listing.placeId));
    expect(opening).toMatchObject({ sizeKey: "12x40", notified: 2 });
    expect(await db().select().from(waitlistNotices).where(eq(waitlistNotices.openingId, opening!.id))).toHaveLength(2);

    // Saving again while it is open, or changing another size, is no new opening.
    await ownerSets(listing, owner, [
      { ...FULL, availability: "available" },
      { ...OPEN, availability: "full" },
    ]);
    expect(await mailsTo("first@example.com").then((m) => m.filter((x) => x.kind === "waitlist.opening"))).toHaveLength(
      1,
    );
    // Full again, then open again: a second opening, announced once more.
    await ownerSets(listing, owner, [FULL, OPEN]);
    await ownerSets(listing, owner, [{ ...FULL, availability: "available" }, OPEN]);
    const second = await mailsTo("second@example.com");
    expect(second.filter((m) => m.kind === "waitlist.opening")).toHaveLength(2);
    expect(await mailsTo("gone@example.com").then((m) => m.filter((x) => x.kind === "waitlist.opening"))).toEqual([]);
  });

  it("rolls back with the edit: a refused save records no opening and sends nothing", async () => {
    const { listing, owner } = await ownedListing();
    await joined(listing.placeId, "waits@example.com");
    const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    await expect(
      updateListing(db(), {
        actor: { userId: owner.userId, email: owner.email, name: null, isAdmin: false },
        locationId: listing.placeId,
        changes: { sizes: [{ ...FULL, availability: "available" }, OPEN] },
        expectedVersion: row!.version - 1,
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(
      await db().select().from(availabilityOpenings).where(eq(availabilityOpenings.locationId, listing.placeId)),
    ).toEqual([]);
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, "waits@example.com"), eq(emailOutbox.kind, "waitlist.opening"))),
    ).toEqual([]);
  });
});

describe("links", () => {
  it("work only for their purpose, unaltered and before they expire", async () => {
    const { listing } = await ownedListing();
    await join(listing.placeId, "links@example.com");
    const token = linkIn((await mailsTo("links@example.com"))[0]!.textBody, "confirm");
    expect(await confirmLinkState(db(), token)).toMatchObject({ ok: true, entry: { status: "pending" } });
    expect(await leaveWaitlist(db(), token)).toEqual({ ok: false, reason: "invalid" });
    expect(await confirmWaitlist(db(), `${token.slice(0, -2)}xx`)).toEqual({ ok: false, reason: "invalid" });
    expect(await confirmWaitlist(db(), token, new Date(Date.now() + 8 * DAY))).toEqual({
      ok: false,
      reason: "expired",
    });
    const secret = resolveAuthSecret(getConfig());
    const [id] = (readLinkToken(secret, "waitlist-confirm", token, 1, Date.now()) as { fields: string[] }).fields;
    const forged = signLinkToken("x".repeat(40), "waitlist-confirm", [id!], Date.now() + DAY);
    expect(await confirmWaitlist(db(), forged)).toEqual({ ok: false, reason: "invalid" });
    expect(await confirmWaitlist(db(), "garbage")).toEqual({ ok: false, reason: "invalid" });
  });
});
