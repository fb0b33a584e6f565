import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import type { SignedInViewer } from "../auth/viewer";
import { connectDatabase, disconnectDatabase, getDatabase } from "../db";
import { claims, listingOwners, locations } from "../db/schema";
import { claimFormPage, fileClaimAction } from "./pages";
import {
  approvalBlockedMessage,
  decideClaim,
  DELETED_LISTING_CLAIM,
  fileClaim,
  HIDDEN_LISTING_CLAIM,
  unverifiedClaimMessage,
} from "./service";
import { CLAIM_INPUT, insertListing, insertPerson, memoryStore, PDF_BYTES } from "./test-support";
import type { Actor } from "../auth/actor";

/**
 * The claim screens' bodies on a real database (the process-wide one, as the routes use it):
 * hidden and deleted listings (issue 30, item 6) and an upload refused before its body is read.
 */
beforeAll(async () => {
  await connectDatabase(await createTestDatabase());
});
afterAll(async () => {
  await disconnectDatabase();
});

const db = () => getDatabase();

const viewerOf = (actor: Actor): SignedInViewer => ({
  sessionId: "test-session",
  userId: actor.userId,
  isAnonymous: false,
  role: actor.isAdmin ? "admin" : "user",
  isAdmin: actor.isAdmin,
  isOwner: actor.isAdmin,
  email: actor.email,
  name: actor.name ?? null,
});

/** A multipart claim form whose body records whether anyone started reading it. */
function claimPost(locationId: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(CLAIM_INPUT)) form.set(name, value);
  form.append("evidence", new File([PDF_BYTES], "licence.pdf", { type: "application/pdf" }));
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  const source = encoded.body!.getReader();
  const read = { started: false };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        read.started = true;
        const { done, value } = await source.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    },
    { highWaterMark: 0 },
  ); // pulled only when someone reads
  const request = new Request(`http://localhost/owner/claim/${encodeURIComponent(locationId)}`, {
    method: "POST",
    headers: { "Content-Type": encoded.headers.get("Content-Type")! },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, read };
}

const claimsOn = (locationId: string) => db().select().from(claims).where(eq(claims.locationId, locationId));

describe("claims on hidden and deleted listings", () => {
  it("answers a deleted listing's claim form and post 410, a hidden one's 404, with the reason", async () => {
    const person = await insertPerson(db());
    const deleted = await insertListing(db(), { deletedAt: new Date() });
    const hidden = await insertListing(db(), { hiddenAt: new Date() });

    expect(await rejection(claimFormPage(viewerOf(person), deleted.placeId))).toMatchObject({
      status: 410,
      message: DELETED_LISTING_CLAIM,
    });
    expect(await rejection(claimFormPage(viewerOf(person), hidden.placeId))).toMatchObject({
      status: 404,
      message: HIDDEN_LISTING_CLAIM,
    });
    for (const [listing, status] of [
      [deleted, 410],
      [hidden, 404],
    ] as const) {
      const { request } = claimPost(listing.placeId);
      expect(await rejection(fileClaimAction(request, viewerOf(person), listing.placeId, "req"))).toMatchObject({
        status,
      });
      expect(await claimsOn(listing.placeId)).toEqual([]);
    }

    // The service refuses too, whoever calls it.
    expect(
      await rejection(
        fileClaim(db(), memoryStore(), {
          actor: person,
          locationId: deleted.placeId,
          input: CLAIM_INPUT,
          files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
        }),
      ),
    ).toMatchObject({ status: 410, message: DELETED_LISTING_CLAIM });
  });

  it("refuses to approve a claim once its listing is hidden or deleted; rejecting it still works", async () => {
    const admin = await insertPerson(db(), { role: "admin" });
    for (const change of [{ deletedAt: new Date() }, { hiddenAt: new Date() }]) {
      const listing = await insertListing(db());
      const person = await insertPerson(db());
      const filed = await fileClaim(db(), memoryStore(), {
        actor: person,
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
      });
      if (!filed.ok) throw new Error("the claim should have been filed");
      await db().update(locations).set(change).where(eq(locations.placeId, listing.placeId));

      const error = await rejection(
        decideClaim(db(), { actor: admin, claimId: filed.claimId, decision: "approve", reason: "ok" }),
      );
      expect(error).toMatchObject({
        status: 409,
        message: approvalBlockedMessage({ name: listing.name, deletedAt: change.deletedAt ?? null }),
      });
      expect(error.message).toMatch(change.deletedAt ? /was deleted: restore it/ : /is hidden from visitors/);
      expect(await claimsOn(listing.placeId)).toMatchObject([{ status: "pending" }]);
      expect(await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId))).toEqual([]);

      await decideClaim(db(), { actor: admin, claimId: filed.claimId, decision: "reject", reason: "Listing removed." });
      expect(await claimsOn(listing.placeId)).toMatchObject([{ status: "rejected" }]);
    }
  });
});

describe("a claim from an account that may not claim", () => {
  it("is refused before its upload is read", async () => {
    const person = await insertPerson(db(), { emailVerified: false });
    const listing = await insertListing(db());
    const { request, read } = claimPost(listing.placeId);
    const response = await fileClaimAction(request, viewerOf(person), listing.placeId, "req");
    expect(response).toMatchObject({ init: { status: 403 } });
    expect((response as { data: { formError?: string } }).data.formError).toBe(unverifiedClaimMessage(person.email));
    expect(read.started).toBe(false);
    expect(await claimsOn(listing.placeId)).toEqual([]);
  });
});
