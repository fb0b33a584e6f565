import { createHash } from "node:crypto";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { S3Settings } from "./s3-settings";

/**
 * The S3 plumbing both object-store drivers share: the photo storage (server/images/s3-storage.ts)
 * and the private store for claim evidence (server/files/s3-private-store.ts). Settings come from
 * S3_* (docs/operations.md, "Object storage"). Only loaded when S3_BUCKET is set: the SDK is heavy.
 */

export type { S3Settings } from "./s3-settings";

export function createS3Client(settings: S3Settings): S3Client {
  // The SDK warns on every start under Node 20 that its 2027 releases will need Node 22. Its
  // maintainers' documented switch turns that off; an operator who sets the variable keeps their
  // choice (docs/decisions/020-object-storage-s3.md).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // A stuck connection must not hold a visitor's request for minutes.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    maxAttempts: 3,
  });
}

let shared: { key: string; client: S3Client } | undefined;

/** One client (one connection pool) per process for the given settings. */
export function sharedS3Client(settings: S3Settings): S3Client {
  const key = JSON.stringify(settings);
  if (shared?.key !== key) shared = { key, client: createS3Client(settings) };
  return shared.client;
}

/** A bucket and a folder in it: every key a driver is given is stored as `{prefix}{key}`. */
export interface S3Folder {
  client: S3Client;
  bucket: string;
  /** "" or a folder ending in "/". */
  prefix: string;
}

export function s3Folder(client: S3Client, bucket: string, ...folders: string[]): S3Folder {
  const parts = folders.filter((folder) => folder !== "");
  return { client, bucket, prefix: parts.length > 0 ? `${parts.join("/")}/` : "" };
}

/**
 * The largest object a driver reads into memory. Photos' files are well under 1 MB and evidence
 * files at most 10 MB; anything bigger in the bucket was not written by the site.
 */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

/** The SHA-1 of an object's bytes (base64url), stored with it as metadata by putObject. */
export const SHA1_METADATA = "sha1";

export function sha1Of(bytes: Uint8Array): string {
  return createHash("sha1").update(bytes).digest("base64url");
}

/** One PUT: S3 makes the new object visible whole or not at all. */
export async function putObject(
  folder: S3Folder,
  key: string,
  bytes: Uint8Array,
  contentType = "application/octet-stream",
): Promise<void> {
  await folder.client.send(
    new PutObjectCommand({
      Bucket: folder.bucket,
      Key: folder.prefix + key,
      Body: bytes,
      ContentLength: bytes.length,
      ContentType: contentType,
      Metadata: { [SHA1_METADATA]: sha1Of(bytes) },
    }),
  );
}

export interface FetchedObject {
  bytes: Buffer;
  lastModified: Date;
}

export async function getObject(folder: S3Folder, key: string): Promise<FetchedObject | undefined> {
  let response;
  try {
    response = await folder.client.send(new GetObjectCommand({ Bucket: folder.bucket, Key: folder.prefix + key }));
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
  if (!response.Body) return undefined;
  if ((response.ContentLength ?? 0) > MAX_OBJECT_BYTES) {
    // Not read: drop the connection's body instead of buffering it.
    (response.Body as { destroy?: () => void }).destroy?.();
    throw new Error(`Object ${key} is ${response.ContentLength} bytes, more than ${MAX_OBJECT_BYTES} allowed`);
  }
  const array = await response.Body.transformToByteArray();
  return {
    bytes: Buffer.from(array.buffer, array.byteOffset, array.byteLength),
    lastModified: response.LastModified ?? new Date(0),
  };
}

export interface ObjectHead {
  size: number;
  /** SHA1_METADATA as putObject stored it; undefined for objects written by other tools. */
  sha1: string | undefined;
}

export async function headObject(folder: S3Folder, key: string): Promise<ObjectHead | undefined> {
  try {
    const head = await folder.client.send(new HeadObjectCommand({ Bucket: folder.bucket, Key: folder.prefix + key }));
    return { size: head.ContentLength ?? 0, sha1: head.Metadata?.[SHA1_METADATA] };
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}

/** Deleting a missing object is not an error in S3. */
export async function deleteObject(folder: S3Folder, key: string): Promise<void> {
  await folder.client.send(new DeleteObjectCommand({ Bucket: folder.bucket, Key: folder.prefix + key }));
}

/** The most keys one DeleteObjects request takes. */
const DELETE_BATCH = 1000;

export async function deleteObjects(folder: S3Folder, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    const result = await folder.client.send(
      new DeleteObjectsCommand({
        Bucket: folder.bucket,
        Delete: { Objects: batch.map((key) => ({ Key: folder.prefix + key })), Quiet: true },
      }),
    );
    const failed = result.Errors ?? [];
    if (failed.length > 0)
      throw new Error(
        `Could not delete ${failed.length} object(s), e.g. ${failed[0]?.Key}: ${failed[0]?.Code} ${failed[0]?.Message}`,
      );
  }
}

/**
 * Every key under the folder `folder` (given without its trailing slash), relative to the
 * S3Folder's prefix, in S3's order; follows ListObjectsV2's continuation tokens. `pageSize` is
 * S3's MaxKeys (at most 1000; tests pass a small one).
 */
export async function listKeys(folder: S3Folder, under: string, pageSize = 1000): Promise<string[]> {
  const keys: string[] = [];
  const prefix = `${folder.prefix}${under}/`;
  let token: string | undefined;
  do {
    const page = await folder.client.send(
      new ListObjectsV2Command({ Bucket: folder.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: pageSize }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key?.startsWith(prefix)) keys.push(object.Key.slice(folder.prefix.length));
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/**
 * A missing object: NoSuchKey (GET) or a bare 404 (HEAD has no body to name it). A missing bucket
 * is a configuration error and is thrown, never read as "no such file".
 */
function isMissingObject(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === "NoSuchBucket") return false;
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
}
