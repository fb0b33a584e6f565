/**
 * A snapshot read back answers exactly as the index it was written from (docs/operations.md, "Search
 * index"), with changes applied before it was written and after it was read; a damaged file is
 * refused with an error that names the problem.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { SearchQuery } from "../../domain/search";
import type { NewLocationRow } from "../db/schema";
import { SearchIndex, createSearchIndex } from "./search-index";
import { readSnapshot, SNAPSHOT_FORMAT } from "./snapshot";
import { searchRowFromLocation } from "./source-row";
import { austinQuery, demoRowsAround, townAt } from "./test-support";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-snapshot-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TOWNS = [
  townAt(30.2672, -97.7431, "Austin", "TX"),
  townAt(29.76, -95.37, "Houston", "TX"),
  townAt(34.05, -118.24, "Los Angeles", "CA"),
];
const INFO = { horizon: "1234", database: "7713150837630664746", takenAt: Date.UTC(2026, 10, 28) };

async function roundTrip(index: SearchIndex, name: string): Promise<SearchIndex> {
  const file = path.join(dir, name);
  await index.saveTo(file, INFO);
  const loaded = await readSnapshot(file);
  expect(loaded?.info).toEqual({ ...INFO, skipped: index.skipped });
  return new SearchIndex(loaded!.columns, { source: "database", skipped: loaded!.info.skipped });
}

const QUERIES: Partial<SearchQuery>[] = [
  {},
  { sort: "rating", pageSize: 50 },
  { sort: "price", rv: { lengthFeet: 35 } },
  { q: "storage", radius: 500 },
  { q: "SEÑ", radius: 3000 },
  { available: true, radius: 3000, pageSize: 100 },
  { lat: 34.05, lng: -118.24, radius: 50, sizes: ["10x20"] },
  { pageSize: 0, radius: 3000 },
];

function sameAnswers(a: SearchIndex, b: SearchIndex, now: number): void {
  for (const q of QUERIES) {
    expect(b.query(austinQuery(q), { now })).toEqual(a.query(austinQuery(q), { now }));
    expect(b.query(austinQuery(q), { state: "CA", now })).toEqual(a.query(austinQuery(q), { state: "CA", now }));
  }
  expect(b.size).toBe(a.size);
  expect(b.catalogueSummary()).toEqual(a.catalogueSummary());
  expect(b.featured(6)).toEqual(a.featured(6));
  expect(b.findByText("storage tx", 30)).toEqual(a.findByText("storage tx", 30));
}

describe("search index snapshots", () => {
  it("answer as the index they were written from, before and after changes on either side", async () => {
    const rows = demoRowsAround(TOWNS, 240, 3);
    const spare = demoRowsAround(TOWNS, 40, 4).map((row, i) => ({ ...row, placeId: `spare_${i}`, slug: `spare-${i}` }));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom("edit", "delete", "insert", "unusual"), at: fc.nat() }), {
          maxLength: 12,
        }),
        fc.array(fc.record({ kind: fc.constantFrom("edit", "delete", "insert"), at: fc.nat() }), { maxLength: 6 }),
        async (before, after) => {
          const index = createSearchIndex(rows.map(searchRowFromLocation));
          const change = (target: SearchIndex[], e: { kind: string; at: number }) => {
            const row: NewLocationRow = rows[e.at % rows.length]!;
            for (const i of target) {
              if (e.kind === "delete") i.apply({ removed: [row.placeId] });
              else if (e.kind === "insert") i.apply({ rows: [searchRowFromLocation(spare[e.at % spare.length]!)] });
              else if (e.kind === "unusual")
                i.apply({ rows: [searchRowFromLocation({ ...row, name: "Señor Ünder Storage", address: null })] });
              else i.apply({ rows: [searchRowFromLocation({ ...row, name: `Edited ${e.at}`, tier: "Pro" })] });
            }
          };
          for (const e of before) change([index], e);
          const loaded = await roundTrip(index, `round-${run++}.snapshot`);
          const now = Date.now();
          sameAnswers(index, loaded, now);
          for (const e of after) change([index, loaded], e);
          sameAnswers(index, loaded, now);
          for (const row of rows) expect(loaded.has(row.placeId)).toBe(index.has(row.placeId));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("refuses a file that is not a snapshot, is cut short, or is of another format, naming the problem", async () => {
    const index = createSearchIndex(demoRowsAround(TOWNS, 50, 5).map(searchRowFromLocation));
    const file = path.join(dir, "good.snapshot");
    await index.saveTo(file, INFO);
    const bytes = fs.readFileSync(file);

    expect(await readSnapshot(path.join(dir, "missing.snapshot"))).toBeUndefined();
    const write = (name: string, data: Uint8Array | string) => {
      const target = path.join(dir, name);
      fs.writeFileSync(target, data);
      return target;
    };
    await expect(readSnapshot(write("text.snapshot", "hello"))).rejects.toThrow("not a search index snapshot");
    await expect(readSnapshot(write("short.snapshot", bytes.subarray(0, bytes.length - 8)))).rejects.toThrow(
      /bytes, its header says/,
    );
    await expect(readSnapshot(write("head.snapshot", bytes.subarray(0, 40)))).rejects.toThrow(/cut short/);
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString("utf8", 12, 12 + headerLength)) as { format: number };
    const other = Buffer.from(bytes);
    const json = JSON.stringify({ ...header, format: 99 });
    other.fill(0x20, 12, 12 + headerLength);
    other.write(json, 12);
    other.writeUInt32LE(Buffer.byteLength(json), 8);
    await expect(readSnapshot(write("format.snapshot", other))).rejects.toThrow(
      `format 99, this version reads ${SNAPSHOT_FORMAT}`,
    );
    // No temporary file is left behind by a write.
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
