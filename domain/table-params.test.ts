import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_TABLE_PAGE,
  clampPage,
  pageHref,
  parseTableParams,
  rangeText,
  sortHref,
  type TableParamOptions,
} from "./table-params";

const options: TableParamOptions<"name" | "createdAt"> = {
  sortable: ["name", "createdAt"],
  defaultSort: "createdAt",
  defaultDir: "desc",
};
const parse = (query: string) => parseTableParams(new URLSearchParams(query), options);

describe("parseTableParams", () => {
  it("reads an allowed sort, its direction and the page", () => {
    expect(parse("sort=name&dir=asc&page=3")).toEqual({ sort: "name", dir: "asc", page: 3 });
  });

  it("falls back to the default sort and direction for an unknown column or direction", () => {
    expect(parse("sort=password_hash&dir=asc")).toEqual({ sort: "createdAt", dir: "desc", page: 1 });
    expect(parse("sort=name&dir=sideways")).toEqual({ sort: "name", dir: "desc", page: 1 });
    expect(parse("")).toEqual({ sort: "createdAt", dir: "desc", page: 1 });
  });

  it("keeps pages within 1..10,000 and reads only plain digits", () => {
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=-4").page).toBe(1);
    expect(parse("page=abc").page).toBe(1);
    expect(parse("page=1e3").page).toBe(1);
    expect(parse("page=2.5").page).toBe(1);
    expect(parse("page=10000").page).toBe(10_000);
    expect(parse("page=10001").page).toBe(MAX_TABLE_PAGE);
    expect(parse(`page=${"9".repeat(400)}`).page).toBe(MAX_TABLE_PAGE);
  });

  it("takes the last of repeated parameters", () => {
    expect(parse("sort=createdAt&sort=name&page=2&page=5")).toMatchObject({ sort: "name", page: 5 });
  });

  it("always answers an allowed sort and a page in range, whatever the query", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("sort", "dir", "page", "x"), fc.string()), (query) => {
        const result = parseTableParams(new URLSearchParams(query), options);
        expect(options.sortable).toContain(result.sort);
        expect(["asc", "desc"]).toContain(result.dir);
        expect(Number.isInteger(result.page) && result.page >= 1 && result.page <= MAX_TABLE_PAGE).toBe(true);
      }),
    );
  });
});

describe("table links", () => {
  const current = new URLSearchParams("q=lake&status=open&sort=name&dir=asc&page=4");

  it("sorting keeps the other parameters, flips the active column and resets the page", () => {
    expect(sortHref(current, "name", { sort: "name", dir: "asc" })).toBe("?q=lake&status=open&sort=name&dir=desc");
    expect(sortHref(current, "createdAt", { sort: "name", dir: "asc" })).toBe(
      "?q=lake&status=open&sort=createdAt&dir=asc",
    );
  });

  it("paging keeps everything else and leaves page 1 out", () => {
    expect(pageHref(current, 5)).toBe("?q=lake&status=open&sort=name&dir=asc&page=5");
    expect(pageHref(current, 1)).toBe("?q=lake&status=open&sort=name&dir=asc");
    expect(pageHref(new URLSearchParams("page=2"), 1)).toBe("?");
  });

  it("says which rows are shown and clamps a page past the end", () => {
    expect(rangeText(2, 20, 134)).toBe("Showing 21–40 of 134");
    expect(rangeText(7, 20, 134)).toBe("Showing 121–134 of 134");
    expect(rangeText(1, 20, 0)).toBe("Showing 0 of 0");
    expect(clampPage(50, 134, 20)).toBe(7);
    expect(clampPage(3, 0, 20)).toBe(1);
  });
});
