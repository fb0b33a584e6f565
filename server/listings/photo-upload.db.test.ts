import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PHOTO_MAX_BYTES, PHOTO_TEXT } from "../../domain/listing-photos";
import { createTestDatabase } from "../../tests/setup/db";
import type { SignedInViewer } from "../auth/viewer";
import { connectDatabase, disconnectDatabase, getDatabase } from "../db";
import { locations } from "../db/schema";
import { uploadFolder, uploadListingPhotosAction } from "./photo-pages";
import { insertOwnedListing } from "./test-support";
import type { Actor } from "../auth/actor";

/**
 * The photo upload endpoint on a real database and a real DATA_DIR (issue 30, "Also close"):
 * files wait in DATA_DIR/tmp/uploads while they are checked, an oversized file is refused as soon
 * as it passes the limit, and no temporary file outlives its request.
 */
const dataDir = vi.hoisted(() => {
  const dir = `${process.env.TMPDIR ?? "/tmp"}/photo-upload-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = dir;
  return dir;
});

beforeAll(async () => {
  await connectDatabase(await createTestDatabase());
});
afterAll(async () => {
  await disconnectDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const viewerOf = (owner: Actor): SignedInViewer => ({
  sessionId: "test-session",
  userId: owner.userId,
  isAnonymous: false,
  role: "business_owner",
  isAdmin: false,
  isOwner: true,
  email: owner.email,
  name: "Owner",
});

const uploadUrl = (id: string) => `http://localhost/owner/locations/${encodeURIComponent(id)}/photos/upload`;
const leftOnDisk = () =>
  fs.existsSync(uploadFolder()) ? fs.readdirSync(uploadFolder(), { recursive: true, encoding: "utf8" }) : [];

const jpeg = async (r: number) =>
  new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 90, b: 40 } } })
      .jpeg()
      .toBuffer(),
  );

describe("POST /owner/locations/{id}/photos/upload", () => {
  it("adds the photos from temporary files under DATA_DIR and removes those files", async () => {
    const { listing, owner } = await insertOwnedListing(getDatabase(), { imageUrls: [], imageCount: 0 });
    const form = new FormData();
    form.append("photos", new File([await jpeg(10)], "a.jpg", { type: "image/jpeg" }));
    form.append("photos", new File([await jpeg(200)], "b.jpg", { type: "image/jpeg" }));
    const request = new Request(uploadUrl(listing.placeId), {
      method: "POST",
      headers: { Accept: "application/json" },
      body: form,
    });
    const response = await uploadListingPhotosAction(request, viewerOf(owner), listing.placeId, "req-upload");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ rejected: [], count: 2 });
    expect(path.relative(dataDir, uploadFolder())).toBe(path.join("tmp", "uploads"));
    expect(leftOnDisk()).toEqual([]);
  });

  it("refuses a file with 413 as soon as it passes the photo limit, without reading the rest", async () => {
    const { listing, owner } = await insertOwnedListing(getDatabase(), { imageUrls: [], imageCount: 0 });
    const boundary = "----photo-boundary";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="huge.jpg"\r\n` +
        "Content-Type: image/jpeg\r\n\r\n",
    );
    // A file that never ends: only a cap that stops reading can answer this request.
    const chunk = new Uint8Array(1024 * 1024).fill(0xff);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = pulled === 0 ? head : chunk;
          pulled += next.length;
          controller.enqueue(next);
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(uploadUrl(listing.placeId), {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await uploadListingPhotosAction(request, viewerOf(owner), listing.placeId, "req-huge");
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: PHOTO_TEXT.requestTooLarge });
    expect(pulled).toBeLessThan(PHOTO_MAX_BYTES + 2 * chunk.length);
    expect(leftOnDisk()).toEqual([]);
    const [row] = await getDatabase().select().from(locations).where(eq(locations.placeId, listing.placeId));
    expect(row?.imageUrls).toEqual([]);
  });
});
