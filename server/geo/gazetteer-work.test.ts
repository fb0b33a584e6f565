import { describe, expect, it, vi } from "vitest";
import { getGazetteer } from "./index";

const g = getGazetteer();

/**
 * The words one call joins back into text, a step count for the work spent on the text's words:
 * trying each cut of n words as "town, then state" joins O(n) words n times.
 */
function wordsJoinedBy(run: () => unknown): number {
  const spy = vi.spyOn(Array.prototype, "join");
  run();
  const joined = (spy.mock.contexts as unknown[][]).reduce((sum, words) => sum + words.length, 0);
  spy.mockRestore();
  return joined;
}

describe("suggest on long text", () => {
  it("tries a state only in the last few words, however many words come first", () => {
    // Every cut of "w w w ... tx" used to be tried as "town, then state", each copying the words.
    const joined = (words: number) => wordsJoinedBy(() => g.suggest(`${"w ".repeat(words)}tx`, 5));
    const short = joined(5);
    const long = joined(5000);
    expect(short).toBeGreaterThan(0);
    // Linear: the words are joined a fixed number of times (the key, the last few cuts).
    expect(long - short).toBeLessThanOrEqual(10 * (5000 - 5));
  });

  it("still finds a town followed by a state name of several words", () => {
    expect(g.suggest("portland new y", 3).map((p) => `${p.name}, ${p.state}`)).toContain("Portland, NY");
    expect(g.suggest("washington district of col", 3).map((p) => `${p.name}, ${p.state}`)).toContain("Washington, DC");
  });
});
