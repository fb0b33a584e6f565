import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { createS3Client, type S3Settings } from "../../server/files/s3";

export interface S3Sink {
  /** `http://127.0.0.1:PORT`. */
  endpoint: string;
  /** Settings for `bucket` (created by createBucket), with s3rver's fixed credentials. */
  settings(bucket: string, prefix?: string): S3Settings;
  /** The S3_* variables for `bucket`, as an operator would set them. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** A new client: a separate connection pool, as another instance of the site has. */
  client(): S3Client;
  createBucket(name: string): Promise<void>;
  /** Every key in the bucket (under `prefix`), sorted. */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  /** Keys written by PUT since start, in order (s3rver's event notifications). */
  puts: string[];
  close(): Promise<void>;
}

let desPatched = false;

/**
 * s3rver encrypts its ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node 17
 * and later) only has in its legacy provider, so every truncated listing fails with a 500
 * (docs/decisions/020-object-storage-s3.md). Triple DES with the key three times over is the same cipher (EDE
 * with K1 = K2 = K3 is single DES) and is still in the default provider: map the one to the other,
 * in this test process only.
 */
function patchDesForS3rver(): void {
  if (desPatched) return;
  desPatched = true;
  const tripled = (key: crypto.CipherKey) => Buffer.concat([key as Buffer, key as Buffer, key as Buffer]);
  const { createCipheriv, createDecipheriv } = crypto;
  type Factory = (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) => unknown;
  const wrap =
    (original: Factory): Factory =>
    (algorithm, key, iv) =>
      algorithm === "des" ? original("des-ede3-cbc", tripled(key), iv) : original(algorithm, key, iv);
  crypto.createCipheriv = wrap(createCipheriv as Factory) as typeof createCipheriv;
  crypto.createDecipheriv = wrap(createDecipheriv as Factory) as typeof createDecipheriv;
}

/**
 * s3rver (an S3 stand-in on the local filesystem, ADR 020) on 127.0.0.1 and a free port, storing
 * into a temporary folder that close() removes. Bucket names need 3 or more characters.
 */
export async function startS3(): Promise<S3Sink> {
  patchDesForS3rver();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const puts: string[] = [];
  server.on("event", (event) => {
    for (const record of event.Records) if (record.eventName === "ObjectCreated:Put") puts.push(record.s3.object.key);
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (bucket: string, prefix = ""): S3Settings => ({
    bucket,
    endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    prefix,
  });
  const admin = createS3Client(settings("admin"));
  return {
    endpoint,
    settings,
    env: (bucket, prefix) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    client: () => createS3Client(settings("any")),
    async createBucket(name) {
      await admin.send(new CreateBucketCommand({ Bucket: name }));
    },
    async keys(bucket, prefix = "") {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await admin.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    puts,
    async close() {
      admin.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
