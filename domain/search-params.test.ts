import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MY_RV_STORAGE_KEY,
  myRvCookieText,
  myRvCookieValue,
  myRvFromCookieHeader,
  myRvFromStorage,
  myRvStorageText,
} from "./rv-fit";
import { searchParamsFor } from "./search";
import { NUMBER_PARAMS, parseSearchParams, plainNumber } from "./search-params";

const parse = (query: string) => parseSearchParams(new URLSearchParams(query));
const errorsOf = (query: string) => {
  const parsed = parse(query);
  return parsed.ok ? [] : parsed.errors;
};

describe("parseSearchParams: My RV and prices", () => {
  it("reads the RV, the price cap and the price sort", () => {
    const parsed = parse("lat=30&lng=-97&rvLength=40&rvHeight=13.5&maxPrice=250&sort=price");
    expect(parsed).toMatchObject({
      ok: true,
      sort: "price",
      filters: { rv: { lengthFeet: 40, heightFeet: 13.5 }, maxPrice: 250 },
    });
    expect(parse("rvLength=%2035%20")).toMatchObject({ ok: true, filters: { rv: { lengthFeet: 35 } } });
    expect(parse("maxPrice=0")).toMatchObject({ ok: true, filters: { maxPrice: 0 } });
    const none = parse("lat=30&lng=-97");
    expect(none.ok && "rv" in none.filters).toBe(false);
    expect(none.ok && "maxPrice" in none.filters).toBe(false);
  });

  it("refuses bad values with a message naming the parameter", () => {
    expect(errorsOf("rvLength=9")).toEqual([
      { parameter: "rvLength", message: "rvLength must be a number of feet from 10 to 100" },
    ]);
    expect(errorsOf("rvLength=forty")[0]?.parameter).toBe("rvLength");
    expect(errorsOf("rvLength=101")[0]?.parameter).toBe("rvLength");
    expect(errorsOf("rvLength=40&rvHeight=30")).toEqual([
      { parameter: "rvHeight", message: "rvHeight must be a number of feet from 6 to 20" },
    ]);
    expect(errorsOf("rvHeight=13")).toEqual([
      { parameter: "rvHeight", message: "rvHeight needs rvLength: give the RV's length too" },
    ]);
    const priceMessage = "maxPrice must be whole dollars a month, from 0 to 100000";
    for (const bad of ["-5", "9.99", "abc", "", "100001", "1e3", "9999999"]) {
      expect(errorsOf(`maxPrice=${bad}`), bad).toEqual([{ parameter: "maxPrice", message: priceMessage }]);
    }
    expect(errorsOf("sort=cheapest")).toEqual([
      { parameter: "sort", message: "sort must be distance, rating or price" },
    ]);
  });

  it("round-trips through searchParamsFor", () => {
    const params = searchParamsFor({
      sizes: ["12x30"],
      rv: { lengthFeet: 42.5, heightFeet: 13 },
      maxPrice: 300,
      sort: "price",
    });
    expect(params.toString()).toBe("size=12x30&rvLength=42.5&rvHeight=13&maxPrice=300&sort=price");
    expect(parseSearchParams(params)).toMatchObject({
      ok: true,
      sort: "price",
      filters: { sizes: ["12x30"], rv: { lengthFeet: 42.5, heightFeet: 13 }, maxPrice: 300 },
    });
    expect(searchParamsFor({ rv: { lengthFeet: 40 } }).toString()).toBe("rvLength=40");
  });
});

describe("parseSearchParams: Available now", () => {
  it("reads available=1, leaves it out for 0 or nothing, and round-trips", () => {
    expect(parse("available=1&rvLength=40")).toMatchObject({ ok: true, filters: { available: true } });
    for (const off of ["available=0", ""]) {
      const parsed = parse(off);
      expect(parsed.ok && "available" in parsed.filters, off).toBe(false);
    }
    const params = searchParamsFor({ available: true, rv: { lengthFeet: 40 } });
    expect(params.toString()).toBe("rvLength=40&available=1");
    expect(parseSearchParams(params)).toMatchObject({ ok: true, filters: { available: true, rv: { lengthFeet: 40 } } });
  });

  it("refuses any other value, naming the parameter", () => {
    for (const bad of ["yes", "true", "2", ""]) {
      expect(errorsOf(`available=${bad}`), bad).toEqual([
        { parameter: "available", message: "available must be 1 (available now) or 0" },
      ]);
    }
  });
});

describe("the remembered RV", () => {
  it("stores and reads back an RV, and ignores anything unreadable or out of range", () => {
    expect(MY_RV_STORAGE_KEY).toBe("rv-storage:my-rv");
    expect(myRvFromStorage(myRvStorageText({ lengthFeet: 40 }))).toEqual({ lengthFeet: 40 });
    expect(myRvFromStorage(myRvStorageText({ lengthFeet: 38.5, heightFeet: 13.5 }))).toEqual({
      lengthFeet: 38.5,
      heightFeet: 13.5,
    });
    for (const bad of [
      null,
      "",
      "40",
      "{",
      "null",
      '{"lengthFeet":"40"}',
      '{"lengthFeet":5}',
      '{"lengthFeet":40,"heightFeet":50}',
      '{"lengthFeet":40,"heightFeet":"13"}',
      '{"lengthFeet":1e21}',
      `{"lengthFeet":40,"pad":"${"x".repeat(300)}"}`,
    ]) {
      expect(myRvFromStorage(bad), String(bad)).toBeUndefined();
    }
  });

  it("travels in a cookie the server reads, and anything odd in it is no RV", () => {
    for (const rv of [{ lengthFeet: 40 }, { lengthFeet: 38.5, heightFeet: 13.5 }]) {
      expect(myRvFromCookieHeader(`a=1; my_rv=${myRvCookieValue(rv)}; b=2`)).toEqual(rv);
    }
    expect(myRvCookieText({ lengthFeet: 40, heightFeet: 13 }, true)).toBe(
      "my_rv=40_13; Max-Age=31536000; Path=/; SameSite=Lax; Secure",
    );
    expect(myRvCookieText(undefined, false)).toBe("my_rv=; Max-Age=0; Path=/; SameSite=Lax");
    for (const bad of [
      undefined,
      "",
      "my_rv=",
      "my_rv=5",
      "my_rv=40_3",
      "my_rv=abc",
      "my_rv=40_13_2",
      "my_rv=1e2",
      "x".repeat(9000),
      `my_rv=${"4".repeat(30)}`,
      "xmy_rv=40",
    ]) {
      expect(myRvFromCookieHeader(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("numeric parameters without zod", () => {
  // Numbers as people and scripts write them, and what they get wrong.
  const raw = fc.oneof(
    fc.double({ noNaN: false }).map(String),
    fc.integer({ min: -200, max: 200_000 }).map(String),
    fc.double({ min: -200, max: 200, noNaN: true }).map((n) => n.toFixed(5)),
    fc.constantFrom(
      "",
      " ",
      " 12 ",
      "\t3\n",
      "0x10",
      "1e2",
      "-0",
      "+5",
      ".5",
      "5.",
      "Infinity",
      "NaN",
      "1,5",
      "12abc",
      "0b11",
    ),
    fc.string({ maxLength: 8 }),
  );

  it("takes exactly what each parameter's zod schema takes, as the same number", () => {
    for (const [name, param] of Object.entries(NUMBER_PARAMS)) {
      fc.assert(
        fc.property(raw, (value) => {
          const byZod = param.schema.safeParse(value);
          const plain = plainNumber(param, value);
          expect(plain === undefined, `${name}=${JSON.stringify(value)}`).toBe(!byZod.success);
          if (byZod.success) expect(Object.is(plain, byZod.data)).toBe(true);
        }),
        { numRuns: 400 },
      );
    }
  });

  it("still names the problem with zod's message", () => {
    const parsed = parseSearchParams(new URLSearchParams("lat=91&lng=abc&radius=0&page=1.5&pageSize=101"));
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      { parameter: "lat", message: "lat must be between -90 and 90" },
      { parameter: "lng", message: "lng must be a number" },
      { parameter: "radius", message: expect.stringMatching(/^radius must be above 0/) },
      { parameter: "page", message: "page must be a whole number from 1" },
      { parameter: "pageSize", message: "pageSize must be a whole number from 0 to 100" },
    ]);
  });
});
