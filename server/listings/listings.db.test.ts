import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../tests/setup/rejection";
import { and, eq } from "drizzle-orm";
import { LISTING_CONFLICT_TEXT } from "../../domain/listings";
import type { SearchQuery } from "../../domain/search";
import { insertOwnedListing } from "./test-support";
import { createTestDatabase } from "../../tests/setup/db";
import { DEFAULT_PREFERENCES, saveNotificationPreferences } from "../account/notifications";
import { type insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, listingPendingChanges, listingRevisions, locations } from "../db/schema";
import { parseFormSubmission } from "../http/form-action";
import { getSearchIndex, refreshSearchIndex } from "../search";
import { updateListing } from "./edit";
import { fieldsOf } from "./fields";
import { listingFormSchema } from "./form";
import { decidePendingChange, restoreRevision } from "./moderation";
import { listingForEditing, listingsOf } from "./queries";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
const db = () => handle.db;

const ownedListing = (overrides: Parameters<typeof insertListing>[1] = {}) => insertOwnedListing(db(), overrides);

const row = async (id: string) => (await db().select().from(locations).where(eq(locations.placeId, id)))[0]!;
const revisionsFor = (id: string) =>
  db().select().from(listingRevisions).where(eq(listingRevisions.locationId, id)).orderBy(listingRevisions.id);

describe("updateListing", () => {
  it("publishes ordinary fields at once and keeps the name waiting, with revisions and audit rows", async () => {
    const { listing, owner } = await ownedListing();
    const result = await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: {
        name: "Lakeside RV & Boat Storage",
        description: "Gated.\n\nOpen every day.",
        phone: "+15125550142",
        amenities: ["dump_station", "rv_washbay"],
        sizes: [{ width: 12, length: 40, monthlyPrice: 145, availability: "waitlist" }],
      },
      requestId: "req-edit",
    });
    expect(result).toMatchObject({ version: 2, pending: ["name"] });
    expect(result.published).toEqual(["description", "phone", "amenities", "sizes"]);
    const after = await row(listing.placeId);
    expect(after).toMatchObject({
      name: "Lakeside RV Storage",
      description: "Gated.\n\nOpen every day.",
      phoneNumber: "(512) 555-0142",
      internationalPhoneNumber: "+1 512 555 0142",
      dumpStation: true,
      rvWashbay: true,
      hasPerimeterFencing: false,
      dimensions: [{ width: 12, length: 40 }],
      version: 2,
    });
    expect(after.pricesConfirmedAt).toBeInstanceOf(Date);
    const [pending] = await db()
      .select()
      .from(listingPendingChanges)
      .where(eq(listingPendingChanges.locationId, listing.placeId));
    expect(pending).toMatchObject({
      changes: { name: "Lakeside RV & Boat Storage" },
      before: { name: "Lakeside RV Storage" },
    });
    const revisions = await revisionsFor(listing.placeId);
    expect(revisions.map((r) => [r.kind, r.fields, r.actorEmail])).toEqual([
      ["published", ["description", "phone", "amenities", "sizes"], owner.email],
      ["pending", ["name"], owner.email],
    ]);
    expect(revisions[0]!.before).toMatchObject({ phone: "(512) 555-0100" });
    const audits = await db().select().from(auditLog).where(eq(auditLog.subjectId, listing.placeId));
    expect(audits.map((a) => a.action).sort()).toEqual(["listing.pending.submit", "listing.update"]);
    expect(audits.every((a) => a.requestId === "req-edit")).toBe(true);
  });

  it("refuses a stale form with a 409 and writes nothing", async () => {
    const { listing, owner } = await ownedListing();
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { description: "First tab." },
    });
    const error = await rejection(
      updateListing(db(), {
        actor: owner,
        locationId: listing.placeId,
        expectedVersion: 1,
        changes: { description: "Second tab.", name: "Other name" },
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toBe(LISTING_CONFLICT_TEXT);
    expect(await row(listing.placeId)).toMatchObject({ description: "First tab.", version: 2 });
    expect(await revisionsFor(listing.placeId)).toHaveLength(1);
    expect(
      await db().select().from(listingPendingChanges).where(eq(listingPendingChanges.locationId, listing.placeId)),
    ).toEqual([]);
  });

  it("refuses someone else's listing and changes nothing", async () => {
    const { listing } = await ownedListing();
    const stranger = await insertPerson(db(), { role: "business_owner" });
    const error = await rejection(
      updateListing(db(), {
        actor: { ...stranger, isAdmin: false },
        locationId: listing.placeId,
        expectedVersion: 1,
        changes: { description: "Mine now." },
      }),
    );
    expect(error.status).toBe(403);
    expect(error.message).toBe("You do not manage this listing.");
    expect((await row(listing.placeId)).version).toBe(1);
  });

  it("replaces a waiting change with a new one, and withdraws it when the fields are put back", async () => {
    const { listing, owner } = await ownedListing();
    let r = await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "A" + "b".repeat(3) },
    });
    r = await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: r.version,
      changes: { name: "Second name", address: "1 New Rd, Austin, TX" },
    });
    const pending = await db()
      .select()
      .from(listingPendingChanges)
      .where(eq(listingPendingChanges.locationId, listing.placeId));
    expect(pending).toHaveLength(1);
    expect(pending[0]!.changes).toEqual({ name: "Second name", address: "1 New Rd, Austin, TX" });
    // The same values again (the form shows the waiting ones): nothing new.
    const again = await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: r.version,
      changes: { name: "Second name", address: "1 New Rd, Austin, TX" },
    });
    expect(again.version).toBe(r.version);
    const back = await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: r.version,
      changes: { name: listing.name, address: listing.address },
    });
    expect(back.pendingWithdrawn).toBe(true);
    expect((await revisionsFor(listing.placeId)).map((x) => x.kind)).toEqual(["pending", "pending", "withdrawn"]);
  });

  it("a search finds the change as soon as the call returns", async () => {
    const { listing, owner } = await ownedListing({ latitude: 44.1, longitude: -103.2, rvWashbay: false });
    await refreshSearchIndex(db());
    const query: SearchQuery = {
      lat: 44.1,
      lng: -103.2,
      radius: 5,
      sizes: [],
      amenities: ["rv_washbay"],
      sort: "distance",
      page: 1,
      pageSize: 50,
    };
    const ids = () =>
      getSearchIndex()
        .query(query)
        .items.map((i) => i.id);
    expect(ids()).not.toContain(listing.placeId);
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { amenities: ["rv_washbay"] },
    });
    expect(ids()).toContain(listing.placeId);
  });
});

describe("the edit form", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    data.set("version", "1");
    data.set("name", "Lakeside RV Storage");
    for (let i = 0; i < 7; i++) data.set(`hours[${i}].mode`, "closed");
    for (const [k, v] of Object.entries(entries)) data.set(k, v);
    return parseFormSubmission(listingFormSchema, data);
  };
  const errors = (entries: Record<string, string>) => {
    const result = form(entries);
    return result.ok ? {} : result.fieldErrors;
  };

  it("refuses a non-US phone, a javascript: website and overlapping hours, naming the field", () => {
    expect(errors({ phone: "+44 20 7946 0958" }).phone).toEqual([
      "Phone: enter a US phone number with area code, e.g. (512) 555-0142.",
    ]);
    expect(errors({ website: "javascript:alert(1)" }).website?.[0]).toMatch(/^Website: .*https:\/\//);
    expect(
      errors({
        "hours[0].mode": "hours",
        "hours[0].open1": "08:00",
        "hours[0].close1": "12:30",
        "hours[0].open2": "12:00",
        "hours[0].close2": "17:00",
      })["hours[0].open2"],
    ).toEqual(["Monday: the two ranges overlap (8:00 AM – 12:30 PM and 12:00 PM – 5:00 PM)."]);
    expect(errors({ description: "x".repeat(5001) }).description).toEqual([
      "The description must be at most 5,000 characters.",
    ]);
  });

  it("checks gate access hours apart from the office's, naming them, and only when they are their own", () => {
    const gate = (entries: Record<string, string>) => {
      const days: Record<string, string> = {};
      for (let i = 0; i < 7; i++) days[`gateHours[${i}].mode`] = "closed";
      return { ...days, ...entries };
    };
    const backwards = { "gateHours[0].mode": "hours", "gateHours[0].open1": "05:00", "gateHours[0].close1": "04:00" };
    expect(errors(gate({ gateMode: "own", ...backwards }))["gateHours[0].open1"]).toEqual([
      "Gate access on Monday: the closing time must be after the opening time.",
    ]);
    // The office keeps its own messages; a gate on the office hours is not checked.
    expect(form(gate({ gateMode: "same", ...backwards })).ok).toBe(true);
    expect(errors({ gateMode: "own" }).gateMode).toEqual(["Reload the page: the gate access hours are incomplete."]);
    expect(errors({ gateMode: "sometimes" }).gateMode?.[0]).toMatch(/^Gate access hours: /);
    const result = form(
      gate({
        gateMode: "own",
        "gateHours[0].mode": "hours",
        "gateHours[0].open1": "05:00",
        "gateHours[0].close1": "22:00",
      }),
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data.gateHours?.[0]).toMatchObject({ mode: "hours", open1: "05:00", close1: "22:00" });
  });

  it("accepts split hours, a bare domain and a US phone", () => {
    const result = form({
      phone: "512 555 0142",
      website: "lakeside.example",
      "hours[1].mode": "hours",
      "hours[1].open1": "13:00",
      "hours[1].close1": "17:00",
      "hours[1].open2": "08:00",
      "hours[1].close2": "12:00",
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data).toMatchObject({ phone: "+15125550142", website: "https://lakeside.example/" });
  });
});

describe("decidePendingChange and restoreRevision", () => {
  it("sends no moderation email to an owner who switched moderation results off", async () => {
    const { listing, owner } = await ownedListing();
    const admin = { ...(await insertPerson(db(), { role: "admin" })), isAdmin: true };
    await saveNotificationPreferences(db(), owner.userId, { ...DEFAULT_PREFERENCES, "moderation-results": false });
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "Quiet RV Park" },
    });
    await decidePendingChange(db(), { actor: admin, locationId: listing.placeId, decision: "approve" });
    expect((await row(listing.placeId)).name).toBe("Quiet RV Park");
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, owner.email))).toEqual([]);
  });

  it("an approval publishes the waiting fields and emails the owner; a rejection keeps them and says why", async () => {
    const { listing, owner } = await ownedListing();
    const admin = { ...(await insertPerson(db(), { role: "admin" })), isAdmin: true };
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "Lakeside RV Park", latitude: 30.5, longitude: -97.5 },
    });
    expect(
      (
        await rejection(
          decidePendingChange(db(), { actor: { ...owner }, locationId: listing.placeId, decision: "approve" }),
        )
      ).status,
    ).toBe(403);
    const approved = await decidePendingChange(db(), {
      actor: admin,
      locationId: listing.placeId,
      decision: "approve",
      reason: "Checked",
    });
    expect(approved).toEqual({ status: "approved", version: 3 });
    const published = await row(listing.placeId);
    expect(published).toMatchObject({ name: "Lakeside RV Park", latitude: 30.5, longitude: -97.5 });
    expect(published.geohash).toMatch(/^9v/);
    expect(
      await db().select().from(listingPendingChanges).where(eq(listingPendingChanges.locationId, listing.placeId)),
    ).toEqual([]);
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, owner.email));
    expect(mail?.subject).toBe("Your change to Lakeside RV Storage was approved");
    expect(
      (await rejection(decidePendingChange(db(), { actor: admin, locationId: listing.placeId, decision: "approve" })))
        .status,
    ).toBe(409);

    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 3,
      changes: { name: "Cheap Storage!!!" },
    });
    await decidePendingChange(db(), {
      actor: admin,
      locationId: listing.placeId,
      decision: "reject",
      reason: "Not the business name.",
    });
    expect((await row(listing.placeId)).name).toBe("Lakeside RV Park");
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, owner.email), eq(emailOutbox.kind, "listing.change.rejected")));
    expect(mails[0]?.textBody).toContain("Reason: Not the business name.");
    const kinds = (await revisionsFor(listing.placeId)).map((r) => r.kind);
    expect(kinds).toEqual(["pending", "approved", "pending", "rejected"]);
  });

  it("restores the values a revision replaced, as a new revision", async () => {
    const { listing, owner } = await ownedListing({ description: "Original words." });
    const admin = { ...(await insertPerson(db(), { role: "admin" })), isAdmin: true };
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { description: "Vandalised." },
    });
    const [revision] = await revisionsFor(listing.placeId);
    await restoreRevision(db(), { actor: admin, revisionId: revision!.id });
    expect(fieldsOf(await row(listing.placeId)).description).toBe("Original words.");
    const editing = await listingForEditing(db(), listing.placeId);
    expect(editing.revisions.map((r) => r.kind)).toEqual(["restored", "published"]);
    expect(editing.version).toBe(3);
  });
});

describe("listingsOf", () => {
  it("lists my listings with their pending state and 30 days of views", async () => {
    const { listing, owner } = await ownedListing();
    await updateListing(db(), {
      actor: owner,
      locationId: listing.placeId,
      expectedVersion: 1,
      changes: { name: "New name" },
    });
    const mine = await listingsOf(db(), owner.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ placeId: listing.placeId, hasPendingChange: true, tier: "Free" });
    expect(mine[0]!.views).toHaveLength(30);
  });
});
