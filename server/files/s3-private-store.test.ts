import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type S3Sink } from "../../tests/setup/s3";
import { getPrivateStore } from ".";
import { createS3PrivateStore } from "./s3-private-store";
import { createS3Client } from "./s3";

const BUCKET = "evidence";
let s3: S3Sink;
beforeAll(async () => {
  s3 = await startS3();
  await s3.createBucket(BUCKET);
});
afterAll(async () => {
  await s3?.close();
});

const CLAIM = "claims/0b6f6a3e-1f7a-4a51-9a0e-5d2c8e1e8a11/2f0d4a52-7c1e-4a8b-9d1e-0e0f3c6b2a77";

describe("the S3 private store", () => {
  it("puts, gets, replaces and deletes a file under {prefix}/private/", async () => {
    const store = createS3PrivateStore({ client: s3.client(), bucket: BUCKET, prefix: "site" });
    expect(await store.get(CLAIM)).toBeNull();
    await store.put(CLAIM, new Uint8Array([1, 2, 3]));
    expect(await s3.keys(BUCKET, "site/")).toEqual([`site/private/${CLAIM}`]);
    expect(await store.get(CLAIM)).toEqual(new Uint8Array([1, 2, 3]));
    await store.put(CLAIM, new Uint8Array([4]));
    expect(await store.get(CLAIM)).toEqual(new Uint8Array([4]));
    await store.delete(CLAIM);
    expect(await store.get(CLAIM)).toBeNull();
    await store.delete(CLAIM); // a missing file is not an error
    expect(await s3.keys(BUCKET, "site/")).toEqual([]);
  });

  it.each(["../x", "claims/../../etc", "Claims/x", "claims/x.pdf", "/claims/x", "claims//x", ""])(
    "refuses the key %j in every operation and writes nothing",
    async (key) => {
      const store = createS3PrivateStore({ client: s3.client(), bucket: BUCKET, prefix: "keys" });
      await expect(store.put(key, new Uint8Array([1]))).rejects.toThrow(/Invalid private storage key/);
      await expect(store.get(key)).rejects.toThrow(/Invalid private storage key/);
      await expect(store.delete(key)).rejects.toThrow(/Invalid private storage key/);
      expect(await s3.keys(BUCKET, "keys/")).toEqual([]);
    },
  );

  it("is what getPrivateStore() gives when S3_BUCKET is set, and a second instance reads its files", async () => {
    Object.assign(process.env, s3.env(BUCKET, "app"));
    const store = getPrivateStore();
    await store.put(CLAIM, new Uint8Array([9, 9]));
    expect(await s3.keys(BUCKET, "app/")).toEqual([`app/private/${CLAIM}`]);
    const other = createS3PrivateStore({ client: createS3Client(s3.settings(BUCKET)), bucket: BUCKET, prefix: "app" });
    expect(await other.get(CLAIM)).toEqual(new Uint8Array([9, 9]));
  });
});
