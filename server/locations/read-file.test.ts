import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportFileError, openLocationFile, sniffFormat, type SourceRow } from "./read-file";

const FIXTURES = path.resolve("tests/fixtures/import");
const fixture = (name: string) => path.join(FIXTURES, name);

async function readAll(file: string): Promise<SourceRow[]> {
  const source = await openLocationFile(file);
  const rows: SourceRow[] = [];
  for await (const row of source.rows) rows.push(row);
  return rows;
}

const summary = (rows: SourceRow[]) =>
  rows.map((r) => ("error" in r ? { row: r.row, error: r.error } : { row: r.row, place_id: r.record.place_id }));

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "read-file-"));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function tempFile(name: string, content: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

describe("openLocationFile", () => {
  it("numbers CSV records as spreadsheet rows, skipping blank ones", async () => {
    const rows = await readAll(fixture("good.csv"));
    expect(summary(rows)).toEqual([
      { row: 2, place_id: "ChIJgood-austin-0001" },
      { row: 4, place_id: "ChIJgood-denver-0002" },
      { row: 5, place_id: "ChIJgood-nocoords-0003" },
    ]);
    const first = rows[0] as { record: Record<string, unknown> };
    expect(first.record.name).toBe('Joe\'s "Big Rig" RV Storage, North Lot');
    expect(first.record.description).toBe('Gated lot.\nLine two, with a comma.\r\nLine three with "quotes".');
  });

  it("numbers JSON records by position and NDJSON records by line", async () => {
    expect(summary(await readAll(fixture("good.json")))).toEqual([
      { row: 1, place_id: "ChIJjson-phoenix-0001" },
      { row: 2, place_id: "ChIJjson-tucson-0002" },
    ]);
    expect(summary(await readAll(fixture("good.ndjson")))).toEqual([
      { row: 1, place_id: "ChIJndjson-reno-0001" },
      { row: 3, place_id: "ChIJndjson-vegas-0002" },
    ]);
  });

  it("yields a malformed NDJSON line as an error row and goes on", async () => {
    const rows = summary(await readAll(fixture("bad.ndjson")));
    expect(rows).toHaveLength(8);
    expect(rows[6]).toEqual({ row: 8, error: expect.stringMatching(/^is not valid JSON \(/) });
    expect(rows[7]).toEqual({ row: 9, place_id: "ChIJbad-good-0009" });
  });

  it("yields a CSV row with more cells than the header as an error row", async () => {
    const rows = summary(await readAll(fixture("bad.csv")));
    expect(rows.find((r) => r.row === 7)).toEqual({ row: 7, error: "has 13 fields but the header has 12" });
  });

  it("accepts JSON arrays and NDJSON without a known extension", async () => {
    const array = tempFile("array.txt", '\uFEFF[{"place_id": "ChIJa"}, 42]');
    expect(summary(await readAll(array))).toEqual([
      { row: 1, place_id: "ChIJa" },
      { row: 2, error: "is not a JSON object" },
    ]);
    const lines = tempFile("lines.data", '{"place_id": "ChIJb"}\r\n[1]\r\n');
    expect(summary(await readAll(lines))).toEqual([
      { row: 1, place_id: "ChIJb" },
      { row: 2, error: "is not a JSON object" },
    ]);
  });

  it("sniffs the format from the first characters", () => {
    expect(sniffFormat("[{")).toBe("json");
    expect(sniffFormat('{"locations": [\n')).toBe("json");
    expect(sniffFormat('{"locations": []}')).toBe("json");
    expect(sniffFormat('{"place_id": "x"}\n{"place_id": "y"}')).toBe("ndjson");
    expect(sniffFormat("place_id,name\n")).toBe("csv");
  });

  it.each([
    ["missing.csv", /missing\.csv: no such file/],
    ["empty.csv", /empty\.csv: the file is empty/],
    ["no-place-id.csv", /no-place-id\.csv: the header \(line 1\) has no place_id column \(found: id, name\)/],
    ["broken.json", /broken\.json: is not valid JSON \(/],
  ])("refuses %s with a clear message", async (name, message) => {
    const error = await openLocationFile(fixture(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(message);
  });

  it("refuses a JSON document that holds no list of locations, and a repeated CSV column", async () => {
    await expect(openLocationFile(tempFile("object.json", '{"places": []}'))).rejects.toThrow(
      /expected a JSON array of locations/,
    );
    await expect(openLocationFile(tempFile("twice.csv", "place_id,name,Name\n"))).rejects.toThrow(
      /names the column name twice/,
    );
  });

  it("fails while reading when a quoted CSV field never ends", async () => {
    const file = tempFile("open-quote.csv", 'place_id,name\nChIJok,Fine\nChIJbad,"never closed\n');
    await expect(readAll(file)).rejects.toThrow(
      new ImportFileError(`${file}: unterminated quoted field starting on line 3 (a " without its closing ")`),
    );
  });

  it("warns when the file is not UTF-8", async () => {
    const file = path.join(tmp, "latin1.csv");
    fs.writeFileSync(file, Buffer.from("place_id,name\nChIJx,Caf\xe9\n", "latin1"));
    const source = await openLocationFile(file);
    for await (const row of source.rows) void row;
    expect(source.warnings).toEqual([expect.stringMatching(/not valid UTF-8/)]);
  });
});
