import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage } from "./local-storage";
import { processImage, type ImageVariant } from "./pipeline";
import { photoKeys, placeImageKey, removePhotosAbove, storePhoto } from "./place-photos";
import type { ImageStorage } from "./storage";

let root: string;
let storage: ImageStorage;
let variants: ImageVariant[];
beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "place-photos-"));
  storage = createLocalStorage(root);
  variants ??= (await processImage(fs.readFileSync(path.resolve("tests/fixtures/images/oriented-6.jpg")))).variants;
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("place photo keys", () => {
  it("follow place-images/{placeId}/w{width}n{index}.{format}", () => {
    expect(placeImageKey("ChIJx", 7, 960, "webp")).toBe("place-images/ChIJx/w960n7.webp");
    expect(photoKeys("p", 1)).toHaveLength(12);
    expect(() => placeImageKey("../x", 1, 320, "jpg")).toThrow("Invalid place id");
    expect(() => placeImageKey("p", 0, 320, "jpg")).toThrow("outside 1..999");
  });
});

describe("storePhoto", () => {
  it("writes the twelve files and reports their real sizes", async () => {
    const stored = await storePhoto(storage, "p", 2, variants);
    expect(stored.files.map((f) => f.key).sort()).toEqual(photoKeys("p", 2).sort());
    expect(stored.files.find((f) => f.key.endsWith("w1280n2.jpg"))).toMatchObject({
      outputWidth: 300,
      outputHeight: 400,
    });
    for (const key of photoKeys("p", 2)) expect(fs.existsSync(path.join(root, key))).toBe(true);
  });

  it("is all or nothing: a failed write removes every file of that photo", async () => {
    await storePhoto(storage, "p", 1, variants); // an older version, about to be replaced
    let calls = 0;
    const failing: ImageStorage = {
      ...storage,
      put: async (key, bytes) => {
        if (++calls === 7) throw new Error("disk full");
        await storage.put(key, bytes);
      },
    };
    await expect(storePhoto(failing, "p", 1, variants)).rejects.toThrow("disk full");
    expect(await storage.list("place-images/p")).toEqual([]);
  });
});

describe("removePhotosAbove", () => {
  it("removes photos numbered above the count and nothing else", async () => {
    for (const index of [1, 2, 3, 10]) await storePhoto(storage, "p", index, variants);
    await storage.put("place-images/p/notes.txt", Buffer.from("kept"));
    expect(await removePhotosAbove(storage, "p", 2)).toBe(2);
    const left = await storage.list("place-images/p");
    expect(left).toHaveLength(25);
    expect(left.filter((key) => /n(3|10)\./.test(key))).toEqual([]);
    expect(await removePhotosAbove(storage, "nothing-here", 0)).toBe(0);
  });
});
