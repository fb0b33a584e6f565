/**
 * npm run images:ingest end to end on an embedded database in a temporary DATA_DIR (always PGlite,
 * like scripts/import-export-cli.db.test.ts), locations put there by the real import command. In
 * this process, but for the refusal while another process holds the database: that one is a real
 * command line, since this process would take over a lock with its own pid (server/db/lock.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand, runScript } from "../tests/setup/cli";
import { openDatabase } from "../server/db/client";
import { imagesIngestCommand } from "./commands/images-ingest";
import { importCommand } from "./commands/import";

const ROOT = path.resolve(".");
const FIXTURES = path.join(ROOT, "tests/fixtures/images");
const SLOW = 120_000;

let work: string;
let dataDir: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "images-ingest-cli-"));
  dataDir = path.join(work, "data");
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const ingest = (...args: string[]) => runCommand(imagesIngestCommand, args, { dataDir });

function originals(name: string, layout: Record<string, Record<string, string>>): string {
  const dir = path.join(work, name);
  for (const [placeId, files] of Object.entries(layout)) {
    fs.mkdirSync(path.join(dir, placeId), { recursive: true });
    for (const [file, fixture] of Object.entries(files))
      fs.copyFileSync(path.join(FIXTURES, fixture), path.join(dir, placeId, file));
  }
  return dir;
}

async function readRow(placeId: string) {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    const result = await handle.db.query.locations.findFirst({ where: (l, { eq }) => eq(l.placeId, placeId) });
    return result && { imageCount: result.imageCount, imageUrls: result.imageUrls };
  } finally {
    await handle.close();
  }
}

describe("npm run images:ingest", { timeout: SLOW }, () => {
  it("prints usage for --help (exit 0) and for a missing DIR argument (exit 1)", async () => {
    expect(await ingest("--help")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Usage: npm run images:ingest -- DIR [--dry-run]"),
    });
    const missing = await ingest();
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Missing DIR\.\n\nUsage: npm run images:ingest/);
  });

  it("exits 1 on a DIR that does not exist, before opening the database", async () => {
    const outcome = await ingest(path.join(work, "nope"));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(`Image ingest failed: ${path.join(work, "nope")}: no such directory\n`);
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("stores photos, skips broken files and unknown places (exit 2), and updates the rows", async () => {
    const listing = path.join(work, "locations.json");
    fs.writeFileSync(
      listing,
      JSON.stringify([
        { place_id: "ChIJingest-a", name: "Ingest A", state: "TX", latitude: 30.27, longitude: -97.74 },
        { place_id: "ChIJingest-b", name: "Ingest B", state: "TX", latitude: 30.3, longitude: -97.7 },
      ]),
    );
    const imported = await runCommand(importCommand, [listing], { dataDir });
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);

    const dir = originals("batch-1", {
      "ChIJingest-a": {
        "1.jpg": "oriented-6.jpg",
        "2.jpg": "truncated.jpg",
        "3.jpg": "not-an-image.jpg",
        "4.png": "landscape.png",
      },
      "ChIJingest-b": { "photo.png": "landscape.png" },
      ChIJunknown: { "1.jpg": "oriented-6.jpg" },
    });
    const outcome = await ingest(dir);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(2);
    const lines = outcome.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("ChIJingest-a: 2 photos stored, image_count 2");
    expect(lines[1]).toMatch(/^ {2}skipped ChIJingest-a\/2\.jpg: the image data is damaged or incomplete \(/);
    expect(lines[2]).toMatch(/^ {2}skipped ChIJingest-a\/3\.jpg: not a readable image \(/);
    expect(lines.slice(3)).toEqual([
      "ChIJingest-b: 1 photo stored, image_count 1",
      "ChIJunknown: skipped, no location with this place id",
      "  skipped ChIJunknown/1.jpg: no location with this place id",
      "2 places updated, 3 photos processed, 3 files skipped, 1 folder skipped.",
    ]);

    const folder = path.join(dataDir, "place-images/ChIJingest-a");
    expect(fs.readdirSync(folder).sort()).toEqual(
      [1, 2]
        .flatMap((n) => [320, 640, 960, 1280].flatMap((w) => [`w${w}n${n}.avif`, `w${w}n${n}.jpg`, `w${w}n${n}.webp`]))
        .sort(),
    );
    expect(await sharp(path.join(folder, "w640n2.avif")).metadata()).toMatchObject({ format: "heif", width: 640 });
    expect(fs.existsSync(path.join(dataDir, "place-images/ChIJunknown"))).toBe(false);
    expect(await readRow("ChIJingest-a")).toEqual({
      imageCount: 2,
      imageUrls: ["/place-images/ChIJingest-a/w1280n1.jpg", "/place-images/ChIJingest-a/w1280n2.jpg"],
    });
    expect(await readRow("ChIJingest-b")).toEqual({
      imageCount: 1,
      imageUrls: ["/place-images/ChIJingest-b/w1280n1.jpg"],
    });
  });

  it("exits 0 when every photo is used, removing photos above the new count", async () => {
    const outcome = await ingest(originals("batch-2", { "ChIJingest-a": { "only.png": "landscape.png" } }));
    expect(outcome).toMatchObject({ code: 0, stderr: "" });
    expect(outcome.stdout).toBe(
      "ChIJingest-a: 1 photo stored, image_count 1, removed 1 older photo\n" +
        "1 place updated, 1 photo processed, 0 files skipped, 0 folders skipped.\n",
    );
    expect(fs.readdirSync(path.join(dataDir, "place-images/ChIJingest-a"))).toHaveLength(12);
    expect((await readRow("ChIJingest-a"))?.imageCount).toBe(1);
  });

  it("writes nothing with --dry-run", async () => {
    const before = fs.readdirSync(path.join(dataDir, "place-images/ChIJingest-b"));
    const outcome = await ingest(
      originals("batch-3", { "ChIJingest-b": { "1.jpg": "oriented-6.jpg", "2.jpg": "oriented-6.jpg" } }),
      "--dry-run",
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("ChIJingest-b: 2 photos would be stored");
    expect(outcome.stdout).toContain("Dry run, nothing was written.");
    expect(fs.readdirSync(path.join(dataDir, "place-images/ChIJingest-b"))).toEqual(before);
    expect((await readRow("ChIJingest-b"))?.imageCount).toBe(1);
  });

  it("refuses, exit 1, while another process holds the embedded database", async () => {
    const lockFile = path.join(dataDir, "db.lock");
    fs.writeFileSync(lockFile, String(process.pid));
    try {
      const outcome = await runScript("images-ingest.ts", [path.join(work, "batch-2")], { dataDir });
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(/^Image ingest failed: The embedded database in .* is in use by another process/);
      expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    } finally {
      fs.rmSync(lockFile);
    }
  });
});
