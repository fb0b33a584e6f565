import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage } from "./local-storage";
import { InvalidStorageKeyError, assertValidKey } from "./storage";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "image-storage-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("local storage", () => {
  it("puts, gets, lists and removes by key", async () => {
    const storage = createLocalStorage(root);
    await storage.put("place-images/p1/w320n1.avif", Buffer.from("one"));
    await storage.put("place-images/p1/w320n10.avif", Buffer.from("ten"));
    await storage.put("place-images/p2/w320n1.avif", Buffer.from("other"));

    expect(fs.readFileSync(path.join(root, "place-images/p1/w320n1.avif"), "utf8")).toBe("one");
    const object = await storage.get("place-images/p1/w320n1.avif");
    expect(object?.bytes.toString()).toBe("one");
    expect(object?.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
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

    // A key is removed on its own: w320n1 never takes w320n10 with it.
    expect(await storage.remove("place-images/p1/w320n1.avif")).toBe(1);
    expect(await storage.list("place-images/p1")).toEqual(["place-images/p1/w320n10.avif"]);
    expect(await storage.remove("place-images/p1")).toBe(1);
    expect(fs.existsSync(path.join(root, "place-images/p1"))).toBe(false);
    expect(await storage.remove("place-images/p1")).toBe(0);
    expect(await storage.list("place-images")).toEqual(["place-images/p2/w320n1.avif"]);
  });

  it("replaces atomically and leaves no temporary files", async () => {
    const storage = createLocalStorage(root);
    const key = "place-images/p/w640n1.jpg";
    await Promise.all(Array.from({ length: 20 }, (_, i) => storage.put(key, Buffer.alloc(10_000, i))));
    const bytes = (await storage.get(key))?.bytes ?? Buffer.alloc(0);
    expect(bytes.length).toBe(10_000);
    expect(new Set(bytes).size).toBe(1); // one whole write, not a mix
    expect(fs.readdirSync(path.join(root, "place-images/p"))).toEqual(["w640n1.jpg"]);
  });

  it("does not list hidden (temporary) files", async () => {
    const storage = createLocalStorage(root);
    fs.mkdirSync(path.join(root, "place-images/p"), { recursive: true });
    fs.writeFileSync(path.join(root, "place-images/p/.w320n1.avif.123.tmp"), "partial");
    expect(await storage.list("place-images/p")).toEqual([]);
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
  ])("rejects the key %j (%s) in every operation", async (key, reason) => {
    const storage = createLocalStorage(root);
    expect(() => assertValidKey(key)).toThrow(reason);
    await expect(storage.put(key, Buffer.from("x"))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.exists(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.list(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it("never resolves an accepted key outside the root", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._\\/-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        const key = parts.join("/");
        let valid = true;
        try {
          assertValidKey(key);
        } catch {
          valid = false;
        }
        if (!valid) return;
        const resolved = path.resolve(root, ...key.split("/"));
        expect(resolved.startsWith(root + path.sep)).toBe(true);
        expect(key.split("/")).not.toContain("..");
      }),
    );
  });
});
