import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import {
  IngestDirectoryError,
  formatIngestSummary,
  formatPlaceReport,
  ingestExitCode,
  ingestPlaceImages,
  type IngestReport,
} from "./ingest";
import { createLocalStorage } from "./local-storage";
import type { ImageStorage } from "./storage";

const FIXTURES = path.resolve("tests/fixtures/images");
let handle: DatabaseHandle;
let root: string;
let storage: ImageStorage;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(locations).values([
    { placeId: "ChIJalpha", slug: "alpha", name: "Alpha" },
    { placeId: "ChIJbeta", slug: "beta", name: "Beta", imageCount: 1, imageUrls: ["https://example.com/old.jpg"] },
  ]);
});
afterAll(async () => {
  await handle.close();
});
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "ingest-"));
  storage = createLocalStorage(path.join(root, "data"));
  return () => fs.rmSync(root, { recursive: true, force: true });
});

/** Builds DIR from fixture copies: { placeId: { fileName: fixtureName } }. */
function originals(layout: Record<string, Record<string, string>>): string {
  const dir = path.join(root, "originals");
  for (const [placeId, files] of Object.entries(layout)) {
    fs.mkdirSync(path.join(dir, placeId), { recursive: true });
    for (const [name, fixture] of Object.entries(files))
      fs.copyFileSync(path.join(FIXTURES, fixture), path.join(dir, placeId, name));
  }
  return dir;
}

const row = async (placeId: string) =>
  (await handle.db.select().from(locations).where(eq(locations.placeId, placeId)))[0];
const files = (placeId: string) => fs.readdirSync(path.join(root, "data/place-images", placeId)).sort();

describe("ingestPlaceImages", () => {
  it("numbers good photos in file-name order, skips broken ones, updates the row", async () => {
    const dir = originals({
      ChIJalpha: { "10.png": "landscape.png", "2.jpg": "oriented-6.jpg", "3.jpg": "truncated.jpg" },
    });
    const report = await ingestPlaceImages(handle.db, storage, dir);
    expect(report.places).toEqual([
      {
        placeId: "ChIJalpha",
        outcome: "updated",
        photos: 2,
        removedPhotos: 0,
        skipped: [{ path: "ChIJalpha/3.jpg", reason: expect.stringContaining("damaged or incomplete") }],
      },
    ]);
    expect(ingestExitCode(report)).toBe(2);
    expect(await row("ChIJalpha")).toMatchObject({
      imageCount: 2,
      imageUrls: ["/place-images/ChIJalpha/w1280n1.jpg", "/place-images/ChIJalpha/w1280n2.jpg"],
    });
    expect(files("ChIJalpha")).toHaveLength(24);
    // 2.jpg sorts before 10.png, so photo 1 is the rotated 300x400 one.
    const first = await sharp(path.join(root, "data/place-images/ChIJalpha/w1280n1.jpg")).metadata();
    expect([first.width, first.height]).toEqual([300, 400]);
  });

  it("removes stored photos above a place's new count", async () => {
    await ingestPlaceImages(
      handle.db,
      storage,
      originals({ ChIJbeta: { "a.jpg": "oriented-6.jpg", "b.jpg": "oriented-6.jpg", "c.png": "landscape.png" } }),
    );
    expect(files("ChIJbeta")).toHaveLength(36);
    fs.rmSync(path.join(root, "originals"), { recursive: true });

    const report = await ingestPlaceImages(
      handle.db,
      storage,
      originals({ ChIJbeta: { "only.png": "landscape.png" } }),
    );
    expect(report.places[0]).toMatchObject({ outcome: "updated", photos: 1, removedPhotos: 2 });
    expect(ingestExitCode(report)).toBe(0);
    expect(files("ChIJbeta").every((name) => name.includes("n1."))).toBe(true);
    expect(await row("ChIJbeta")).toMatchObject({ imageCount: 1, imageUrls: ["/place-images/ChIJbeta/w1280n1.jpg"] });
    expect(formatPlaceReport(report.places[0]!, false)).toBe(
      "ChIJbeta: 1 photo stored, image_count 1, removed 2 older photos",
    );
  });

  it("leaves a place alone when none of its photos is usable", async () => {
    const before = await row("ChIJbeta");
    const report = await ingestPlaceImages(
      handle.db,
      storage,
      originals({ ChIJbeta: { "x.jpg": "not-an-image.jpg", "y.jpg": "truncated.jpg" } }),
    );
    expect(report.places[0]).toMatchObject({ outcome: "unchanged", note: "no usable photo", photos: 0 });
    expect((await row("ChIJbeta"))?.imageUrls).toEqual(before?.imageUrls);
    expect(fs.existsSync(path.join(root, "data/place-images"))).toBe(false);
  });

  it("skips unknown and invalid place folders and stray files, and reports them", async () => {
    const dir = originals({ ChIJnobody: { "1.jpg": "oriented-6.jpg" }, "not valid!": { "1.jpg": "oriented-6.jpg" } });
    fs.writeFileSync(path.join(dir, "readme.txt"), "hello");
    fs.writeFileSync(path.join(dir, ".DS_Store"), "");
    const report = await ingestPlaceImages(handle.db, storage, dir);
    expect(report.places.map((p) => [p.placeId, p.outcome, p.note])).toEqual([
      ["ChIJnobody", "skipped", "no location with this place id"],
      ["not valid!", "skipped", "not a valid place id (letters, digits, _ and -, at most 128)"],
    ]);
    expect(formatIngestSummary(report)).toBe(
      "skipped readme.txt: not a folder named after a place id\n" +
        "0 places updated, 0 photos processed, 3 files skipped, 2 folders skipped.",
    );
    expect(ingestExitCode(report)).toBe(2);
    expect(fs.existsSync(path.join(root, "data"))).toBe(false);
  });

  it("writes nothing in a dry run", async () => {
    const before = await row("ChIJalpha");
    const report: IngestReport = await ingestPlaceImages(
      handle.db,
      storage,
      originals({ ChIJalpha: { "1.png": "landscape.png", "2.jpg": "not-an-image.jpg" } }),
      { dryRun: true },
    );
    expect(report.places[0]).toMatchObject({ outcome: "updated", photos: 1 });
    expect(formatPlaceReport(report.places[0]!, true)).toMatch(/^ChIJalpha: 1 photo would be stored\n {2}skipped/);
    expect(formatIngestSummary(report)).toMatch(/^Dry run, nothing was written\. 1 place would be updated/);
    expect(fs.existsSync(path.join(root, "data"))).toBe(false);
    expect((await row("ChIJalpha"))?.updatedAt).toEqual(before?.updatedAt);
  });

  it("fails on a missing DIR", async () => {
    await expect(ingestPlaceImages(handle.db, storage, path.join(root, "nope"))).rejects.toThrow(IngestDirectoryError);
  });
});
