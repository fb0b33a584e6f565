import { expect, it } from "vitest";
import { InvalidStorageKeyError, assertValidKey, etagOf, type ImageStorage } from "../../server/images/storage";

export interface StorageUnderTest {
  storage: ImageStorage;
  /** Every object the driver holds, by its own naming (files under the root, keys in the bucket). */
  everything(): Promise<string[]>;
}

/**
 * The behaviour every ImageStorage driver must have (server/images/storage.ts), run by each
 * driver's test file inside its own describe(). `create` gives an empty storage for each test.
 */
export function imageStorageContract(create: () => Promise<StorageUnderTest>): void {
  it("puts, gets, lists and removes by key, with folder semantics", async () => {
    const { storage } = await create();
    await storage.put("place-images/p1/w320n1.avif", Buffer.from("one"));
    await storage.put("place-images/p1/w320n10.avif", Buffer.from("ten"));
    await storage.put("place-images/p2/w320n1.avif", Buffer.from("other"));

    const object = await storage.get("place-images/p1/w320n1.avif");
    expect(object?.bytes.toString()).toBe("one");
    expect(object?.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(object?.etag).toBe(etagOf(Buffer.from("one")));
    expect(object?.lastModified).toBeInstanceOf(Date);
    expect(await storage.get("place-images/p1/w320n2.avif")).toBeUndefined();
    expect(await storage.get("place-images/p1")).toBeUndefined();
    expect(await storage.exists("place-images/p1/w320n10.avif")).toBe(true);
    expect(await storage.exists("place-images/p1")).toBe(false);

    expect(await storage.list("place-images/p1")).toEqual([
      "place-images/p1/w320n1.avif",
      "place-images/p1/w320n10.avif",
    ]);
    expect(await storage.list("place-images/p1/")).toHaveLength(2);
    expect(await storage.list("place-images")).toHaveLength(3);
    expect(await storage.list("place-images/none")).toEqual([]);
    // A folder is a whole segment: p1 is not a prefix of p10's keys.
    await storage.put("place-images/p10/w320n1.avif", Buffer.from("p10"));
    expect(await storage.list("place-images/p1")).toHaveLength(2);

    // A key is removed on its own: w320n1 never takes w320n10 with it.
    expect(await storage.remove("place-images/p1/w320n1.avif")).toBe(1);
    expect(await storage.list("place-images/p1")).toEqual(["place-images/p1/w320n10.avif"]);
    expect(await storage.remove("place-images/p1/w320n1")).toBe(0);
    expect(await storage.exists("place-images/p1/w320n10.avif")).toBe(true);
    expect(await storage.remove("place-images/p1")).toBe(1);
    expect(await storage.remove("place-images/p1")).toBe(0);
    expect(await storage.list("place-images")).toEqual(["place-images/p10/w320n1.avif", "place-images/p2/w320n1.avif"]);
  });

  it("replaces a file whole, and reads the new bytes after a put or nothing after a remove", async () => {
    const { storage } = await create();
    const key = "place-images/p/w640n1.jpg";
    await Promise.all(Array.from({ length: 20 }, (_, i) => storage.put(key, Buffer.alloc(10_000, i))));
    const bytes = (await storage.get(key))?.bytes ?? Buffer.alloc(0);
    expect(bytes.length).toBe(10_000);
    expect(new Set(bytes).size).toBe(1); // one whole write, not a mix
    expect(await storage.list("place-images/p")).toEqual([key]);

    await storage.put(key, Buffer.from("new"));
    const replaced = await storage.get(key);
    expect(replaced?.bytes.toString()).toBe("new");
    expect(replaced?.etag).toBe(etagOf(Buffer.from("new")));
    expect(await storage.remove("place-images/p")).toBe(1);
    expect(await storage.get(key)).toBeUndefined();
    expect(await storage.exists(key)).toBe(false);
  });

  it("removes a folder with nested folders and counts what went", async () => {
    const { storage } = await create();
    for (const key of ["blog-images/a/w320.jpg", "blog-images/a/x/w640.jpg", "blog-images/ab/w320.jpg"])
      await storage.put(key, Buffer.from(key));
    expect(await storage.remove("blog-images/a/")).toBe(2);
    expect(await storage.list("blog-images")).toEqual(["blog-images/ab/w320.jpg"]);
  });

  it.each([
    ["", "empty"],
    ["../secret", '".." is not allowed'],
    ["place-images/../../etc/passwd", '".." is not allowed'],
    ["place-images/./x", '"." is not allowed'],
    ["/etc/passwd", "absolute paths are not allowed"],
    ["place-images//x", "empty path segment"],
    ["place-images\\..\\x", "characters outside"],
    ["C:/x", "characters outside"],
    ["place-images/.hidden", "characters outside"],
    ["place images/x", "characters outside"],
    ["place-images/x\u0000", "characters outside"],
    ["x".repeat(513), "longer than 512"],
  ])("rejects the key %j (%s) in every operation", async (key, reason) => {
    const { storage, everything } = await create();
    expect(() => assertValidKey(key)).toThrow(reason);
    await expect(storage.put(key, Buffer.from("x"))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.exists(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.list(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(await everything()).toEqual([]);
  });
}
