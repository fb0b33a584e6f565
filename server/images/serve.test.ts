import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLocalStorage } from "./local-storage";
import { processImage, type ImageVariant } from "./pipeline";
import { storePhoto } from "./place-photos";
import type { PhotoFile } from "./demo-photos";
import { RENDER_CONCURRENCY, RENDER_MAX_WAITING, createRenderQueue } from "./render-queue";
import { servePlaceImage, type ServePlaceImageOptions } from "./serve";
import type { ImageStorage } from "./storage";

let root: string;
let storage: ImageStorage;
let fixture: ImageVariant[];
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "serve-images-"));
  storage = createLocalStorage(root);
  const { variants } = await processImage(fs.readFileSync(path.resolve("tests/fixtures/images/landscape.png")));
  fixture = variants;
  await storePhoto(storage, "ChIJreal", 1, variants);
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const DEMO = "demo_0001abcdefghij";

function get(placeId: string, file: string, init: RequestInit = {}, options: Partial<ServePlaceImageOptions> = {}) {
  const request = new Request(`http://localhost/place-images/${placeId}/${file}`, init);
  return servePlaceImage(request, { placeId, file }, { storage, ...options });
}

const isAvif = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1", 4, 12) === "ftypavif";

describe("servePlaceImage", () => {
  it("serves a stored file with its type, length, ETag and a year of immutable caching", async () => {
    const response = await get("ChIJreal", "w640n1.webp");
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(fs.readFileSync(path.join(root, "place-images/ChIJreal/w640n1.webp")))).toBe(true);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/webp",
      "content-length": String(body.length),
      "cache-control": "public, max-age=31536000, immutable",
      etag: expect.stringMatching(/^"[A-Za-z0-9_-]+"$/),
    });
    expect((await sharp(body).metadata()).width).toBe(640);
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await get("ChIJreal", "w1280n1.jpg", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(1000);
    expect(response.body).toBeNull();
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const etag = (await get("ChIJreal", "w320n1.avif")).headers.get("etag") ?? "";
    const response = await get("ChIJreal", "w320n1.avif", { headers: { "If-None-Match": `"other", W/${etag}` } });
    expect(response.status).toBe(304);
    expect(response.body).toBeNull();
    expect(response.headers.get("etag")).toBe(etag);
  });

  it.each([
    ["ChIJreal", "w641n1.jpg"],
    ["ChIJreal", "w640n0.jpg"],
    ["ChIJreal", "w640n1000.jpg"],
    ["ChIJreal", "w640n1.png"],
    ["ChIJreal", "w640n1.jpeg"],
    ["ChIJreal", "..%2Fw640n1.jpg"],
    ["..", "w640n1.jpg"],
    ["a b", "w640n1.jpg"],
    ["x".repeat(129), "w640n1.jpg"],
    ["", "w640n1.jpg"],
  ])("404s the malformed %s/%s as plain text", async (placeId, file) => {
    const response = await get(placeId, file);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("Unknown image");
  });

  it("404s a well-formed name that is not stored", async () => {
    const response = await get("ChIJreal", "w640n2.jpg");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Image not found");
  });

  it("draws the asked-for file of a listed demo photo on first request: a real AVIF, that file alone kept", async () => {
    const response = await get(DEMO, "w960n2.avif", {}, { demoPhotoIsListed: async () => true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/avif");
    const body = Buffer.from(await response.arrayBuffer());
    expect(isAvif(body)).toBe(true);
    expect(await sharp(body).metadata()).toMatchObject({ format: "heif", compression: "av1", width: 960, height: 720 });
    expect(fs.readdirSync(path.join(root, "place-images", DEMO))).toEqual(["w960n2.avif"]);
    // The stored copy is what later requests get, with the same ETag.
    const again = await get(DEMO, "w960n2.avif");
    expect(again.headers.get("etag")).toBe(response.headers.get("etag"));
    // Another file of the same photo is drawn when it is asked for, at its own width and format.
    const small = await get(DEMO, "w320n2.jpg", {}, { demoPhotoIsListed: async () => true });
    expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toMatchObject({
      format: "jpeg",
      width: 320,
    });
    expect(fs.readdirSync(path.join(root, "place-images", DEMO)).sort()).toEqual(["w320n2.jpg", "w960n2.avif"]);
  });

  it("draws a demo photo's file once however many times it is asked for at the same time", async () => {
    const puts: string[] = [];
    const counting: ImageStorage = { ...storage, put: (key, bytes) => (puts.push(key), storage.put(key, bytes)) };
    const files = ["w320n3.avif", "w640n3.webp", "w1280n3.jpg", "w320n3.avif", "w960n3.jpg", "w640n3.webp"];
    const responses = await Promise.all(
      files.map((file) =>
        servePlaceImage(
          new Request(`http://localhost/place-images/${DEMO}/${file}`),
          { placeId: DEMO, file },
          { storage: counting, demoPhotoIsListed: async () => true },
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(files.map(() => 200));
    expect(puts.map((key) => key.split("/").at(-1)).sort()).toEqual([...new Set(files)].sort());
  });

  it("draws nothing for a demo photo that is not listed, numbered above 9, or not a demo id", async () => {
    expect((await get(DEMO, "w320n4.avif")).status).toBe(404);
    expect((await get(DEMO, "w320n5.avif", {}, { demoPhotoIsListed: async () => false })).status).toBe(404);
    expect((await get(DEMO, "w320n10.avif", {}, { demoPhotoIsListed: async () => true })).status).toBe(404);
    expect((await get("ChIJnotdemo", "w320n1.avif", {}, { demoPhotoIsListed: async () => true })).status).toBe(404);
    expect(fs.readdirSync(path.join(root, "place-images", DEMO)).filter((f) => /n(4|5|10)\./.test(f))).toEqual([]);
    expect(fs.existsSync(path.join(root, "place-images/ChIJnotdemo"))).toBe(false);
  });
});

describe("photos drawn on request go through one bounded queue", () => {
  it("draws at most the concurrency limit at once, each photo once, and answers the overflow 503 + Retry-After", async () => {
    // A renderer that counts how many draw at once and holds every draw until the test lets go.
    let drawing = 0;
    let peak = 0;
    const drawn: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const drawDemoPhoto = async (placeId: string, index: number, { width, format }: PhotoFile) => {
      drawing++;
      peak = Math.max(peak, drawing);
      drawn.push(`${placeId}/${index}/w${width}.${format}`);
      await gate;
      drawing--;
      return fixture.find((variant) => variant.width === width && variant.format === format)!;
    };
    const queued = createRenderQueue();
    const own = createLocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), "serve-queue-")));
    // 20 different photos, the same file of each asked for twice: 40 requests at once.
    const photos = Array.from({ length: 20 }, (_, i) => ({
      placeId: `demo_${String(i).padStart(4, "0")}queue`,
      index: 1,
    }));
    const requests = photos.flatMap(({ placeId }) => ["w320n1.webp", "w320n1.webp"].map((file) => ({ placeId, file })));
    const settled: Response[] = [];
    const pending = requests.map(({ placeId, file }) =>
      servePlaceImage(
        new Request(`http://localhost/place-images/${placeId}/${file}`),
        { placeId, file },
        { storage: own, demoPhotoIsListed: async () => true, drawDemoPhoto, renderQueue: queued },
      ).then((response) => (settled.push(response), response)),
    );
    const admitted = RENDER_CONCURRENCY + RENDER_MAX_WAITING;
    const refused = 2 * (photos.length - admitted);
    // While every draw is held: the overflow has been answered, the rest wait in the queue.
    await vi.waitFor(() => expect(settled).toHaveLength(refused));
    expect(queued.running).toBe(RENDER_CONCURRENCY);
    expect(queued.waiting).toBe(RENDER_MAX_WAITING);
    for (const response of settled) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }

    release();
    const responses = await Promise.all(pending);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(2 * admitted);
    expect(responses.filter((r) => r.status === 503)).toHaveLength(refused);
    expect(peak).toBe(RENDER_CONCURRENCY);
    // Each admitted file drawn exactly once, though it was asked for twice at once.
    expect(drawn).toHaveLength(admitted);
    expect(new Set(drawn).size).toBe(admitted);
    expect(queued.running + queued.waiting).toBe(0);

    // Once drawn, a photo is served from storage without drawing; a refused one can be drawn now.
    const again = await servePlaceImage(
      new Request(`http://localhost/place-images/${photos[0]!.placeId}/w320n1.webp`),
      { placeId: photos[0]!.placeId, file: "w320n1.webp" },
      { storage: own, demoPhotoIsListed: async () => true, drawDemoPhoto, renderQueue: queued },
    );
    expect(again.status).toBe(200);
    const last = photos.at(-1)!.placeId;
    const retried = await servePlaceImage(
      new Request(`http://localhost/place-images/${last}/w320n1.webp`),
      { placeId: last, file: "w320n1.webp" },
      { storage: own, demoPhotoIsListed: async () => true, drawDemoPhoto, renderQueue: queued },
    );
    expect(retried.status).toBe(200);
    expect(drawn).toHaveLength(admitted + 1);
  });
});
