import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { SAMPLE_LOCATION } from "../locations/sample";
import { getSearchIndex, refreshSearchIndex, setSearchIndex } from "./refresh";
import { createSearchIndex } from "./search-index";
import { searchRowFromLocation } from "./source-row";

/** A database whose every query fails a tick later, counting the reads. */
function failingDatabase() {
  const calls = { selects: 0, executes: 0 };
  const chain: unknown = new Proxy(() => {}, {
    get: (_target, property) =>
      property === "then"
        ? (_resolve: unknown, reject: (error: Error) => void) => setTimeout(() => reject(new Error("database down")), 5)
        : () => chain,
  });
  const db = {
    select: () => {
      calls.selects++;
      return chain;
    },
    // A rebuild first reads the change log's horizon (load.ts changeHorizon).
    execute: () => {
      calls.executes++;
      return new Promise((_resolve, reject) => setTimeout(() => reject(new Error("database down")), 5));
    },
  } as unknown as Database;
  return { db, calls };
}

const austin = {
  lat: 30.2672,
  lng: -97.7431,
  radius: 100,
  sizes: [],
  amenities: [],
  sort: "distance" as const,
  page: 1,
  pageSize: 12,
};

afterEach(() => setSearchIndex(undefined));

describe("search index lifecycle", () => {
  it("serves an index of only the sample location before any build", async () => {
    const index = getSearchIndex();
    expect(index.source).toBe("sample");
    expect(index.size).toBe(1);
    expect(index.query(austin).items.map((item) => item.id)).toEqual([SAMPLE_LOCATION.placeId]);
    const { db } = failingDatabase();
    expect(await refreshSearchIndex(db)).toBe(getSearchIndex());
    expect(getSearchIndex().source).toBe("sample");
  });

  it("keeps serving the previous index when a rebuild fails", async () => {
    const previous = createSearchIndex([searchRowFromLocation({ ...SAMPLE_LOCATION, placeId: "kept", slug: "kept" })]);
    setSearchIndex(previous);
    const { db } = failingDatabase();
    expect(await refreshSearchIndex(db)).toBe(previous);
    expect(getSearchIndex()).toBe(previous);
  });

  it("folds refreshes asked for before a rebuild starts into it, and those asked while it runs into one follow-up", async () => {
    const { db, calls } = failingDatabase();
    const waiting = [refreshSearchIndex(db), refreshSearchIndex(db)];
    while (calls.executes === 0) await new Promise((resolve) => setImmediate(resolve));
    const during = [refreshSearchIndex(db), refreshSearchIndex(db), refreshSearchIndex(db)];
    await Promise.all([...waiting, ...during]);
    expect(calls.executes).toBe(2);
  });
});

describe("notifyLocationsChanged", () => {
  it("resolves without a database connection", async () => {
    const { notifyLocationsChanged } = await import("./notify");
    await expect(notifyLocationsChanged()).resolves.toBeUndefined();
  });
});
