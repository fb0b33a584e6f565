import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runScript } from "../../tests/setup/cli";
import { startS3, type S3Sink } from "../../tests/setup/s3";
import { createLocalStorage } from "../images/local-storage";
import { createS3Storage } from "../images/s3-storage";
import { copyFilesToS3 } from "./copy-to-s3";
import { createS3PrivateStore } from "./s3-private-store";

const BUCKET = "migrate";
const EVIDENCE = "claims/0b6f6a3e-1f7a-4a51-9a0e-5d2c8e1e8a11/2f0d4a52-7c1e-4a8b-9d1e-0e0f3c6b2a77";
let s3: S3Sink;
let client: S3Client;
let dataDir: string;

beforeAll(async () => {
  s3 = await startS3();
  await s3.createBucket(BUCKET);
  client = s3.client();
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "files-to-s3-"));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dataDir, file)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, file), text);
  };
  write("place-images/ChIJa/w320n1.jpg", "photo 1");
  write("place-images/ChIJa/w320n1.avif", "photo 1 avif");
  write("place-images/ChIJa/.w640n1.jpg.123.tmp", "half a write");
  write("blog-images/cover/w320.webp", "cover");
  write(`private/${EVIDENCE}`, "evidence");
  write(`private/${EVIDENCE}.0b6f6a3e.tmp`, "half an upload");
  write("pglite/PG_VERSION", "not a file the site serves");
  return () => fs.rmSync(dataDir, { recursive: true, force: true });
});

const counts = (reports: Awaited<ReturnType<typeof copyFilesToS3>>) =>
  Object.fromEntries(reports.map((r) => [r.area, [r.copied, r.unchanged, r.skipped.length]]));

describe("copying DATA_DIR's files into the bucket", () => {
  it("puts images under their keys and evidence under private/, where the S3 drivers read them", async () => {
    const reports = await copyFilesToS3({ dataDir, client, bucket: BUCKET, prefix: "one" });
    expect(counts(reports)).toEqual({ "place-images": [2, 0, 0], "blog-images": [1, 0, 0], private: [1, 0, 1] });
    expect(reports.find((r) => r.area === "private")?.skipped).toEqual([`private/${EVIDENCE}.0b6f6a3e.tmp`]);
    expect(await s3.keys(BUCKET, "one/")).toEqual([
      "one/blog-images/cover/w320.webp",
      "one/place-images/ChIJa/w320n1.avif",
      "one/place-images/ChIJa/w320n1.jpg",
      `one/private/${EVIDENCE}`,
    ]);

    const images = createS3Storage({ client, bucket: BUCKET, prefix: "one" });
    const local = await createLocalStorage(dataDir).get("place-images/ChIJa/w320n1.jpg");
    const copied = await images.get("place-images/ChIJa/w320n1.jpg");
    expect(copied?.bytes.toString()).toBe("photo 1");
    expect(copied?.etag).toBe(local?.etag);
    const evidence = await createS3PrivateStore({ client, bucket: BUCKET, prefix: "one" }).get(EVIDENCE);
    expect(Buffer.from(evidence ?? []).toString()).toBe("evidence");
  });

  it("copies again only what is new or changed", async () => {
    await copyFilesToS3({ dataDir, client, bucket: BUCKET, prefix: "two" });
    const puts = s3.puts.length;
    expect(counts(await copyFilesToS3({ dataDir, client, bucket: BUCKET, prefix: "two" }))).toEqual({
      "place-images": [0, 2, 0],
      "blog-images": [0, 1, 0],
      private: [0, 1, 1],
    });
    expect(s3.puts.length).toBe(puts);
    fs.writeFileSync(path.join(dataDir, "place-images/ChIJa/w320n1.jpg"), "photo 1, re-ingested");
    expect(counts(await copyFilesToS3({ dataDir, client, bucket: BUCKET, prefix: "two" }))["place-images"]).toEqual([
      1, 1, 0,
    ]);
    const stored = await createS3Storage({ client, bucket: BUCKET, prefix: "two" }).get(
      "place-images/ChIJa/w320n1.jpg",
    );
    expect(stored?.bytes.toString()).toBe("photo 1, re-ingested");
  });

  it("writes nothing in a dry run", async () => {
    const reports = await copyFilesToS3({ dataDir, client, bucket: BUCKET, prefix: "three", dryRun: true });
    expect(counts(reports)["place-images"]).toEqual([2, 0, 0]);
    expect(await s3.keys(BUCKET, "three/")).toEqual([]);
  });
});

describe("npm run files:to-s3", () => {
  it("prints the counts per folder, and exits 2 when it skipped a file", async () => {
    const outcome = await runScript("files-to-s3.ts", [], { dataDir, env: s3.env(BUCKET, "cli") });
    expect(outcome.stderr).toBe("");
    expect(outcome.stdout).toContain(`-> s3://${BUCKET}/cli/`);
    expect(outcome.stdout).toContain("place-images: 2 copied, 0 already in the bucket");
    expect(outcome.stdout).toContain("blog-images: 1 copied, 0 already in the bucket");
    expect(outcome.stdout).toContain(
      "private: 1 copied, 0 already in the bucket, 1 skipped (not a stored file's name)",
    );
    expect(outcome.code).toBe(2);
    expect(await s3.keys(BUCKET, "cli/")).toHaveLength(4);
  });

  it("refuses to run without S3_BUCKET", async () => {
    const outcome = await runScript("files-to-s3.ts", [], { dataDir });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("S3_BUCKET is not set");
  });
});
