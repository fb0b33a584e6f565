/**
 * An admin's decision on a claim (docs/product.md sections 10 and 14): the reason is required to
 * reject and optional to approve, on the server as well as in the form; and the questions visitors
 * asked while the listing had no owner move to the new owner on approval (they leave the admins'
 * queue), also on a transfer, where the previous owner's leads stay theirs.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDecisionSchema } from "../../domain/claim-form";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { SYSTEM_ACTOR } from "../audit/record";
import { changeListingOwner } from "../catalogue/service";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { auditLog, claims, emailOutbox, leads } from "../db/schema";
import { leadsOf, submitLead, unownedLeadCount, unownedLeads, type LeadInput } from "../leads/service";
import { decideClaim, fileClaim } from "./service";
import { CLAIM_INPUT, insertListing, insertPerson, memoryStore } from "./test-support";
import type { Actor } from "../auth/actor";

let handle: DatabaseHandle;
const db = () => handle.db;
let admin: Actor;

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  admin = await insertPerson(db(), { role: "admin" });
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

async function claimBy(person: Actor, locationId: string): Promise<string> {
  const filed = await fileClaim(db(), memoryStore(), { actor: person, locationId, input: CLAIM_INPUT, files: [] });
  if (!filed.ok) throw new Error("not filed");
  return filed.claimId;
}

const question = (email: string): LeadInput => ({
  rvType: "class_c",
  rvLengthFeet: 28,
  cover: "covered",
  moveIn: null,
  name: "Una Unclaimed",
  email,
  phone: null,
  message: `Any covered space? (${email})`,
});

const ask = async (locationId: string, email: string) =>
  (await submitLead(db(), { locationId, input: question(email), visitorUserId: null })).id;

const page = { status: "all" as const, page: 1, pageSize: 50 };
const queued = async (locationId: string) =>
  (await unownedLeads(db(), { page: 1, pageSize: 500 })).filter((l) => l.locationId === locationId).map((l) => l.id);

describe(`the reason of a claim decision (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("is optional in the form for an approval and required for a rejection", () => {
    expect(claimDecisionSchema.safeParse({ decision: "approve" }).success).toBe(true);
    expect(claimDecisionSchema.safeParse({ decision: "approve", reason: "   " }).data).toEqual({
      decision: "approve",
      reason: "",
    });
    const rejected = claimDecisionSchema.safeParse({ decision: "reject", reason: " no " });
    expect(rejected.success).toBe(false);
    expect(rejected.error?.issues).toMatchObject([
      { path: ["reason"], message: "Give the claimant a reason for the rejection (at least 3 characters)." },
    ]);
    expect(claimDecisionSchema.safeParse({ decision: "reject", reason: "No proof." }).success).toBe(true);
  });

  it("approves without a reason, stored as none", async () => {
    const listing = await insertListing(db());
    const id = await claimBy(await insertPerson(db()), listing.placeId);
    expect(await decideClaim(db(), { actor: admin, claimId: id, decision: "approve" })).toEqual({
      status: "approved",
    });
    const [row] = await db().select().from(claims).where(eq(claims.id, id));
    expect(row).toMatchObject({ status: "approved", decisionReason: null });
  });

  it("refuses a rejection without a reason, whoever calls, and leaves the claim pending", async () => {
    const listing = await insertListing(db());
    const id = await claimBy(await insertPerson(db()), listing.placeId);
    for (const reason of [undefined, "", "  ", "no"]) {
      const error = await rejection(decideClaim(db(), { actor: admin, claimId: id, decision: "reject", reason }));
      expect(error).toMatchObject({
        status: 400,
        message: "Give the claimant a reason for the rejection (at least 3 characters).",
      });
    }
    const [row] = await db().select().from(claims).where(eq(claims.id, id));
    expect(row?.status).toBe("pending");
    await decideClaim(db(), { actor: admin, claimId: id, decision: "reject", reason: "  No proof of address. " });
    const [after] = await db().select().from(claims).where(eq(claims.id, id));
    expect(after).toMatchObject({ status: "rejected", decisionReason: "No proof of address." });
  });
});

describe(`leads sent before a listing was claimed (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("move to the claimant on approval and leave the admins' queue; not copied", async () => {
    const listing = await insertListing(db(), { name: "Unclaimed Acres RV Storage" });
    const early = await ask(listing.placeId, "early@example.com");
    expect(await queued(listing.placeId)).toEqual([early]);
    const queueBefore = await unownedLeadCount(db());

    const claimant = await insertPerson(db(), { email: "claimant-leads@example.com" });
    // Rejecting a claim moves nothing.
    const rejected = await claimBy(await insertPerson(db()), listing.placeId);
    await decideClaim(db(), { actor: admin, claimId: rejected, decision: "reject", reason: "No proof." });
    expect(await queued(listing.placeId)).toEqual([early]);

    await decideClaim(db(), { actor: admin, claimId: await claimBy(claimant, listing.placeId), decision: "approve" });
    const [row] = await db().select().from(leads).where(eq(leads.id, early));
    expect(row).toMatchObject({ routedTo: "owner", recipientUserId: claimant.userId });
    expect(await queued(listing.placeId)).toEqual([]);
    expect(await unownedLeadCount(db())).toBe(queueBefore - 1);
    const mine = await leadsOf(db(), { recipientUserId: claimant.userId }, page);
    expect(mine.rows.map((r) => r.id)).toEqual([early]);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "lead.recipient.set"), eq(auditLog.subjectId, early)));
    expect(audit).toMatchObject([{ actorId: admin.userId, after: { recipientUserId: claimant.userId } }]);
    const [approvedMail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, claimant.email), eq(emailOutbox.kind, "claim.approved")));
    expect(approvedMail?.textBody).toContain(
      "1 question from visitors, asked before your claim, is now yours to answer",
    );

    // Across a transfer: the first owner keeps what was theirs; the buyer gets only later questions.
    const later = await ask(listing.placeId, "later@example.com");
    const buyer = await insertPerson(db(), { email: "buyer-leads@example.com" });
    await decideClaim(db(), { actor: admin, claimId: await claimBy(buyer, listing.placeId), decision: "approve" });
    expect((await leadsOf(db(), { recipientUserId: claimant.userId }, page)).rows.map((r) => r.id).sort()).toEqual(
      [early, later].sort(),
    );
    expect((await leadsOf(db(), { recipientUserId: buyer.userId }, page)).total).toBe(0);
    const newest = await ask(listing.placeId, "newest@example.com");
    expect((await leadsOf(db(), { recipientUserId: buyer.userId }, page)).rows.map((r) => r.id)).toEqual([newest]);
    expect(await queued(listing.placeId)).toEqual([]);
  });

  it("move when an admin assigns an owner, and again after the owner was removed", async () => {
    const listing = await insertListing(db());
    const first = await ask(listing.placeId, "one@example.com");
    const owner = await insertPerson(db(), { email: "assigned-leads@example.com" });
    await changeListingOwner(db(), { actor: SYSTEM_ACTOR, locationId: listing.placeId, email: owner.email });
    expect((await leadsOf(db(), { recipientUserId: owner.userId }, page)).rows.map((r) => r.id)).toEqual([first]);
    expect(await queued(listing.placeId)).toEqual([]);

    // Owner removed: a new question waits for the admins, then goes to whoever claims next.
    await changeListingOwner(db(), { actor: SYSTEM_ACTOR, locationId: listing.placeId, email: null });
    const orphan = await ask(listing.placeId, "two@example.com");
    expect(await queued(listing.placeId)).toEqual([orphan]);
    const next = await insertPerson(db());
    await decideClaim(db(), { actor: admin, claimId: await claimBy(next, listing.placeId), decision: "approve" });
    expect((await leadsOf(db(), { recipientUserId: next.userId }, page)).rows.map((r) => r.id)).toEqual([orphan]);
    expect((await leadsOf(db(), { recipientUserId: owner.userId }, page)).rows.map((r) => r.id)).toEqual([first]);
    expect(await queued(listing.placeId)).toEqual([]);
  });
});
