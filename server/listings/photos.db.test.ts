import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { placeImageUrl } from "../../domain/images";
import { PHOTO_MAX_BYTES, PHOTO_RESTORE_DAYS, PHOTO_TEXT } from "../../domain/listing-photos";
import { insertOwnedListing } from "./test-support";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import { exeBytes, type insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { auditLog, listingRevisions, locations } from "../db/schema";
import { demoPhotoIsListed } from "../images/demo-photos";
import { processImage } from "../images/pipeline";
import { photoKeys, storePhoto } from "../images/place-photos";
import { createLocalStorage } from "../images/local-storage";
import type { ImageStorage } from "../images/storage";
import { restoreRevision } from "./moderation";
import { getSearchIndex, refreshSearchIndex } from "../search";
import {
  addListingPhotos,
  deleteListingPhoto,
  ORPHAN_PHOTO_MIN_AGE_MS,
  purgeDeletedPhotos,
  recentlyDeletedPhotos,
  reorderListingPhotos,
  restoreListingPhoto,
} from "./photos";

let handle: DatabaseHandle;
let storage: ImageStorage;
let root: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  root = await mkdtemp(path.join(os.tmpdir(), "listing-photos-"));
  storage = createLocalStorage(root);
});
afterAll(async () => {
  await handle?.close();
  await rm(root, { recursive: true, force: true });
});
const db = () => handle.db;

const ownedListing = (overrides: Parameters<typeof insertListing>[1] = {}) =>
  insertOwnedListing(db(), { imageUrls: [], imageCount: 0, ...overrides });
const row = async (id: string) => (await db().select().from(locations).where(eq(locations.placeId, id)))[0]!;

const photo = (name: string, r: number, format: "jpeg" | "png" | "webp" = "jpeg") =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 90, b: 40 } } })
    .toFormat(format)
    .toBuffer()
    .then((bytes) => ({ name, bytes: new Uint8Array(bytes) }));

const gif = async () => ({
  name: "anim.gif",
  bytes: new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123" } })
      .gif()
      .toBuffer(),
  ),
});

describe("addListingPhotos", () => {
  it("adds photos in the order sent, writes every file, a revision and an audit row", async () => {
    const { listing, owner } = await ownedListing();
    const id = listing.placeId;
    const result = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: id,
      files: [await photo("a.jpg", 10), await photo("b.png", 200, "png"), await photo("c.webp", 120, "webp")],
      requestId: "req-photos",
    });
    const urls = [1, 2, 3].map((i) => placeImageUrl(id, i, 1280, "jpg"));
    expect(result).toEqual({ added: urls, rejected: [], imageUrls: urls });
    expect(await row(id)).toMatchObject({ imageUrls: urls, imageCount: 3, photoSeq: 3, version: 2 });
    for (const key of photoKeys(id, 3)) expect(await storage.exists(key)).toBe(true);
    const [revision] = await db().select().from(listingRevisions).where(eq(listingRevisions.locationId, id));
    expect(revision).toMatchObject({ fields: ["photos"], before: { photos: [] }, after: { photos: urls } });
    const audits = await db().select().from(auditLog).where(eq(auditLog.subjectId, id));
    expect(audits.map((a) => a.action)).toEqual(["listing.photos.add"]);
  });

  it("names each refused file and still adds the good ones", async () => {
    const { listing, owner } = await ownedListing();
    const big = { name: "huge.jpg", bytes: new Uint8Array(PHOTO_MAX_BYTES + 1) };
    // An iPhone photo's header (HEVC inside): refused by name, not sent to the pipeline.
    const heic = { name: "IMG_0001.HEIC", bytes: new Uint8Array(64) };
    heic.bytes.set(Buffer.from("\0\0\0\x18ftypheic\0\0\0\0mif1heic", "latin1"));
    const result = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: listing.placeId,
      files: [big, { name: "setup.exe", bytes: exeBytes() }, heic, await gif(), await photo("ok.jpg", 5)],
    });
    expect(result.added).toHaveLength(1);
    expect(result.rejected).toEqual([
      { name: "huge.jpg", message: PHOTO_TEXT.tooLarge("huge.jpg", PHOTO_MAX_BYTES + 1) },
      { name: "setup.exe", message: PHOTO_TEXT.notImage("setup.exe", "a Windows program") },
      { name: "IMG_0001.HEIC", message: PHOTO_TEXT.heic("IMG_0001.HEIC") },
      { name: "anim.gif", message: PHOTO_TEXT.wrongFormat("anim.gif", "a GIF image") },
    ]);
  });

  it("changes nothing when every file is refused", async () => {
    const { listing, owner } = await ownedListing();
    const result = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: listing.placeId,
      files: [{ name: "notes.txt", bytes: new TextEncoder().encode("hello") }],
    });
    expect(result.added).toEqual([]);
    expect(result.rejected[0]!.message).toContain("notes.txt is not a photo");
    expect(await row(listing.placeId)).toMatchObject({ imageUrls: [], version: 1 });
  });

  it("stops at 30 photos, counted under the row lock", async () => {
    const id = `test_cap${Date.now()}`;
    const existing = Array.from({ length: 29 }, (_, i) => placeImageUrl(id, i + 1, 1280, "jpg"));
    const { owner } = await ownedListing({ placeId: id, imageUrls: existing, imageCount: 29 });
    const result = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: id,
      files: [await photo("30.jpg", 1), await photo("31.jpg", 2)],
    });
    expect(result.added).toEqual([placeImageUrl(id, 30, 1280, "jpg")]);
    expect(result.rejected).toEqual([{ name: "31.jpg", message: PHOTO_TEXT.limit("31.jpg") }]);
    expect((await row(id)).imageCount).toBe(30);
  });

  it("loses no photo when two uploads run at once", async () => {
    const { listing, owner } = await ownedListing();
    const id = listing.placeId;
    const [a, b] = await Promise.all([
      addListingPhotos(db(), storage, { actor: owner, locationId: id, files: [await photo("a.jpg", 1)] }),
      addListingPhotos(db(), storage, { actor: owner, locationId: id, files: [await photo("b.jpg", 2)] }),
    ]);
    const after = await row(id);
    expect(after.imageUrls).toHaveLength(2);
    expect(new Set(after.imageUrls)).toEqual(new Set([...a.added, ...b.added]));
    expect(after.version).toBe(3);
  });

  it("refuses someone who does not manage the listing, before reading the files", async () => {
    const { listing } = await ownedListing();
    const stranger = await insertPerson(db(), { role: "business_owner" });
    const error = await rejection(
      addListingPhotos(db(), storage, {
        actor: { ...stranger, isAdmin: false },
        locationId: listing.placeId,
        files: [await photo("x.jpg", 3)],
      }),
    );
    expect(error).toMatchObject({ status: 403 });
    expect(await row(listing.placeId)).toMatchObject({ imageUrls: [], version: 1 });
  });
});

describe("reorderListingPhotos and deleteListingPhoto", () => {
  it("reorders a permutation, refuses anything else, and deletes with its files", async () => {
    const { listing, owner } = await ownedListing({ latitude: 44.2, longitude: -103.3 });
    const id = listing.placeId;
    const { added } = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: id,
      files: [await photo("a.jpg", 1), await photo("b.jpg", 2), await photo("c.jpg", 3)],
    });
    const [a, b, c] = added as [string, string, string];
    await refreshSearchIndex(db());
    const card = () =>
      getSearchIndex()
        .query({ lat: 44.2, lng: -103.3, radius: 5, sizes: [], amenities: [], sort: "distance", page: 1, pageSize: 50 })
        .items.find((i) => i.id === id);
    expect(card()?.photo).toBe(a);
    expect(await reorderListingPhotos(db(), { actor: owner, locationId: id, order: [c, a, b] })).toEqual([c, a, b]);
    expect((await row(id)).imageUrls).toEqual([c, a, b]);
    // The search card's photo is the new main photo as soon as the call returns.
    expect(card()?.photo).toBe(c);
    for (const order of [
      [a, b],
      [a, a, b],
      [a, b, "/place-images/x/w1280n9.jpg"],
      [c, a, b, b],
    ])
      expect(await rejection(reorderListingPhotos(db(), { actor: owner, locationId: id, order }))).toMatchObject({
        status: 409,
        message: PHOTO_TEXT.changed,
      });

    const deletedAt = new Date();
    await deleteListingPhoto(db(), { actor: owner, locationId: id, url: c, now: deletedAt });
    expect(await row(id)).toMatchObject({ imageUrls: [a, b], imageCount: 2 });
    expect(await rejection(deleteListingPhoto(db(), { actor: owner, locationId: id, url: c }))).toMatchObject({
      status: 409,
      message: PHOTO_TEXT.gone,
    });
    // The files stay while the photo can be restored; restoring puts it back at the end.
    for (const key of photoKeys(id, 3)) expect(await storage.exists(key)).toBe(true);
    expect((await recentlyDeletedPhotos(db(), id)).map((d) => d.url)).toEqual([c]);
    await restoreListingPhoto(db(), { actor: owner, locationId: id, url: c });
    expect((await row(id)).imageUrls).toEqual([a, b, c]);
    expect(await recentlyDeletedPhotos(db(), id)).toEqual([]);
    // Restoring a photo that is there changes nothing; one never deleted cannot be restored.
    expect(await restoreListingPhoto(db(), { actor: owner, locationId: id, url: b })).toEqual([a, b, c]);
    const never = placeImageUrl(id, 9, 1280, "jpg");
    expect(await rejection(restoreListingPhoto(db(), { actor: owner, locationId: id, url: never }))).toMatchObject({
      status: 409,
      message: PHOTO_TEXT.notRestorable,
    });

    // Deleted again and left for longer than PHOTO_RESTORE_DAYS: the job removes its files.
    await deleteListingPhoto(db(), { actor: owner, locationId: id, url: c, now: deletedAt });
    const week = PHOTO_RESTORE_DAYS * 24 * 60 * 60 * 1000;
    expect((await purgeDeletedPhotos(db(), storage, new Date(deletedAt.getTime() + week - 1000))).purged).toBe(0);
    for (const key of photoKeys(id, 3)) expect(await storage.exists(key)).toBe(true);
    expect(await purgeDeletedPhotos(db(), storage, new Date(deletedAt.getTime() + week + 1000))).toEqual({
      purged: 1,
      orphans: 0,
    });
    for (const key of photoKeys(id, 3)) expect(await storage.exists(key)).toBe(false);
    expect(await rejection(restoreListingPhoto(db(), { actor: owner, locationId: id, url: c }))).toMatchObject({
      status: 409,
      message: PHOTO_TEXT.notRestorable,
    });

    // The deleted number 3 is never given out again (browsers cache photo files for a year).
    const next = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: id,
      files: [await photo("d.jpg", 4)],
    });
    expect(next.added).toEqual([placeImageUrl(id, 4, 1280, "jpg")]);
  });

  it("refuses strangers and lets an admin manage any listing", async () => {
    const { listing } = await ownedListing({ imageUrls: ["/x/1.jpg", "/x/2.jpg"], imageCount: 2 });
    const stranger = await insertPerson(db(), { role: "business_owner" });
    const admin = await insertPerson(db(), { role: "admin" });
    const order = ["/x/2.jpg", "/x/1.jpg"];
    expect(
      await rejection(reorderListingPhotos(db(), { actor: stranger, locationId: listing.placeId, order })),
    ).toMatchObject({ status: 403 });
    expect(
      await rejection(deleteListingPhoto(db(), { actor: stranger, locationId: listing.placeId, url: "/x/1.jpg" })),
    ).toMatchObject({ status: 403 });
    await reorderListingPhotos(db(), { actor: admin, locationId: listing.placeId, order });
    expect((await row(listing.placeId)).imageUrls).toEqual(order);
    // A photo revision is a record: restoring it is refused, nothing changes.
    const [revision] = await db()
      .select()
      .from(listingRevisions)
      .where(eq(listingRevisions.locationId, listing.placeId));
    expect(await rejection(restoreRevision(db(), { actor: admin, revisionId: revision!.id }))).toMatchObject({
      status: 409,
    });
    expect(await row(listing.placeId)).toMatchObject({ imageUrls: order, version: 2 });
  });

  it("keeps a demo listing's drawn photos working after a reorder and a delete", async () => {
    const id = `demo_photos${Date.now()}`;
    const urls = [1, 2, 3].map((i) => placeImageUrl(id, i, 1280, "jpg"));
    const { owner } = await ownedListing({ placeId: id, isDemo: true, imageUrls: urls, imageCount: 3 });
    await deleteListingPhoto(db(), { actor: owner, locationId: id, url: urls[0]! });
    await reorderListingPhotos(db(), { actor: owner, locationId: id, order: [urls[2]!, urls[1]!] });
    expect(await demoPhotoIsListed(db(), id, 3)).toBe(true);
    expect(await demoPhotoIsListed(db(), id, 1)).toBe(false);
    const { added } = await addListingPhotos(db(), storage, {
      actor: owner,
      locationId: id,
      files: [await photo("u.jpg", 9)],
    });
    // Above the drawn demo numbers, so an upload is never mistaken for one to draw.
    expect(added).toEqual([placeImageUrl(id, 10, 1280, "jpg")]);
  });
});

describe("orphaned photo files", () => {
  it("are removed by the daily job once an hour old; listed, restorable and drawn photos stay", async () => {
    // A storage of its own: the other tests' files are not this test's business.
    const ownRoot = await mkdtemp(path.join(os.tmpdir(), "orphan-photos-"));
    onTestFinished(() => rm(ownRoot, { recursive: true, force: true }));
    const own = createLocalStorage(ownRoot);
    const { listing, owner } = await ownedListing();
    const id = listing.placeId;
    await addListingPhotos(db(), own, {
      actor: owner,
      locationId: id,
      files: [await photo("a.jpg", 30), await photo("b.jpg", 60)],
    });
    await deleteListingPhoto(db(), { actor: owner, locationId: id, url: placeImageUrl(id, 2, 1280, "jpg") });
    // An upload stopped between writing its files and its commit (a crash): number 3, listed nowhere.
    const { variants } = await processImage((await photo("c.jpg", 90)).bytes);
    await storePhoto(own, id, 3, variants);
    // A demo listing's photo drawn on request, which its list need not name.
    const demo = `demo_orphans${Date.now()}`;
    await ownedListing({ placeId: demo, isDemo: true, imageUrls: [], imageCount: 0 });
    await storePhoto(own, demo, 1, variants);

    const now = new Date();
    expect(await purgeDeletedPhotos(db(), own, now)).toEqual({ purged: 0, orphans: 0 });
    for (const key of photoKeys(id, 3)) expect(await own.exists(key)).toBe(true);
    const later = new Date(now.getTime() + ORPHAN_PHOTO_MIN_AGE_MS + 60_000);
    expect(await purgeDeletedPhotos(db(), own, later)).toEqual({ purged: 0, orphans: 1 });
    for (const key of photoKeys(id, 3)) expect(await own.exists(key)).toBe(false);
    for (const key of [...photoKeys(id, 1), ...photoKeys(id, 2), ...photoKeys(demo, 1)])
      expect(await own.exists(key)).toBe(true);
  });
});
