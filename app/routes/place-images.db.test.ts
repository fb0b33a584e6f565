/**
 * The /place-images route module as the server runs it: storage from DATA_DIR (a temporary one,
 * set before anything reads the configuration) and the demo check against the database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader } from "./place-images";
import { createTestDatabase } from "../../tests/setup/db";
import { getConfig } from "../../server/config";
import { connectDatabase, disconnectDatabase } from "../../server/db";
import { requestContext } from "../../server/http/request-context";
import { locations } from "../../server/db/schema";
import { getImageStorage } from "../../server/images";

const DEMO = "demo_0002abcdefghij";
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "place-images-route-"));
  process.env.DATA_DIR = dataDir;
  const handle = await connectDatabase(await createTestDatabase());
  await handle.db.insert(locations).values([
    {
      placeId: DEMO,
      slug: "demo-two",
      name: "Demo Two",
      isDemo: true,
      imageCount: 3,
      imageUrls: [1, 2, 3].map((i) => `/place-images/${DEMO}/w1280n${i}.jpg`),
    },
    { placeId: "ChIJplain", slug: "plain", name: "Plain", imageCount: 1 },
  ]);
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function request(placeId: string, file: string, method = "GET") {
  const args = {
    request: new Request(`http://localhost/place-images/${placeId}/${file}`, { method }),
    params: { placeId, file },
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  return loader(args as unknown as Parameters<typeof loader>[0]);
}

describe("GET /place-images/:placeId/:file", () => {
  it("uses DATA_DIR for storage", () => {
    expect(getConfig().dataDir).toBe(dataDir);
  });

  it("serves a stored file, with HEAD too", async () => {
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#abc" } })
      .jpeg()
      .toBuffer();
    await getImageStorage().put("place-images/ChIJplain/w320n1.jpg", jpeg);
    expect(fs.existsSync(path.join(dataDir, "place-images/ChIJplain/w320n1.jpg"))).toBe(true);

    const response = await request("ChIJplain", "w320n1.jpg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(Buffer.from(await response.arrayBuffer()).equals(jpeg)).toBe(true);

    const head = await request("ChIJplain", "w320n1.jpg", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(jpeg.length));
    expect(head.body).toBeNull();
  });

  it("404s bad names and missing files", async () => {
    for (const [placeId, file] of [
      ["ChIJplain", "w320n1.gif"],
      ["ChIJplain", "x.jpg"],
      ["bad id", "w320n1.jpg"],
      ["ChIJplain", "w320n2.jpg"],
    ] as const) {
      const response = await request(placeId, file);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    }
  });

  it("renders the asked-for file of a listed demo photo on demand into DATA_DIR", async () => {
    const response = await request(DEMO, "w640n3.avif");
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.toString("latin1", 4, 12)).toBe("ftypavif");
    expect(await sharp(body).metadata()).toMatchObject({ format: "heif", width: 640, height: 480 });
    expect(fs.readdirSync(path.join(dataDir, "place-images", DEMO))).toEqual(["w640n3.avif"]);
  });

  it("draws nothing the listing does not list (image_urls) or for an unknown demo id", async () => {
    expect((await request(DEMO, "w640n4.avif")).status).toBe(404);
    expect((await request("demo_0003zzzzzzzzzz", "w640n1.avif")).status).toBe(404);
    expect(fs.readdirSync(path.join(dataDir, "place-images"))).toEqual(
      expect.not.arrayContaining(["demo_0003zzzzzzzzzz"]),
    );
    expect(fs.readdirSync(path.join(dataDir, "place-images", DEMO))).toEqual(["w640n3.avif"]);
  });
});
