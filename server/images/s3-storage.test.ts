import { randomBytes } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageStorageContract } from "../../tests/setup/image-storage-contract";
import { startS3, type S3Sink } from "../../tests/setup/s3";
import { createS3Storage, type S3StorageOptions } from "./s3-storage";
import { etagOf } from "./storage";

const BUCKET = "images";
let s3: S3Sink;
let client: S3Client;
beforeAll(async () => {
  s3 = await startS3();
  await s3.createBucket(BUCKET);
  client = s3.client();
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

/** A storage under a prefix of its own, so each test starts from an empty folder. */
function freshStorage(options: Partial<S3StorageOptions> = {}) {
  const prefix = `t-${randomBytes(4).toString("hex")}`;
  return { prefix, storage: createS3Storage({ client, bucket: BUCKET, prefix, ...options }) };
}

/** A client of its own that counts the S3 requests of each kind it sends. */
function countingClient() {
  const counting = s3.client();
  const counts = new Map<string, number>();
  counting.middlewareStack.add(
    (next, context) => (args) => {
      counts.set(context.commandName ?? "?", (counts.get(context.commandName ?? "?") ?? 0) + 1);
      return next(args);
    },
    { step: "initialize" },
  );
  return { client: counting, requests: (name: string) => counts.get(name) ?? 0, reset: () => counts.clear() };
}

describe("S3 storage", () => {
  imageStorageContract(async () => {
    const { prefix, storage } = freshStorage();
    return { storage, everything: () => s3.keys(BUCKET, `${prefix}/`) };
  });

  it("stores every key under S3_PREFIX, with the image's content type", async () => {
    const { prefix, storage } = freshStorage();
    await storage.put("place-images/p/w320n1.avif", Buffer.from("a"));
    await storage.put("blog-images/b/w320.jpg", Buffer.from("b"));
    expect(await s3.keys(BUCKET, `${prefix}/`)).toEqual([
      `${prefix}/blog-images/b/w320.jpg`,
      `${prefix}/place-images/p/w320n1.avif`,
    ]);
    const raw = await client.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `${prefix}/place-images/p/w320n1.avif` }),
    );
    expect(raw.ContentType).toBe("image/avif");
    await raw.Body?.transformToByteArray();
    // Another prefix in the same bucket is another storage.
    expect(await freshStorage().storage.list("place-images")).toEqual([]);
  });

  it("agrees on the ETag across instances, from the bytes", async () => {
    const { prefix, storage } = freshStorage();
    await storage.put("place-images/p/w320n1.jpg", Buffer.from("photo"));
    const other = createS3Storage({ client: s3.client(), bucket: BUCKET, prefix });
    const [mine, theirs] = [
      await storage.get("place-images/p/w320n1.jpg"),
      await other.get("place-images/p/w320n1.jpg"),
    ];
    expect(theirs?.etag).toBe(mine?.etag);
    expect(theirs?.etag).toBe(etagOf(Buffer.from("photo")));
    expect(theirs?.lastModified.getTime()).toBe(mine?.lastModified.getTime());
  });

  it("lists and removes across pages of ListObjectsV2 (continuation tokens)", async () => {
    const counting = countingClient();
    const { storage } = freshStorage({ pageSize: 7, client: counting.client });
    const keys = Array.from({ length: 30 }, (_, i) => `place-images/p/w320n${i + 1}.jpg`);
    await Promise.all(keys.map((key) => storage.put(key, Buffer.from(key))));
    await storage.put("place-images/q/w320n1.jpg", Buffer.from("q"));
    const requests = counting.requests;
    expect(await storage.list("place-images/p")).toEqual([...keys].sort());
    expect(requests("ListObjectsV2Command")).toBe(5); // 30 keys, 7 a page
    expect(await storage.remove("place-images/p")).toBe(30);
    expect(await storage.list("place-images")).toEqual(["place-images/q/w320n1.jpg"]);
  });

  it("does not list objects whose names are not storage keys", async () => {
    const { prefix, storage } = freshStorage();
    await storage.put("place-images/p/w320n1.jpg", Buffer.from("ok"));
    const { PutObjectCommand } = await import("@aws-sdk/client-s3");
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}/place-images/p/bad name.jpg`, Body: "x" }),
    );
    expect(await storage.list("place-images/p")).toEqual(["place-images/p/w320n1.jpg"]);
    expect(await storage.remove("place-images/p")).toBe(2);
    const left = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}/` }));
    expect(left.KeyCount ?? 0).toBe(0);
  });

  it("refuses to read a missing bucket as a missing file", async () => {
    const storage = createS3Storage({ client, bucket: "no-such-bucket" });
    await expect(storage.get("place-images/p/w320n1.jpg")).rejects.toMatchObject({ name: "NoSuchBucket" });
  });
});

describe("the S3 storage's read cache", () => {
  it("serves a hot file from memory: one GET for many reads, and one for concurrent ones", async () => {
    const counting = countingClient();
    const { storage } = freshStorage({ client: counting.client });
    await storage.put("place-images/p/w320n1.jpg", Buffer.from("hot"));
    const requests = counting.requests;
    const reads = await Promise.all(Array.from({ length: 5 }, () => storage.get("place-images/p/w320n1.jpg")));
    for (let i = 0; i < 10; i++) await storage.get("place-images/p/w320n1.jpg");
    expect(await storage.exists("place-images/p/w320n1.jpg")).toBe(true);
    expect(requests("GetObjectCommand")).toBe(1);
    expect(requests("HeadObjectCommand")).toBe(0);
    expect(new Set(reads.map((r) => r?.etag))).toEqual(new Set([etagOf(Buffer.from("hot"))]));
    // A missing file is asked for every time: another instance may store it meanwhile.
    await storage.get("place-images/p/w320n2.jpg");
    expect(await storage.exists("place-images/p/w320n2.jpg")).toBe(false);
    await storage.get("place-images/p/w320n2.jpg");
    expect(await storage.exists("place-images/p/w320n2.jpg")).toBe(false);
    expect(requests("GetObjectCommand")).toBe(3);
    expect(requests("HeadObjectCommand")).toBe(2);
  });

  it("remembers which files exist, so checking a file again does not send a HEAD each time", async () => {
    const counting = countingClient();
    const { prefix, storage } = freshStorage({ client: counting.client });
    await storage.put("place-images/p/w320n1.jpg", Buffer.from("mine"));
    const other = createS3Storage({ client: s3.client(), bucket: BUCKET, prefix });
    await other.put("place-images/p/w640n1.jpg", Buffer.from("theirs"));
    for (let i = 0; i < 3; i++) {
      expect(await storage.exists("place-images/p/w320n1.jpg")).toBe(true);
      expect(await storage.exists("place-images/p/w640n1.jpg")).toBe(true);
    }
    expect(counting.requests("HeadObjectCommand")).toBe(1);
    await storage.remove("place-images/p");
    expect(await storage.exists("place-images/p/w320n1.jpg")).toBe(false);
  });

  it("forgets a file this instance replaces or removes", async () => {
    const { storage } = freshStorage();
    const key = "place-images/p/w320n1.jpg";
    await storage.put(key, Buffer.from("old"));
    expect((await storage.get(key))?.bytes.toString()).toBe("old");
    await storage.put(key, Buffer.from("new"));
    expect((await storage.get(key))?.bytes.toString()).toBe("new");
    await storage.remove("place-images/p");
    expect(await storage.get(key)).toBeUndefined();
    expect(storage.cache.size).toBe(0);
  });

  it("does not keep bytes a concurrent write replaced", async () => {
    const { storage } = freshStorage();
    const key = "place-images/p/w320n1.jpg";
    await storage.put(key, Buffer.from("old"));
    const reading = storage.get(key);
    await storage.put(key, Buffer.from("new"));
    await reading;
    expect((await storage.get(key))?.bytes.toString()).toBe("new");
  });

  it("sees another instance's change once a cached entry is older than the TTL", async () => {
    let now = 0;
    const { prefix, storage } = freshStorage({ cacheTtlMs: 60_000, clock: () => now });
    const other = createS3Storage({ client: s3.client(), bucket: BUCKET, prefix, cacheBytes: 0 });
    const key = "place-images/p/w320n1.jpg";
    await storage.put(key, Buffer.from("first"));
    expect((await storage.get(key))?.bytes.toString()).toBe("first");
    await other.put(key, Buffer.from("second"));
    expect((await storage.get(key))?.bytes.toString()).toBe("first");
    now = 60_000;
    expect((await storage.get(key))?.bytes.toString()).toBe("second");
  });

  it("holds at most its byte budget, dropping the least recently used file first", async () => {
    const counting = countingClient();
    const { storage } = freshStorage({ cacheBytes: 30_000, client: counting.client });
    const keys = Array.from({ length: 10 }, (_, i) => `place-images/p/w320n${i + 1}.jpg`);
    for (const [i, key] of keys.entries()) await storage.put(key, Buffer.alloc(3_000, i));
    for (const key of keys) await storage.get(key);
    expect(storage.cache.bytes).toBe(30_000);
    await storage.get(keys[0]!); // a hit: now the most recent
    await storage.put("place-images/p/w320n11.jpg", Buffer.alloc(3_000));
    await storage.get("place-images/p/w320n11.jpg");
    expect(storage.cache.bytes).toBeLessThanOrEqual(30_000);
    counting.reset();
    const requests = counting.requests;
    await storage.get(keys[0]!);
    expect(requests("GetObjectCommand")).toBe(0);
    await storage.get(keys[1]!); // the least recently used went
    expect(requests("GetObjectCommand")).toBe(1);
  });

  it("does not keep a file larger than an eighth of the budget", async () => {
    const { storage } = freshStorage({ cacheBytes: 8_000 });
    await storage.put("place-images/p/w1280n1.jpg", Buffer.alloc(1_001));
    await storage.get("place-images/p/w1280n1.jpg");
    expect(storage.cache.size).toBe(0);
  });
});
