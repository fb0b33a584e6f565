import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvError, CsvParser, formatCsvRow, parseCsv } from "./csv";

/** Feeds the text in pieces cut at the given positions, as a file stream would. */
function parseInChunks(text: string, cuts: number[]): string[][] {
  const parser = new CsvParser();
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const records: string[][] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    records.push(...parser.write(text.slice(from, point)));
    from = point;
  }
  return [...records, ...parser.end()];
}

describe("parseCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks", () => {
    const text = 'id,name,notes\r\n1,"Joe\'s ""Big"" Lot, North","line one\r\nline two"\r\n2,Plain,\r\n';
    expect(parseCsv(text)).toEqual([
      ["id", "name", "notes"],
      ["1", 'Joe\'s "Big" Lot, North', "line one\r\nline two"],
      ["2", "Plain", ""],
    ]);
  });

  it("strips a byte-order mark and accepts LF, CR and a missing final line break", () => {
    expect(parseCsv("\uFEFFa,b\nc,d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseCsv("a\rb\r")).toEqual([["a"], ["b"]]);
  });

  it("keeps blank lines as one empty field, so that record numbers match spreadsheet rows", () => {
    expect(parseCsv("a\n\nb\n")).toEqual([["a"], [""], ["b"]]);
  });

  it("keeps a stray quote inside an unquoted field as text", () => {
    expect(parseCsv('5" wide,x\n')).toEqual([['5" wide', "x"]]);
  });

  it("reports an unterminated quoted field with the line it starts on", () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(
      new CsvError('unterminated quoted field starting on line 2 (a " without its closing ")'),
    );
  });

  it("gives the same records however the text is cut into chunks", () => {
    const text = 'a,"b\r\nc",d\r\n"e""f",g\r\n\r\nh\r';
    const whole = parseCsv(text);
    for (let cut = 0; cut <= text.length; cut++) expect(parseInChunks(text, [cut])).toEqual(whole);
  });
});

describe("formatCsvRow", () => {
  it("quotes only where needed, with CRLF line ends", () => {
    expect(formatCsvRow(["a", "b,c", 'say "hi"', "two\nlines", " padded", ""])).toBe(
      'a,"b,c","say ""hi""","two\nlines"," padded",\r\n',
    );
  });

  const field = fc.string({ unit: fc.constantFrom("a", "b", " ", ",", '"', "\r", "\n", "\uFEFF", "é", "–") });
  const rows = fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { maxLength: 8 });

  it("reads back every table it writes", () => {
    fc.assert(
      fc.property(rows, (table) => {
        expect(parseCsv(table.map(formatCsvRow).join(""))).toEqual(table);
      }),
    );
  });

  it("reads back every table it writes, whatever the chunk boundaries", () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 5 }), (table, cuts) => {
        expect(parseInChunks(table.map(formatCsvRow).join(""), cuts)).toEqual(table);
      }),
    );
  });

  it("reads back arbitrary Unicode text", () => {
    const anyRows = fc.array(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 4 }), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(anyRows, (table) => {
        expect(parseCsv(table.map(formatCsvRow).join(""))).toEqual(table);
      }),
    );
  });
});
