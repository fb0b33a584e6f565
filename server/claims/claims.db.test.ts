import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../tests/setup/rejection";
import { and, eq } from "drizzle-orm";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { auditLog, claimEvidence, claims, emailOutbox, listingOwners, users } from "../db/schema";
import type { AppError } from "../errors";
import { claimForReview, claimsOfUser, listingClaimStates, readEvidence } from "./queries";
import {
  claimBlocker,
  decideClaim,
  fileClaim,
  OTHER_CLAIM_APPROVED,
  unverifiedClaimMessage,
  withdrawClaim,
} from "./service";
import { CLAIM_INPUT, exeBytes, insertListing, insertPerson, memoryStore, PDF_BYTES, pngBytes } from "./test-support";
import { CLAIMS_PER_DAY } from "../../domain/claims";
import { DEFAULT_PREFERENCES, saveNotificationPreferences } from "../account/notifications";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const db = () => handle.db;

const mailTo = (address: string) => db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

describe("filing a claim", () => {
  it("refuses an account whose email is not confirmed, with a way to get the link again", async () => {
    const store = memoryStore();
    const listing = await insertListing(db());
    const person = await insertPerson(db(), { emailVerified: false });
    const blocker = await claimBlocker(db(), person, listing.placeId);
    expect(blocker).toMatchObject({ status: 403, message: unverifiedClaimMessage(person.email) });
    expect(blocker?.message).toContain("Send the link again");
    const error = await rejection(
      fileClaim(db(), store, {
        actor: person,
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
      }),
    );
    expect(error).toMatchObject({ status: 403, message: unverifiedClaimMessage(person.email) });
    expect(await db().select().from(claims).where(eq(claims.userId, person.userId))).toEqual([]);
    expect(store.files.size).toBe(0);
    expect(await mailTo(person.email)).toEqual([]);

    // Once the link is opened the same account may claim.
    await db().update(users).set({ emailVerified: true }).where(eq(users.id, person.userId));
    expect(await claimBlocker(db(), person, listing.placeId)).toBeNull();
  });

  it("stores the claim, its evidence privately, an audit row and the emails in one go", async () => {
    const store = memoryStore();
    const admin = await insertPerson(db(), { role: "admin" });
    const listing = await insertListing(db());
    const person = await insertPerson(db());
    const result = await fileClaim(db(), store, {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [
        { name: "licence.pdf", bytes: PDF_BYTES },
        { name: "C:\\photos\\gate.png", bytes: await pngBytes() },
      ],
      requestId: "req-1",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [claim] = await db().select().from(claims).where(eq(claims.id, result.claimId));
    expect(claim).toMatchObject({ status: "pending", userId: person.userId, isTransfer: false });
    const evidence = await db().select().from(claimEvidence).where(eq(claimEvidence.claimId, result.claimId));
    expect(evidence.map((e) => [e.fileName, e.contentType]).sort()).toEqual([
      ["gate.png", "image/png"],
      ["licence.pdf", "application/pdf"],
    ]);
    expect(store.files.size).toBe(2);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.subjectId, result.claimId));
    expect(audit).toMatchObject({ action: "claim.file", actorId: person.userId, requestId: "req-1" });
    expect((await mailTo(person.email)).map((m) => m.kind)).toEqual(["claim.received"]);
    expect((await mailTo(admin.email)).map((m) => m.kind)).toContain("claim.filed");

    const states = await listingClaimStates(db(), person.userId, [listing.placeId, "nope"]);
    expect(states.get(listing.placeId)).toBe("pending");
    expect(states.get("nope")).toBe("free");
  });

  it("refuses a second open claim, a renamed executable, an oversized file and an unknown listing, writing nothing", async () => {
    const store = memoryStore();
    const listing = await insertListing(db());
    const person = await insertPerson(db());
    const before = (await db().select().from(claims)).length;

    const exe = await fileClaim(db(), store, {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [{ name: "proof.pdf", bytes: exeBytes() }],
    });
    expect(exe).toEqual({ ok: false, fileErrors: ["'proof.pdf' is a Windows program, not a PDF, JPEG or PNG file."] });

    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PDF_BYTES);
    const oversized = await fileClaim(db(), store, {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [{ name: "scan.pdf", bytes: big }],
    });
    expect(oversized.ok).toBe(false);
    if (!oversized.ok) expect(oversized.fileErrors[0]).toMatch(/'scan.pdf' is 10.0 MB; each file may be at most 10 MB/);

    const four = await fileClaim(db(), store, {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: Array.from({ length: 4 }, (_, i) => ({ name: `${i}.pdf`, bytes: PDF_BYTES })),
    });
    expect(four).toEqual({ ok: false, fileErrors: ["Attach at most 3 files (you attached 4)."] });

    const unknown = await rejection(
      fileClaim(db(), store, { actor: person, locationId: "no_such_place", input: CLAIM_INPUT, files: [] }),
    );
    expect(unknown).toMatchObject({ status: 404, message: "This listing does not exist or was removed." });
    expect((await db().select().from(claims)).length).toBe(before);
    expect(store.files.size).toBe(0);

    await fileClaim(db(), store, { actor: person, locationId: listing.placeId, input: CLAIM_INPUT, files: [] });
    const second = await rejection(
      fileClaim(db(), store, {
        actor: person,
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [{ name: "a.pdf", bytes: PDF_BYTES }],
      }),
    );
    expect(second.status).toBe(409);
    expect(second.message).toMatch(/already have a pending claim for Lakeside RV Storage/);
    expect(store.files.size).toBe(0);
    expect((await db().select().from(claims)).length).toBe(before + 1);
  });

  it("removes the stored evidence when the transaction fails, so a failed claim leaves no file behind", async () => {
    const store = memoryStore();
    const listing = await insertListing(db());
    const person = await insertPerson(db());
    // An admin whose address the outbox refuses: queuing their notice fails inside the transaction.
    const broken = await insertPerson(db(), { role: "admin", email: "not an address" });
    const before = (await db().select().from(claims)).length;
    await expect(
      fileClaim(db(), store, {
        actor: person,
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(store.files.size).toBe(0);
    expect((await db().select().from(claims)).length).toBe(before);
    expect(await mailTo(person.email)).toEqual([]);
    await db().delete(users).where(eq(users.id, broken.userId));
  });

  it(`allows ${CLAIMS_PER_DAY} claims per account per day`, async () => {
    const person = await insertPerson(db());
    for (let i = 0; i < CLAIMS_PER_DAY; i++) {
      const listing = await insertListing(db());
      await fileClaim(db(), memoryStore(), {
        actor: person,
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [],
      });
    }
    const listing = await insertListing(db());
    const limited = await rejection(
      fileClaim(db(), memoryStore(), { actor: person, locationId: listing.placeId, input: CLAIM_INPUT, files: [] }),
    );
    expect(limited.status).toBe(429);
  });
});

describe("deciding a claim", () => {
  it("sends no decision email to a claimant who switched claim results off; the receipt still goes", async () => {
    const admin = await insertPerson(db(), { role: "admin" });
    const quiet = await insertPerson(db());
    await saveNotificationPreferences(db(), quiet.userId, { ...DEFAULT_PREFERENCES, "claim-results": false });
    const first = await insertListing(db());
    const second = await insertListing(db());
    const a = await fileClaim(db(), memoryStore(), {
      actor: quiet,
      locationId: first.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    const b = await fileClaim(db(), memoryStore(), {
      actor: quiet,
      locationId: second.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!a.ok || !b.ok) throw new Error("claims refused");
    await decideClaim(db(), { actor: admin, claimId: a.claimId, decision: "approve", reason: "ok" });
    await decideClaim(db(), { actor: admin, claimId: b.claimId, decision: "reject", reason: "No proof." });
    const kinds = (await mailTo(quiet.email)).map((m) => m.kind).sort();
    expect(kinds).toEqual(["claim.received", "claim.received"]);
  });

  it("approves in one transaction: owner set, role raised, other pending claims rejected, audit and emails", async () => {
    const store = memoryStore();
    const admin = await insertPerson(db(), { role: "admin" });
    const listing = await insertListing(db());
    const winner = await insertPerson(db());
    const other = await insertPerson(db());
    const filed = await fileClaim(db(), store, {
      actor: winner,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    const lost = await fileClaim(db(), store, {
      actor: other,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!filed.ok || !lost.ok) throw new Error("claims not filed");

    const owners = await insertPerson(db()); // someone not involved: not allowed
    const notAdmin = await rejection(
      decideClaim(db(), { actor: owners, claimId: filed.claimId, decision: "approve", reason: "ok" }),
    );
    expect(notAdmin.status).toBe(403);

    await decideClaim(db(), {
      actor: admin,
      claimId: filed.claimId,
      decision: "approve",
      reason: "Domain and phone match.",
      requestId: "req-approve",
    });
    const [owner] = await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId));
    expect(owner?.userId).toBe(winner.userId);
    const [winnerRow] = await db().select().from(users).where(eq(users.id, winner.userId));
    expect(winnerRow?.role).toBe("business_owner");
    const [lostRow] = await db().select().from(claims).where(eq(claims.id, lost.claimId));
    expect(lostRow).toMatchObject({ status: "rejected", decisionReason: OTHER_CLAIM_APPROVED });
    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.requestId, "req-approve"));
    expect(actions.map((a) => a.action).sort()).toEqual([
      "claim.approve",
      "claim.reject",
      "listing.owner.set",
      "user.role",
    ]);
    expect((await mailTo(winner.email)).map((m) => m.kind)).toContain("claim.approved");
    expect((await mailTo(other.email)).map((m) => m.kind)).toContain("claim.rejected");

    const again = await rejection(
      decideClaim(db(), { actor: admin, claimId: filed.claimId, decision: "reject", reason: "changed my mind" }),
    );
    expect(again.status).toBe(409);

    const mine = await claimsOfUser(db(), winner.userId);
    expect(mine[0]).toMatchObject({ status: "approved", listingName: "Lakeside RV Storage" });
    expect((await listingClaimStates(db(), winner.userId, [listing.placeId])).get(listing.placeId)).toBe("yours");
    expect((await listingClaimStates(db(), other.userId, [listing.placeId])).get(listing.placeId)).toBe("managed");
  });

  it("rejects with the reason, keeps an admin claimant an admin, and grants a transfer", async () => {
    const admin = await insertPerson(db(), { role: "admin" });
    const listing = await insertListing(db());
    const first = await insertPerson(db());
    const a = await fileClaim(db(), memoryStore(), {
      actor: first,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!a.ok) throw new Error("not filed");
    await decideClaim(db(), { actor: admin, claimId: a.claimId, decision: "reject", reason: "No proof of address." });
    const [mail] = await mailTo(first.email).then((rows) => rows.filter((r) => r.kind === "claim.rejected"));
    expect(mail?.textBody).toContain("Reason: No proof of address.");
    expect((await db().select().from(users).where(eq(users.id, first.userId)))[0]?.role).toBe("user");

    // An admin can claim too and stays admin; a later claim by someone else is a transfer.
    const otherAdmin = await insertPerson(db(), { role: "admin" });
    const b = await fileClaim(db(), memoryStore(), {
      actor: otherAdmin,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!b.ok) throw new Error("not filed");
    await decideClaim(db(), { actor: admin, claimId: b.claimId, decision: "approve", reason: "Known to us." });
    expect((await db().select().from(users).where(eq(users.id, otherAdmin.userId)))[0]?.role).toBe("admin");

    const buyer = await insertPerson(db());
    const c = await fileClaim(db(), memoryStore(), {
      actor: buyer,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!c.ok) throw new Error("not filed");
    expect((await db().select().from(claims).where(eq(claims.id, c.claimId)))[0]?.isTransfer).toBe(true);
    await decideClaim(db(), { actor: admin, claimId: c.claimId, decision: "approve", reason: "Bill of sale." });
    const [owner] = await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId));
    expect(owner?.userId).toBe(buyer.userId);
    expect((await mailTo(otherAdmin.email)).map((m) => m.kind)).toContain("claim.transferred");
  });

  it("lets only the claimant withdraw, and only while pending", async () => {
    const listing = await insertListing(db());
    const person = await insertPerson(db());
    const stranger = await insertPerson(db());
    const filed = await fileClaim(db(), memoryStore(), {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    if (!filed.ok) throw new Error("not filed");
    expect((await rejection(withdrawClaim(db(), { actor: stranger, claimId: filed.claimId }))).status).toBe(404);
    await withdrawClaim(db(), { actor: person, claimId: filed.claimId });
    expect((await rejection(withdrawClaim(db(), { actor: person, claimId: filed.claimId }))).status).toBe(409);
    // Withdrawn, the person may file again.
    const again = await fileClaim(db(), memoryStore(), {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [],
    });
    expect(again.ok).toBe(true);
  });

  it("computes the reviewer's signals and serves evidence to the claimant and admins only", async () => {
    const store = memoryStore();
    const admin = await insertPerson(db(), { role: "admin" });
    const listing = await insertListing(db());
    const person = await insertPerson(db(), { createdAt: new Date(Date.now() - 40 * 86_400_000) });
    const stranger = await insertPerson(db());
    const filed = await fileClaim(db(), store, {
      actor: person,
      locationId: listing.placeId,
      input: CLAIM_INPUT,
      files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
    });
    if (!filed.ok) throw new Error("not filed");
    const review = await claimForReview(db(), filed.claimId);
    expect(review.signals).toMatchObject({
      emailDomain: "lakesiderv.example",
      websiteHost: "lakesiderv.example",
      emailMatchesWebsite: true,
      freeMailProvider: false,
      phoneMatchesListing: true,
      accountAgeDays: 40,
    });
    const evidenceId = review.evidence[0]!.id;
    const forAdmin = await readEvidence(db(), store, admin, filed.claimId, evidenceId);
    expect(forAdmin.contentType).toBe("application/pdf");
    expect(Buffer.from(forAdmin.bytes).equals(Buffer.from(PDF_BYTES))).toBe(true);
    await expect(readEvidence(db(), store, person, filed.claimId, evidenceId)).resolves.toBeTruthy();
    expect((await rejection(readEvidence(db(), store, stranger, filed.claimId, evidenceId))).status).toBe(403);
    expect((await rejection(readEvidence(db(), store, admin, "other-claim", evidenceId))).status).toBe(404);
  });
});

describe("two admins approving two claims for one listing at once", () => {
  it("leaves exactly one owner; the slower decision is told the claim was already decided", async () => {
    for (let round = 0; round < 5; round++) {
      const listing = await insertListing(db());
      const adminA = await insertPerson(db(), { role: "admin" });
      const adminB = await insertPerson(db(), { role: "admin" });
      const claimants = [await insertPerson(db()), await insertPerson(db())];
      const filed = await Promise.all(
        claimants.map((actor) =>
          fileClaim(db(), memoryStore(), { actor, locationId: listing.placeId, input: CLAIM_INPUT, files: [] }),
        ),
      );
      const ids = filed.map((f) => (f.ok ? f.claimId : ""));
      const results = await Promise.allSettled([
        decideClaim(db(), { actor: adminA, claimId: ids[0]!, decision: "approve", reason: "A" }),
        decideClaim(db(), { actor: adminB, claimId: ids[1]!, decision: "approve", reason: "B" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect((failed.reason as AppError).status).toBe(409);
      const owners = await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId));
      expect(owners).toHaveLength(1);
      const approved = await db()
        .select()
        .from(claims)
        .where(and(eq(claims.locationId, listing.placeId), eq(claims.status, "approved")));
      expect(approved).toHaveLength(1);
      expect(owners[0]?.userId).toBe(approved[0]?.userId);
    }
  });
});
