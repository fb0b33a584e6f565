import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PENDING_CHANGE_REPLACED_TEXT, RESTORE_CONFLICT_TEXT } from "../../domain/listings";
import { insertOwnedListing } from "./test-support";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { type insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { listingOwners, listingPendingChanges, listingRevisions, locations } from "../db/schema";
import { updateListing } from "./edit";
import { decidePendingChange, restoreRevision } from "./moderation";
import { listingForModeration, pendingChangeQueue } from "./moderation-queries";
import type { Actor } from "../auth/actor";

/** The reads and guards behind /admin/manage and /admin/manage/{id} (docs/product.md section 10). */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
const db = () => handle.db;

const ownedListing = (overrides: Parameters<typeof insertListing>[1] = {}, ownerName = "Olive Owner") =>
  insertOwnedListing(db(), overrides, ownerName);

async function admin(): Promise<Actor> {
  const person = await insertPerson(db(), { role: "admin", name: "Ada Admin" });
  return { userId: person.userId, email: person.email, isAdmin: true };
}

const submittedAt = async (locationId: string) =>
  (await db().select().from(listingPendingChanges).where(eq(listingPendingChanges.locationId, locationId)))[0]!
    .updatedAt;

describe("pendingChangeQueue", () => {
  beforeEach(async () => {
    await db().delete(listingPendingChanges);
  });

  it("lists waiting changes with their owner and published values, oldest first, paged", async () => {
    const made: string[] = [];
    for (const [i, name] of ["Charlie RV", "Alpha RV", "Bravo RV"].entries()) {
      const { listing, owner } = await ownedListing(
        { name, address: `${i + 1} Lake Rd, Austin, TX`, latitude: 30 + i, longitude: -97 },
        `Owner ${i}`,
      );
      await updateListing(db(), {
        actor: owner,
        locationId: listing.placeId,
        expectedVersion: 1,
        changes: { name: `${name} & Boat`, latitude: 31.25 + i },
        now: new Date(Date.UTC(2026, 0, 1 + i)),
      });
      // The submission time is what the queue sorts by: make it distinct and known.
      await db()
        .update(listingPendingChanges)
        .set({ updatedAt: new Date(Date.UTC(2026, 0, 1 + i)) })
        .where(eq(listingPendingChanges.locationId, listing.placeId));
      made.push(listing.placeId);
    }
    // A listing without an owner (an admin granted it away) still shows, with no owner.
    const orphan = await ownedListing({ name: "Zulu RV" });
    await updateListing(db(), {
      actor: orphan.owner,
      locationId: orphan.listing.placeId,
      expectedVersion: 1,
      changes: { address: "9 New Rd, Austin, TX" },
    });
    await db().delete(listingOwners).where(eq(listingOwners.locationId, orphan.listing.placeId));

    const first = await pendingChangeQueue(db(), { pageSize: 2 });
    expect(first.total).toBe(4);
    expect(first.rows.map((r) => r.locationId)).toEqual(made.slice(0, 2));
    expect(first.rows[0]).toMatchObject({
      name: "Charlie RV",
      ownerName: "Owner 0",
      current: { name: "Charlie RV", address: "1 Lake Rd, Austin, TX", latitude: 30, longitude: -97 },
      changes: { name: "Charlie RV & Boat", latitude: 31.25 },
    });
    expect(first.rows[0]!.ownerEmail).toMatch(/@example\.com$/);
    expect(first.rows[0]!.submittedByEmail).toBe(first.rows[0]!.ownerEmail);
    const second = await pendingChangeQueue(db(), { pageSize: 2, page: 2 });
    expect(second.rows.map((r) => r.locationId)).toEqual([made[2], orphan.listing.placeId]);
    expect(second.rows[1]).toMatchObject({
      ownerEmail: null,
      ownerName: null,
      changes: { address: "9 New Rd, Austin, TX" },
    });

    const byName = await pendingChangeQueue(db(), { sort: "listing", dir: "asc" });
    expect(byName.rows.map((r) => r.name)).toEqual(["Alpha RV", "Bravo RV", "Charlie RV", "Zulu RV"]);
    const newest = await pendingChangeQueue(db(), { sort: "submitted", dir: "desc", pageSize: 1 });
    expect(newest.rows.map((r) => r.locationId)).toEqual([orphan.listing.placeId]);
    expect((await pendingChangeQueue(db(), { page: 9 })).rows).toEqual([]);
  });

  it("is empty when nothing waits", async () => {
    expect(await pendingChangeQueue(db())).toEqual({ rows: [], total: 0 });
  });
});

describe("listingForModeration", () => {
  it("gives the listing, its owner, the waiting change and the history with values", async () => {
    const { listing, owner } = await ownedListing({ description: "Old words." });
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "Renamed RV", description: "New words." },
    });
    const view = await listingForModeration(db(), listing.placeId);
    expect(view).toMatchObject({ placeId: listing.placeId, tier: "Free", version: 2 });
    expect(view.fields.name).toBe("Lakeside RV Storage");
    expect(view.owners).toEqual([{ userId: owner.userId, name: "Olive Owner", email: owner.email }]);
    expect(view.pending).toMatchObject({ changes: { name: "Renamed RV" }, submittedByEmail: owner.email });
    expect(view.revisions.map((r) => [r.kind, r.fields])).toEqual([
      ["pending", ["name"]],
      ["published", ["description"]],
    ]);
    expect(view.revisions[1]).toMatchObject({
      before: { description: "Old words." },
      after: { description: "New words." },
    });
    expect((await rejection(listingForModeration(db(), "no-such-listing"))).status).toBe(404);
  });
});

describe("deciding and restoring what the admin saw", () => {
  it("refuses to decide a change the owner replaced after the page was opened", async () => {
    const { listing, owner } = await ownedListing();
    const actor = await admin();
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "First" },
    });
    const seen = await submittedAt(listing.placeId);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 2,
      changes: { name: "Second" },
    });
    const refused = await rejection(
      decidePendingChange(db(), { actor, locationId: listing.placeId, decision: "approve", expectedSubmittedAt: seen }),
    );
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(PENDING_CHANGE_REPLACED_TEXT);
    const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    expect(row!.name).toBe("Lakeside RV Storage");
    // With the time of the change on screen now, the decision goes through.
    await decidePendingChange(db(), {
      actor,
      locationId: listing.placeId,
      decision: "approve",
      expectedSubmittedAt: await submittedAt(listing.placeId),
    });
    const [after] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    expect(after!.name).toBe("Second");
  });

  it("refuses a restore when the listing was saved after the page was opened", async () => {
    const { listing, owner } = await ownedListing({ description: "Original." });
    const actor = await admin();
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { description: "Vandalised." },
    });
    const [revision] = await db()
      .select()
      .from(listingRevisions)
      .where(eq(listingRevisions.locationId, listing.placeId));
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 2,
      changes: { phone: "(512) 555-0177" },
    });
    const refused = await rejection(restoreRevision(db(), { actor, revisionId: revision!.id, expectedVersion: 2 }));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(RESTORE_CONFLICT_TEXT);
    expect((await listingForModeration(db(), listing.placeId)).fields.description).toBe("Vandalised.");
    await restoreRevision(db(), { actor, revisionId: revision!.id, expectedVersion: 3 });
    expect((await listingForModeration(db(), listing.placeId)).fields.description).toBe("Original.");
    // A revision is restored from its own listing's page only.
    const other = await ownedListing();
    expect(
      (await rejection(restoreRevision(db(), { actor, revisionId: revision!.id, locationId: other.listing.placeId })))
        .status,
    ).toBe(404);
    // Only administrators restore.
    expect((await rejection(restoreRevision(db(), { actor: owner, revisionId: revision!.id }))).status).toBe(403);
  });
});
