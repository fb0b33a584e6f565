import { describe, expect, it } from "vitest";
import { LastGood } from "./last-good";

describe("LastGood", () => {
  it("keeps at most max entries, dropping the least recently used", () => {
    const memory = new LastGood<number>(2);
    memory.remember("a", 1);
    memory.remember("b", 2);
    expect(memory.recall("a")).toBe(1); // "b" is now the oldest
    memory.remember("c", 3);
    expect(memory.size).toBe(2);
    expect(memory.recall("b")).toBeUndefined();
    expect(memory.recall("a")).toBe(1);
    expect(memory.recall("c")).toBe(3);
  });

  it("replaces a key's value", () => {
    const memory = new LastGood<string>(2);
    memory.remember("a", "old");
    memory.remember("a", "new");
    expect(memory.size).toBe(1);
    expect(memory.recall("a")).toBe("new");
  });
});
