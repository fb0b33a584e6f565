import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage } from "./local-storage";
import { imageStorageContract } from "../../tests/setup/image-storage-contract";
import { assertValidKey } from "./storage";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "image-storage-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("local storage", () => {
  imageStorageContract(async () => ({
    storage: createLocalStorage(root),
    everything: async () => fs.readdirSync(root, { recursive: true, encoding: "utf8" }),
  }));

  it("keeps one file per key under the root and drops emptied folders", async () => {
    const storage = createLocalStorage(root);
    await storage.put("place-images/p1/w320n1.avif", Buffer.from("one"));
    expect(fs.readFileSync(path.join(root, "place-images/p1/w320n1.avif"), "utf8")).toBe("one");
    expect(await storage.remove("place-images/p1")).toBe(1);
    expect(fs.existsSync(path.join(root, "place-images/p1"))).toBe(false);
  });

  it("leaves no temporary files after concurrent writes", async () => {
    const storage = createLocalStorage(root);
    const key = "place-images/p/w640n1.jpg";
    await Promise.all(Array.from({ length: 20 }, (_, i) => storage.put(key, Buffer.alloc(10_000, i))));
    expect(fs.readdirSync(path.join(root, "place-images/p"))).toEqual(["w640n1.jpg"]);
  });

  it("does not list hidden (temporary) files", async () => {
    const storage = createLocalStorage(root);
    fs.mkdirSync(path.join(root, "place-images/p"), { recursive: true });
    fs.writeFileSync(path.join(root, "place-images/p/.w320n1.avif.123.tmp"), "partial");
    expect(await storage.list("place-images/p")).toEqual([]);
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
