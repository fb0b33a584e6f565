/**
 * The admin catalogue (docs/product.md section 12): filters, bulk actions and imports from the
 * browser, against the database. DATA_DIR is a temporary folder set before the configuration is read.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { insertListing as insertSample, insertPerson } from "../claims/test-support";
import type { Database, DatabaseHandle } from "../db/client";
import { auditLog, catalogueImports, listingOwners, locations, users } from "../db/schema";
import { buildSearchIndex } from "../search/load";
import { facilityUrls } from "../seo/sitemap";
import { parseCatalogueFilters } from "./filters";
import { applyImport, getImport, purgeStaleImportFiles, settleImports, startImport } from "./imports";
import { applyBulkAction, cataloguePage, changeListingOwner, countCatalogue } from "./service";

let handle: DatabaseHandle;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalogue-"));
  process.env.DATA_DIR = dataDir;
  handle = await createTestDatabase();
});
afterAll(async () => {
  await settleImports();
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const db = (): Database => handle.db;
const filters = (query: string) => parseCatalogueFilters(new URLSearchParams(query));
const ids = async (query: string) =>
  (await cataloguePage(db(), { filters: filters(query), sort: "name", dir: "asc", page: 1 })).map((r) => r.name);

/** The sample listing made plain: real, Free, no photos, nowhere in particular. */
const insertListing = (d: Database, overrides: Parameters<typeof insertSample>[1] = {}) =>
  insertSample(d, {
    isDemo: false,
    tier: "Free",
    imageCount: 0,
    imageUrls: [],
    city: null,
    address: null,
    ...overrides,
  });

let actor: { userId: string; email: string };
beforeEach(async () => {
  await db().delete(catalogueImports);
  await db().delete(listingOwners);
  await db().delete(locations);
  const person = await insertPerson(db(), { role: "admin" });
  actor = { userId: person.userId, email: person.email };
});

describe("filters", () => {
  it("search name, address, city and id; filter state, tier, owner, demo, photos and visibility", async () => {
    const a = await insertListing(db(), {
      name: "Alpha RV 100%",
      city: "Austin",
      state: "TX",
      tier: "Pro",
      imageCount: 2,
    });
    await insertListing(db(), { name: "Bravo Storage", city: "Boise", state: "ID", isDemo: true });
    const c = await insertListing(db(), { name: "Charlie Lot", address: "9 Lake Rd", city: "Austin", state: "TX" });
    const owner = await insertPerson(db(), { role: "business_owner" });
    await db().insert(listingOwners).values({ locationId: c.placeId, userId: owner.userId });

    expect(await ids("q=austin")).toEqual(["Alpha RV 100%", "Charlie Lot"]);
    expect(await ids("q=lake rd")).toEqual(["Charlie Lot"]);
    expect(await ids(`q=${a.placeId}`)).toEqual(["Alpha RV 100%"]);
    // % and _ are literal, not wildcards.
    expect(await ids("q=100%")).toEqual(["Alpha RV 100%"]);
    expect(await ids("q=RV_")).toEqual([]);
    expect(await ids("state=tx&tier=Pro")).toEqual(["Alpha RV 100%"]);
    expect(await ids("owned=yes")).toEqual(["Charlie Lot"]);
    expect(await ids("owned=no&demo=no")).toEqual(["Alpha RV 100%"]);
    expect(await ids("photos=yes")).toEqual(["Alpha RV 100%"]);
    // Unknown values are no filter, as a hand-edited URL should be.
    expect(await ids("state=ZZ&tier=Gold&owned=maybe&visibility=odd")).toHaveLength(3);
    expect(await countCatalogue(db(), filters("state=TX"))).toBe(2);
  });

  it("sorts by tier best first and by place", async () => {
    await insertListing(db(), { name: "Free one", tier: "Free", state: "AL", city: "Mobile" });
    await insertListing(db(), { name: "Pro one", tier: "Pro", state: "WY", city: "Cody" });
    const page = (sort: "tier" | "place") =>
      cataloguePage(db(), { filters: filters(""), sort, dir: "asc", page: 1 }).then((r) => r.map((x) => x.name));
    expect(await page("tier")).toEqual(["Pro one", "Free one"]);
    expect(await page("place")).toEqual(["Free one", "Pro one"]);
  });
});

describe("bulk actions", () => {
  it("hide leaves the listing out of search and the sitemap, show brings it back, each with an audit row", async () => {
    const a = await insertListing(db(), { name: "Hidden Hollow", latitude: 30.1, longitude: -97.7 });
    const b = await insertListing(db(), { name: "Seen Storage", latitude: 30.2, longitude: -97.7 });
    const result = await applyBulkAction(db(), { actor, action: "hide", ids: [a.placeId] });
    expect(result).toEqual({ changed: 1, selected: 1 });
    const index = await buildSearchIndex(db());
    expect(index.size).toBe(1);
    expect((await facilityUrls(db(), 1)).map((u) => u.path)).toEqual([`/location/${b.slug}`]);
    expect(await ids("visibility=hidden")).toEqual(["Hidden Hollow"]);
    const audit = await db().select().from(auditLog).where(eq(auditLog.subjectId, a.placeId));
    expect(audit.map((r) => r.action)).toEqual(["listing.hide"]);
    expect(audit[0]!.after).toMatchObject({ hidden: true, deleted: false });

    // Hiding again changes nothing and says so.
    expect(await applyBulkAction(db(), { actor, action: "hide", ids: [a.placeId, b.placeId] })).toEqual({
      changed: 1,
      selected: 2,
    });
    await applyBulkAction(db(), { actor, action: "show", ids: [a.placeId, b.placeId] });
    expect((await buildSearchIndex(db())).size).toBe(2);
  });

  it("delete is soft and restorable; an import does not bring a deleted listing back", async () => {
    const a = await insertListing(db(), { name: "Gone Soon" });
    await applyBulkAction(db(), { actor, action: "delete", ids: [a.placeId] });
    expect(await ids("")).toEqual([]);
    expect(await ids("visibility=deleted")).toEqual(["Gone Soon"]);
    const [row] = await db().select().from(locations).where(eq(locations.placeId, a.placeId));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row!.version).toBe(2);
    await applyBulkAction(db(), { actor, action: "restore", ids: [a.placeId] });
    expect(await ids("")).toEqual(["Gone Soon"]);
  });

  it("sets a tier on every selected listing", async () => {
    const a = await insertListing(db(), { name: "One" });
    const b = await insertListing(db(), { name: "Two" });
    await applyBulkAction(db(), { actor, action: "tier", tier: "Preferred", ids: [a.placeId, b.placeId] });
    const rows = await db()
      .select()
      .from(locations)
      .where(inArray(locations.placeId, [a.placeId, b.placeId]));
    expect(rows.map((r) => r.tier)).toEqual(["Preferred", "Preferred"]);
  });

  it("refuses no selection, a missing listing (changing nothing) and a tier action without a tier", async () => {
    const a = await insertListing(db(), { name: "Kept" });
    expect(await rejection(applyBulkAction(db(), { actor, action: "hide", ids: [] }))).toMatchObject({
      status: 400,
      message: "Select at least one listing first.",
    });
    expect(
      await rejection(applyBulkAction(db(), { actor, action: "hide", ids: [a.placeId, "no-such-place"] })),
    ).toMatchObject({ status: 409, message: expect.stringContaining("1 of the selected listings no longer exists") });
    const [row] = await db().select().from(locations).where(eq(locations.placeId, a.placeId));
    expect(row!.hiddenAt).toBeNull();
    expect(await rejection(applyBulkAction(db(), { actor, action: "tier", ids: [a.placeId] }))).toMatchObject({
      status: 400,
    });
  });
});

const fileOf = (name: string, text: string) => ({ name, stream: new Blob([text]).stream() });
const HEADER = "place_id,name,latitude,longitude,state";

describe("imports from the browser", () => {
  it("checks a file with bad rows without writing, then applies the good rows once", async () => {
    const csv = [
      HEADER,
      "p-good-1,Good One,30.1,-97.7,TX",
      "p-bad,Bad Lat,-95,-97.7,TX",
      "p-good-2,Good Two,30.2,-97.6,TX",
    ].join("\n");
    const started = await startImport(db(), actor, fileOf("mixed.csv", csv));
    expect(started.status).toBe("checking");
    await settleImports();
    const checked = await getImport(db(), started.id);
    expect(checked.status).toBe("checked");
    expect(checked.checkReport).toMatchObject({ read: 3, accepted: 2, inserted: 2, rejectedRows: 1 });
    expect(checked.checkReport!.rejected[0]).toMatchObject({ row: 3, placeId: "p-bad", field: "latitude" });
    expect(await countCatalogue(db(), filters(""))).toBe(0);

    await applyImport(db(), actor, started.id);
    // A second click is refused while, and after, the first applies.
    expect(await rejection(applyImport(db(), actor, started.id))).toMatchObject({ status: 409 });
    await settleImports();
    const applied = await getImport(db(), started.id);
    expect(applied.status).toBe("applied");
    expect(applied.applyReport).toMatchObject({ accepted: 2, inserted: 2 });
    expect(await ids("")).toEqual(["Good One", "Good Two"]);
    expect(fs.existsSync(path.join(dataDir, "imports", `${started.id}.csv`))).toBe(false);
  });

  it("fails a file with a wrong header with a message naming the file, writing nothing", async () => {
    const started = await startImport(db(), actor, fileOf("wrong.csv", "id,title\n1,Nope\n"));
    await settleImports();
    const failed = await getImport(db(), started.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("wrong.csv");
    expect(failed.error).toContain("place_id");
    expect(failed.error).not.toContain(dataDir);
  });

  it("removes the files a crash left: of applied imports, and uploads that never got their row", async () => {
    const folder = path.join(dataDir, "imports");
    const applied = await startImport(db(), actor, fileOf("a.csv", `${HEADER}\np-left-1,Left One,30.1,-97.7,TX\n`));
    await settleImports();
    // The apply committed and the process stopped before removing the file (tests/crash covers the kill).
    await db().update(catalogueImports).set({ status: "applied" }).where(eq(catalogueImports.id, applied.id));
    const orphan = (name: string, ageMs: number) => {
      const file = path.join(folder, name);
      fs.writeFileSync(file, HEADER);
      const at = new Date(Date.now() - ageMs);
      fs.utimesSync(file, at, at);
      return file;
    };
    const stale = orphan("0b5e1d2c-3f4a-4b6c-8d9e-0f1a2b3c4d5e.csv", 2 * 24 * 60 * 60 * 1000);
    const arriving = orphan("1b5e1d2c-3f4a-4b6c-8d9e-0f1a2b3c4d5e.ndjson", 60 * 1000);
    const foreign = orphan("notes.txt", 30 * 24 * 60 * 60 * 1000);

    expect(await purgeStaleImportFiles(db())).toBe(2);
    expect(fs.existsSync(path.join(folder, `${applied.id}.csv`))).toBe(false);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(arriving)).toBe(true);
    expect(fs.existsSync(foreign)).toBe(true);
    fs.rmSync(arriving);
    fs.rmSync(foreign);
  });

  it("refuses another file type and an empty file, keeping nothing", async () => {
    expect(await rejection(startImport(db(), actor, fileOf("photo.png", "x")))).toMatchObject({ status: 400 });
    expect(await rejection(startImport(db(), actor, fileOf("empty.csv", "")))).toMatchObject({
      status: 400,
      message: "empty.csv: the file is empty.",
    });
    expect(await db().select().from(catalogueImports)).toEqual([]);
  });
});

describe("changeListingOwner", () => {
  it("assigns, transfers and removes, promoting a plain account, with audit rows", async () => {
    const listing = await insertListing(db(), { name: "Owned Later" });
    const first = await insertPerson(db(), { role: "user", email: "first@example.com" });
    const second = await insertPerson(db(), { role: "business_owner", email: "second@example.com" });
    const owner = async () =>
      (await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId)))[0]?.userId;

    expect(
      await changeListingOwner(db(), { actor, locationId: listing.placeId, email: " FIRST@example.com " }),
    ).toEqual({
      kind: "assigned",
      email: "first@example.com",
    });
    expect(await owner()).toBe(first.userId);
    const [promoted] = await db().select().from(users).where(eq(users.id, first.userId));
    expect(promoted!.role).toBe("business_owner");

    expect(
      (await changeListingOwner(db(), { actor, locationId: listing.placeId, email: "second@example.com" })).kind,
    ).toBe("transferred");
    expect(await owner()).toBe(second.userId);
    expect((await changeListingOwner(db(), { actor, locationId: listing.placeId, email: null })).kind).toBe("removed");
    expect(await owner()).toBeUndefined();

    const actions = (await db().select().from(auditLog).where(eq(auditLog.subjectId, listing.placeId))).map(
      (r) => r.action,
    );
    expect(actions).toEqual(["listing.owner.assign", "listing.owner.transfer", "listing.owner.remove"]);
  });

  it("refuses an unknown or banned account, changing nothing", async () => {
    const listing = await insertListing(db(), { name: "Nobody's" });
    expect(
      await rejection(changeListingOwner(db(), { actor, locationId: listing.placeId, email: "nobody@example.com" })),
    ).toMatchObject({ status: 400, message: "No account uses nobody@example.com. The owner must sign up first." });
    const banned = await insertPerson(db(), { email: "banned@example.com" });
    await db().update(users).set({ banned: true }).where(eq(users.id, banned.userId));
    expect(
      await rejection(changeListingOwner(db(), { actor, locationId: listing.placeId, email: "banned@example.com" })),
    ).toMatchObject({ status: 400 });
    expect(await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing.placeId))).toEqual([]);
  });
});
