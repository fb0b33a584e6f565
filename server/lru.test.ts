import { describe, expect, it } from "vitest";
import { Lru } from "./lru";

describe("Lru", () => {
  it("keeps at most max entries, dropping the least recently used", () => {
    const memory = new Lru<number>(2);
    memory.set("a", 1);
    memory.set("b", 2);
    expect(memory.get("a")).toBe(1); // "b" is now the oldest
    memory.set("c", 3);
    expect(memory.size).toBe(2);
    expect(memory.get("b")).toBeUndefined();
    expect(memory.get("a")).toBe(1);
    expect(memory.get("c")).toBe(3);
  });

  it("replaces a key's value", () => {
    const memory = new Lru<string>(2);
    memory.set("a", "old");
    memory.set("a", "new");
    expect(memory.size).toBe(1);
    expect(memory.get("a")).toBe("new");
  });
});
