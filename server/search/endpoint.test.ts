import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResult } from "../../domain/search";
import { answerSearch, createSearchIndex, searchRowFromLocation, setSearchIndex } from "./index";
import http from "node:http";
import zlib from "node:zlib";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "../../tests/setup/http";
import { brotliWindowBits, cachedAnswerCount, chooseEncoding, searchRequestHandler } from "./endpoint";
import { demoRowsAround, townAt } from "./test-support";

const AUSTIN = { lat: 30.2672, lng: -97.7431 };

function get(query: string): Response {
  const answer = answerSearch(query);
  return new Response(new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
}

async function errorsOf(query: string): Promise<{ parameter: string; message: string }[]> {
  const response = get(query);
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; errors: { parameter: string; message: string }[] };
  expect(body.error).toBe("invalid_parameters");
  return body.errors;
}

const parametersOf = async (query: string) => (await errorsOf(query)).map((e) => e.parameter);

beforeAll(() => {
  const towns = [townAt(AUSTIN.lat, AUSTIN.lng, "Austin"), townAt(29.4241, -98.4936, "San Antonio")];
  const rows = demoRowsAround(towns, 200, 7);
  rows[0] = { ...rows[0]!, state: "OK" };
  setSearchIndex(createSearchIndex(rows.map(searchRowFromLocation)));
});
afterAll(() => setSearchIndex(undefined));

describe("GET /api/search", () => {
  it("answers a search around a point with a page, the total and facets", async () => {
    const response = get(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const body = (await response.json()) as SearchResult;
    expect(body.total).toBeGreaterThan(12);
    expect(body).toMatchObject({ page: 1, pageSize: 12 });
    expect(body.items).toHaveLength(12);
    expect(Object.keys(body.facets.sizes)).toHaveLength(14);
    expect(Object.keys(body.facets.amenities)).toHaveLength(21);
    const distances = body.items.map((item) => item.distanceMiles);
    expect(distances.every((d) => d <= 100)).toBe(true);
  });

  it("applies sizes, amenities, text, sort and paging from the query", async () => {
    const all = (await get(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&pageSize=0`).json()) as SearchResult;
    const filtered = (await get(
      `lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&size=10x20&amenity=has_covered_parking&sort=rating&pageSize=5`,
    ).json()) as SearchResult;
    expect(all.items).toEqual([]);
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThan(all.total);
    expect(filtered.total).toBe(Math.min(all.facets.sizes["10x20"], filtered.total));
    expect(filtered.items).toHaveLength(5);
    for (const item of filtered.items) expect(item.amenities).toContain("has_covered_parking");
    const ratings = filtered.items.map((item) => item.rating ?? -1);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const text = (await get(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&q=SAN%20ANTONIO&pageSize=100`).json()) as SearchResult;
    expect(text.total).toBeGreaterThan(0);
    for (const item of text.items) expect(`${item.name} ${item.address}`.toLowerCase()).toContain("san antonio");
  });

  it("answers a page past the end with no items and the real total", async () => {
    const body = (await get(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&page=999`).json()) as SearchResult;
    expect(body.items).toEqual([]);
    expect(body.total).toBeGreaterThan(0);
    expect(body.page).toBe(999);
  });

  it("searches a whole state with state=", async () => {
    const body = (await get(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&state=ok`).json()) as SearchResult;
    expect(body.total).toBe(1);
    expect(body.items[0]!.state).toBe("OK");
  });

  it("names every bad parameter in a 400", async () => {
    const point = `lat=${AUSTIN.lat}&lng=${AUSTIN.lng}`;
    expect(await errorsOf("lat=91&lng=0")).toEqual([{ parameter: "lat", message: "lat must be between -90 and 90" }]);
    expect(await parametersOf("lat=0&lng=-181")).toEqual(["lng"]);
    expect(await errorsOf("lat=abc&lng=0")).toEqual([{ parameter: "lat", message: "lat must be a number" }]);
    expect(await parametersOf("lat=30")).toEqual(["lng"]);
    expect(await parametersOf("lng=30")).toEqual(["lat"]);
    expect(await errorsOf("")).toEqual([
      { parameter: "lat", message: "lat is required" },
      { parameter: "lng", message: "lng is required" },
    ]);
    expect(await parametersOf("lat=&lng=")).toEqual(["lat", "lng"]);
    expect(await parametersOf(`${point}&size=11x11`)).toEqual(["size"]);
    expect(await parametersOf(`${point}&amenity=pool`)).toEqual(["amenity"]);
    expect(await parametersOf(`${point}&page=0`)).toEqual(["page"]);
    expect(await parametersOf(`${point}&page=1.5`)).toEqual(["page"]);
    expect(await parametersOf(`${point}&radius=0`)).toEqual(["radius"]);
    expect(await parametersOf(`${point}&radius=501`)).toEqual(["radius"]);
    expect(await parametersOf(`${point}&sort=name`)).toEqual(["sort"]);
    expect(await parametersOf(`${point}&pageSize=101`)).toEqual(["pageSize"]);
    expect(await parametersOf(`${point}&state=ZZ`)).toEqual(["state"]);
    expect(await parametersOf("lat=91&size=11x11&sort=name")).toEqual(["lat", "lng", "sort", "size"]);
  });

  it("accepts the edges of every range", async () => {
    for (const query of [
      "lat=90&lng=180",
      "lat=-90&lng=-180",
      "lat=0.0001&lng=0&radius=500&pageSize=100&page=100000",
    ]) {
      expect(get(query).status).toBe(200);
    }
  });
});

describe("the answer cache", () => {
  it("serves a repeated query from the cache until the index is swapped", () => {
    const query = "lat=30.2672&lng=-97.7431&size=10x20";
    // Asked once, an answer is not kept (most are a map centre nobody asks again); from the second
    // ask on it is.
    const once = answerSearch(query);
    const first = answerSearch(query);
    expect(first).not.toBe(once);
    expect(first.body).toEqual(once.body);
    expect(answerSearch(query)).toBe(first);
    const rows = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 20, 3);
    setSearchIndex(createSearchIndex(rows.map(searchRowFromLocation)));
    const second = answerSearch(query);
    expect(second).not.toBe(first);
    expect((JSON.parse(second.body.toString()) as SearchResult).total).toBeLessThanOrEqual(20);
  });

  it("starts afresh when the server's clock enters a new hour (availability lines depend on the time)", () => {
    const query = "lat=30.2672&lng=-97.7431&available=1";
    answerSearch(query);
    const first = answerSearch(query);
    expect(answerSearch(query)).toBe(first);
    const dir = mkdtempSync(join(tmpdir(), "clock-"));
    const clock = join(dir, "offset");
    writeFileSync(clock, String(2 * 60 * 60_000));
    const previous = process.env.TEST_CLOCK_FILE;
    process.env.TEST_CLOCK_FILE = clock;
    try {
      expect(answerSearch(query)).not.toBe(first);
    } finally {
      if (previous === undefined) delete process.env.TEST_CLOCK_FILE;
      else process.env.TEST_CLOCK_FILE = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never caches a rejected query", () => {
    expect(answerSearch("lat=91&lng=0")).not.toBe(answerSearch("lat=91&lng=0"));
  });
});

describe("the answer cache", () => {
  it("keys on the parsed query: cache busters, parameter order and filter order share one entry", () => {
    const base = `lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&size=10x20&amenity=has_covered_parking`;
    answerSearch(`${base}&sort=rating`);
    const first = answerSearch(`${base}&sort=rating`);
    const count = cachedAnswerCount();
    for (let n = 0; n < 50; n++) expect(answerSearch(`${base}&sort=rating&_=${n}`)).toBe(first);
    expect(answerSearch(`sort=rating&amenity=has_covered_parking&size=10x20&lng=${AUSTIN.lng}&lat=${AUSTIN.lat}`)).toBe(
      first,
    );
    expect(answerSearch(`${base}&sort=rating&sort=rating&unknown=1`)).toBe(first);
    expect(cachedAnswerCount()).toBe(count);
    // A different search is a different entry, from its second ask.
    answerSearch(`${base}&sort=distance`);
    expect(cachedAnswerCount()).toBe(count);
    answerSearch(`${base}&sort=distance`);
    expect(cachedAnswerCount()).toBe(count + 1);
  });

  it("keeps a popular answer through a flood of more cache-busting variants than the cache holds", () => {
    const popular = `lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&size=10x25`;
    answerSearch(popular);
    const first = answerSearch(popular);
    for (let n = 0; n < 2500; n++) answerSearch(`lat=${AUSTIN.lat}&lng=${AUSTIN.lng}&size=10x25&_=${n}`);
    // Searched and serialised once: the same answer object, not a new one built again.
    expect(answerSearch(popular)).toBe(first);
  });
});

describe("compressed answers on the wire", () => {
  let port: number;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ port, close } = await serve(searchRequestHandler));
  });
  afterAll(() => close());

  /** One raw request: the bytes as sent, not decoded. */
  const raw = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  const QUERY = `/api/search?lat=${AUSTIN.lat}&lng=${AUSTIN.lng}`;

  it("sends brotli, else gzip, else plain JSON, each with its Content-Length and Vary", async () => {
    const plain = await raw(QUERY);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.bytes.length);
    const json = JSON.parse(plain.bytes.toString("utf8")) as SearchResult;
    expect(json.items.length).toBeGreaterThan(0);

    const br = await raw(QUERY, { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(Number(br.headers["content-length"])).toBe(br.bytes.length);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.bytes).toString("utf8"))).toEqual(json);

    const gzip = await raw(QUERY, { "Accept-Encoding": "gzip;q=1, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.bytes.length);
    expect(JSON.parse(zlib.gunzipSync(gzip.bytes).toString("utf8"))).toEqual(json);

    expect((await raw(QUERY, { "Accept-Encoding": "identity" })).headers["content-encoding"]).toBeUndefined();
  });

  it("says how long the instance took in Server-Timing", async () => {
    for (const answer of [await raw(`${QUERY}&radius=37`), await raw("/api/search?lat=91&lng=0")]) {
      const timing = /^search;dur=(\d+\.\d{2})$/.exec(String(answer.headers["server-timing"]));
      expect(timing, String(answer.headers["server-timing"])).not.toBeNull();
      expect(Number(timing![1])).toBeGreaterThanOrEqual(0);
    }
  });

  it("compresses a first answer at a fast level and the answer the cache keeps smaller", async () => {
    const query = `${QUERY}&radius=41`;
    const first = await raw(query, { "Accept-Encoding": "br" });
    const kept = await raw(query, { "Accept-Encoding": "br" });
    expect(answerSearch(query.slice(query.indexOf("?") + 1)).kept).toBe(true);
    expect(kept.bytes.length).toBeLessThan(first.bytes.length);
    expect(zlib.brotliDecompressSync(kept.bytes).equals(zlib.brotliDecompressSync(first.bytes))).toBe(true);
    expect(Number(kept.headers["content-length"])).toBe(kept.bytes.length);
  });

  it("sizes brotli's window to the answer, which decodes whole at every size", () => {
    expect([0, 1008, 1009, 9300, 16_368, 16_369, 5_000_000].map(brotliWindowBits)).toEqual([
      10, 10, 11, 14, 14, 15, 22,
    ]);
    for (const size of [1500, 9300, 16_369, 70_000]) {
      const body = Buffer.from(JSON.stringify(Array.from({ length: size }, (_, i) => i % 97)).slice(0, size));
      const C = zlib.constants;
      const params = (bits: number) => ({ params: { [C.BROTLI_PARAM_QUALITY]: 0, [C.BROTLI_PARAM_LGWIN]: bits } });
      const sized = zlib.brotliCompressSync(body, params(brotliWindowBits(size)));
      expect(zlib.brotliDecompressSync(sized).equals(body)).toBe(true);
      expect(sized.length).toBeLessThanOrEqual(zlib.brotliCompressSync(body, params(22)).length + 2);
    }
  });

  it("compresses a cached answer once", () => {
    const first = answerSearch(QUERY.slice(QUERY.indexOf("?") + 1));
    expect(first.encoded?.br).toBeInstanceOf(Buffer);
    const again = answerSearch(QUERY.slice(QUERY.indexOf("?") + 1));
    expect(again).toBe(first);
  });

  it("answers HEAD with the same headers and no body", async () => {
    const get = await raw(QUERY, { "Accept-Encoding": "br" });
    const head = await raw(QUERY, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["content-encoding"]).toBe("br");
  });

  it("leaves a small answer (an error) uncompressed", async () => {
    const bad = await raw("/api/search?lat=x", { "Accept-Encoding": "br" });
    expect(bad.status).toBe(400);
    expect(bad.headers["content-encoding"]).toBeUndefined();
  });
});

describe("chooseEncoding", () => {
  it("prefers br, then gzip, honours q=0, and ignores what it does not know", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding(["deflate", "gzip;q=0.5"])).toBe("gzip");
    expect(chooseEncoding("gzip;q=0")).toBe("identity");
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("*")).toBe("identity");
    expect(chooseEncoding(`${"x,".repeat(100_000)}br`)).toBe("identity"); // capped, and linear
  });
});
