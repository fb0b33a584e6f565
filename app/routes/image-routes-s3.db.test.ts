/**
 * The photo and article-image routes as the server runs them with S3 configured (S3_* set before
 * anything reads the configuration, s3rver as the bucket): a demo photo drawn on its first request
 * lands in the bucket, and a second instance of the site (its own storage and client) serves it
 * from there without drawing it again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as blogImageLoader } from "./blog-images";
import { loader as placeImageLoader } from "./place-images";
import { createTestDatabase } from "../../tests/setup/db";
import { startS3, type S3Sink } from "../../tests/setup/s3";
import { connectDatabase, disconnectDatabase } from "../../server/db";
import { locations } from "../../server/db/schema";
import { requestContext } from "../../server/http/request-context";
import { getImageStorage } from "../../server/images";
import { createS3Storage } from "../../server/images/s3-storage";
import { servePlaceImage } from "../../server/images/serve";

const DEMO = "demo_0002abcdefghij";
const BUCKET = "site-files";
const PREFIX = "site";
let s3: S3Sink;
let dataDir: string;

beforeAll(async () => {
  s3 = await startS3();
  await s3.createBucket(BUCKET);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "s3-route-"));
  Object.assign(process.env, { DATA_DIR: dataDir, ...s3.env(BUCKET, PREFIX) });
  const handle = await connectDatabase(await createTestDatabase());
  await handle.db.insert(locations).values({
    placeId: DEMO,
    slug: "demo-two",
    name: "Demo Two",
    isDemo: true,
    imageCount: 3,
    imageUrls: [1, 2, 3].map((i) => `/place-images/${DEMO}/w1280n${i}.jpg`),
  });
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
  await s3?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const context = requestContext({ requestId: "test", nonce: "test" });

function photo(file: string, headers: HeadersInit = {}) {
  const args = {
    request: new Request(`http://localhost/place-images/${DEMO}/${file}`, { headers }),
    params: { placeId: DEMO, file },
    context,
  };
  return placeImageLoader(args as unknown as Parameters<typeof placeImageLoader>[0]);
}

const photoPuts = () => s3.puts.filter((key) => key.startsWith(`${PREFIX}/place-images/${DEMO}/`));

describe("photos with S3 configured", () => {
  let etag = "";
  let body: Buffer;

  it("draws a demo photo's file on its first request into the bucket, not DATA_DIR", async () => {
    const response = await photo("w640n3.avif");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    etag = response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    body = Buffer.from(await response.arrayBuffer());
    expect(body.toString("latin1", 4, 12)).toBe("ftypavif");

    expect(photoPuts()).toEqual([`${PREFIX}/place-images/${DEMO}/w640n3.avif`]);
    expect(await s3.keys(BUCKET, `${PREFIX}/place-images/${DEMO}/`)).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, "place-images"))).toBe(false);
  });

  it("draws another file of the photo when it is asked for, and serves a drawn one without drawing again", async () => {
    const response = await photo("w320n3.jpg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const again = await photo("w640n3.avif", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(photoPuts()).toHaveLength(2);
  });

  it("is served by a second instance from the bucket, with the same ETag and no drawing", async () => {
    let draws = 0;
    const secondInstance = createS3Storage({ client: s3.client(), bucket: BUCKET, prefix: PREFIX });
    expect(secondInstance).not.toBe(getImageStorage());
    const serve = (file: string) =>
      servePlaceImage(
        new Request(`http://localhost/place-images/${DEMO}/${file}`),
        { placeId: DEMO, file },
        {
          storage: secondInstance,
          demoPhotoIsListed: async () => true,
          drawDemoPhoto: async () => {
            draws++;
            throw new Error("the second instance must not draw a stored photo");
          },
        },
      );
    const response = await serve("w640n3.avif");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
    expect((await serve("w320n3.jpg")).status).toBe(200);
    expect(draws).toBe(0);
    expect(photoPuts()).toHaveLength(2);
  });
});

describe("article images with S3 configured", () => {
  it("serves a stored article image from the bucket", async () => {
    const jpeg = Buffer.from("not really a jpeg, served as stored");
    await getImageStorage().put("blog-images/cover-1/w320.jpg", jpeg);
    expect(await s3.keys(BUCKET, `${PREFIX}/blog-images/`)).toEqual([`${PREFIX}/blog-images/cover-1/w320.jpg`]);
    const args = {
      request: new Request("http://localhost/blog-images/cover-1/w320.jpg"),
      params: { imageId: "cover-1", file: "w320.jpg" },
      context,
    };
    const response = await blogImageLoader(args as unknown as Parameters<typeof blogImageLoader>[0]);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await response.arrayBuffer()).equals(jpeg)).toBe(true);
  });
});
