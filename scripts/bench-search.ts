/**
 * npm run bench:search [-- --quick | --http | --index | --writes]
 *
 * Builds search indexes of 20,000 and 1,000,000 demo-shaped locations spread around real towns
 * (weighted by population, as the demo catalogue is) and prints build time, memory, query latency
 * for 100-mile searches around big cities, and the HTTP throughput of GET /api/search through the
 * production handler against a bare Node server returning the same bytes.
 *
 * Targets (docs/operations.md, "Search index"): at 1M, build <= 5 s, index memory (heap and array
 * buffers) <= 400 MB, p50 <= 0.8 ms and p99 <= 4 ms for every query shape; endpoint/bare
 * throughput >= 0.85 cached, and with a new centre per request >= 0.4 plain, >= 0.3 compressed.
 * --quick: 200k instead of 1M and 3-second HTTP runs (a smoke test of the script itself).
 * --index: the build and query tables only, no HTTP runs.
 * Last (alone with --writes; not with --quick, --http or --index): writes while serving, 1M listings
 * in PostgreSQL, 20 writes a second on one instance while the other serves searches: search p99
 * <= 10 ms on both, every write visible on the other within 1 s, no full rebuild.
 */
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import zlib from "node:zlib";
import autocannon from "autocannon";
import type { AmenityFlag } from "../domain/amenities";
import type { SearchQuery } from "../domain/search";
import type { SizeOption } from "../domain/sizes";
import { getGazetteer, type Place } from "../server/geo";
import { makeDemoLocation } from "../server/locations/demo";
import { createRandom, weightedSampler } from "../server/locations/random";
import {
  SearchIndexBuilder,
  answerSearch,
  parseSearchRequest,
  searchRequestHandler,
  searchNear,
  searchRowFromLocation,
  setSearchIndex,
  type SearchIndex,
} from "../server/search";
import { COMPRESSION_LEVELS } from "../server/search/endpoint";
import { readSnapshot } from "../server/search/snapshot";
import { table } from "./lib/bench";

const QUICK = process.argv.includes("--quick");
/** --http: only the HTTP throughput table (seconds instead of minutes). */
const HTTP_ONLY = process.argv.includes("--http");
/** --index: no HTTP table. */
const INDEX_ONLY = process.argv.includes("--index");
/** --writes: only the writes-while-serving section; --quick, --http and --index skip it. */
const WRITES_ONLY = process.argv.includes("--writes");
const SIZES = [20_000, QUICK ? 200_000 : 1_000_000];
/** Seconds of each run, and rounds of runs per row (measureHttp). */
const HTTP_SECONDS = QUICK ? 2 : 4;
const HTTP_ROUNDS = 3;
const HTTP_CONNECTIONS = 20;
const SEED = 20261122;
const CITIES = [
  "New York, NY",
  "Los Angeles, CA",
  "Chicago, IL",
  "Houston, TX",
  "Phoenix, AZ",
  "Denver, CO",
  "Atlanta, GA",
  "Austin, TX",
  "Seattle, WA",
  "Miami, FL",
];

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

// ---------------------------------------------------------------- data

/**
 * Rows from the demo factory around towns of 2,000+ people, weighted by population^0.6 like
 * `generateDemoCatalogue`, but without its point-in-state test (the slow part, irrelevant to
 * search), so that a million rows take seconds instead of minutes.
 */
function buildIndex(count: number): { index: SearchIndex; generateMs: number; buildMs: number } {
  const towns = getGazetteer()
    .places()
    .filter((p) => p.population >= 2000);
  const sample = weightedSampler(towns.map((t) => Math.pow(t.population, 0.6)));
  const r = createRandom(SEED + count);
  const builder = new SearchIndexBuilder();
  let generateMs = 0;
  let buildMs = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const town = towns[sample(r)]!;
    const row = makeDemoLocation(r, i, town, { stateAt: () => town.state });
    const source = row ? searchRowFromLocation(row) : undefined;
    const t1 = performance.now();
    if (source) builder.add(source);
    generateMs += t1 - t0;
    buildMs += performance.now() - t1;
  }
  const t2 = performance.now();
  const index = builder.finish("memory");
  buildMs += performance.now() - t2;
  return { index, generateMs, buildMs };
}

// ---------------------------------------------------------------- measurements

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

interface Scenario {
  name: string;
  query: Partial<SearchQuery>;
}

const SCENARIOS: Scenario[] = [
  { name: "no filters, distance sort", query: {} },
  {
    name: "size 10x20 + covered parking",
    query: { sizes: ["10x20" as SizeOption], amenities: ["has_covered_parking" as AmenityFlag] },
  },
  { name: "no filters, rating sort", query: { sort: "rating" } },
  { name: "count only (pageSize 0)", query: { pageSize: 0 } },
  // docs/product.md section 17: the Available now filter, alone and with My RV (a space that fits).
  { name: "available now", query: { available: true } },
  { name: "available now + My RV 40 ft", query: { available: true, rv: { lengthFeet: 40 } } },
];

function measureQueries(index: SearchIndex, places: readonly Place[], iterations: number) {
  return SCENARIOS.map((scenario) => {
    const queries = places.map((p): SearchQuery => ({
      lat: p.lat,
      lng: p.lng,
      radius: 100,
      sizes: [],
      amenities: [],
      sort: "distance",
      page: 1,
      pageSize: 12,
      ...scenario.query,
    }));
    for (let i = 0; i < 200; i++) index.query(queries[i % queries.length]!);
    const times: number[] = [];
    let totals = 0;
    for (let i = 0; i < iterations; i++) {
      const q = queries[i % queries.length]!;
      const start = performance.now();
      const result = index.query(q);
      times.push(performance.now() - start);
      totals += result.total;
    }
    times.sort((a, b) => a - b);
    return {
      scenario: scenario.name,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times[times.length - 1]!,
      meanResults: Math.round(totals / iterations),
    };
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => (value < 10 ? value.toFixed(3) : value.toFixed(0));

// ---------------------------------------------------------------- HTTP (child process)

const SEARCH_PATHS = [
  { name: "Austin, no filters", path: "/api/search?lat=30.2672&lng=-97.7431&radius=100" },
  {
    name: "New York, 10x20 + covered",
    path: "/api/search?lat=40.7143&lng=-74.006&radius=100&size=10x20&amenity=has_covered_parking",
  },
];

/**
 * The child: a 20k index and three servers. "endpoint": the production path, node:http handing
 * GET /api/search to the same handler server.js uses ahead of Express (answer cache included).
 * "uncached": parse + search + JSON.stringify on every request (a cold query's cost).
 * "bare": the same bytes and headers, precomputed, from plain node:http.
 */
async function serve(): Promise<void> {
  const { index } = buildIndex(20_000);
  setSearchIndex(index);

  // What server.js does ahead of Express for GET /api/search (server/app.ts handleFastPath).
  const endpoint = http.createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/api/search")) return searchRequestHandler(req, res);
    res.writeHead(404).end();
  });

  const canned = new Map<string, { body: string; headers: Record<string, string> }>();
  for (const { path } of SEARCH_PATHS) {
    const answer = answerSearch(path.slice(path.indexOf("?") + 1));
    if (answer.status !== 200) throw new Error(`${path}: ${answer.body}`);
    canned.set(path, {
      body: answer.body.toString(),
      headers: { ...answer.headers, "Content-Length": String(answer.body.length) },
    });
  }
  // For the distinct-centres runs: a typical answer (the first path's), plain and as brotli, which
  // is what a phone asks for; the bare server sends these whatever the centre.
  const typical = canned.get(SEARCH_PATHS[0]!.path)!;
  const typicalBrotli = brotli(typical.body);
  const bare = http.createServer((req, res) => {
    if (req.url?.startsWith(DISTINCT_PREFIX)) {
      const compressed = String(req.headers["accept-encoding"] ?? "").includes("br");
      const body = compressed ? typicalBrotli : typical.body;
      const headers = { ...typical.headers, "Content-Length": String(Buffer.byteLength(body)) };
      return void res.writeHead(200, compressed ? { ...headers, "Content-Encoding": "br" } : headers).end(body);
    }
    const hit = canned.get(req.url ?? "");
    if (!hit) return void res.writeHead(404).end();
    res.writeHead(200, hit.headers).end(hit.body);
  });
  const uncached = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parsed = parseSearchRequest(url.searchParams);
    const body = parsed.ok ? JSON.stringify(searchNear(parsed.point, parsed.options, parsed.scope)) : "{}";
    res
      .writeHead(parsed.ok ? 200 : 400, {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "public, max-age=60",
        "Content-Length": Buffer.byteLength(body),
      })
      .end(body);
  });

  const listen = (server: http.Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  const ports: Ports = {
    endpoint: await listen(endpoint),
    uncached: await listen(uncached),
    bare: await listen(bare),
    bytes: Object.fromEntries([...canned].map(([path, c]) => [path, Buffer.byteLength(c.body)])),
    typicalBytes: { plain: Buffer.byteLength(typical.body), br: typicalBrotli.length },
  };
  process.send?.(ports);
}

interface Ports {
  endpoint: number;
  uncached: number;
  bare: number;
  bytes: Record<string, number>;
  typicalBytes: { plain: number; br: number };
}

const DISTINCT_PREFIX = "/api/search?lat=";
const THROUGHPUT_TARGETS =
  "Throughput (endpoint/bare): cached >= 0.85; distinct centres >= 0.4 plain, >= 0.3 compressed.";

/** The production compression of a first answer (server/search/endpoint.ts), so bare sends the same bytes. */
function brotli(body: string): Buffer {
  return zlib.brotliCompressSync(Buffer.from(body), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION_LEVELS.first.br },
  });
}

/**
 * A new centre for every request: a town of the index's, moved by up to ~20 miles, so that no
 * two requests share an answer and the answer cache cannot help (a cold query each time).
 */
function distinctPaths(): () => string {
  const towns = getGazetteer()
    .places()
    .filter((p) => p.population >= 20_000);
  let n = 0;
  return () => {
    const town = towns[(n * 7919) % towns.length]!;
    n++;
    const lat = (town.lat + ((n % 613) - 306) / 1000).toFixed(5);
    const lng = (town.lng + ((n % 587) - 293) / 1000).toFixed(5);
    return `${DISTINCT_PREFIX}${lat}&lng=${lng}&radius=100`;
  };
}

/** The median of a few numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Each row's servers are measured in turns, HTTP_ROUNDS times (endpoint, uncached, bare; then
 * again), and the row gives the median of the rounds' figures and ratios: this machine's speed
 * drifts over minutes (bare alone measured 13,000 to 24,000 req/s within the hour), and a ratio
 * of two runs taken a minute apart measured the drift as much as the servers.
 */
async function measureHttp(): Promise<string> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { execArgv: process.execArgv });
  try {
    const ports = await new Promise<Ports>((resolve, reject) => {
      child.once("message", (m) => resolve(m as Ports));
      child.once("exit", (code) => reject(new Error(`the benchmark server exited (${code})`)));
    });
    type Run = (port: number) => Promise<autocannon.Result>;
    const checked = (label: string, result: autocannon.Result) => {
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result;
    };
    /** Rounds of `run` on each port in turn: per port, req/s and latencies of every round. */
    const rounds = async (servers: number[], run: Run) => {
      const results = servers.map(() => [] as autocannon.Result[]);
      for (let round = 0; round < HTTP_ROUNDS; round++) {
        for (const [i, port] of servers.entries()) results[i]!.push(await run(port));
      }
      return results.map((list) => ({
        rps: list.map((r) => r.requests.average),
        p50: median(list.map((r) => r.latency.p50)),
        p99: median(list.map((r) => r.latency.p99)),
      }));
    };
    const ratio = (a: number[], b: number[]) => median(a.map((value, i) => value / b[i]!)).toFixed(2);
    const rows: (string | number)[][] = [];
    for (const { name, path } of SEARCH_PATHS) {
      // Warm every server (JIT) before measuring.
      for (const port of [ports.endpoint, ports.uncached, ports.bare]) {
        await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 10, amount: 3000 });
      }
      const [endpoint, uncached, bare] = await rounds([ports.endpoint, ports.uncached, ports.bare], async (port) =>
        checked(
          path,
          await autocannon({
            url: `http://127.0.0.1:${port}${path}`,
            connections: HTTP_CONNECTIONS,
            duration: HTTP_SECONDS,
          }),
        ),
      );
      rows.push([
        `${name} (${((ports.bytes[path] ?? 0) / 1024).toFixed(1)} KB)`,
        Math.round(median(endpoint!.rps)),
        endpoint!.p50,
        endpoint!.p99,
        Math.round(median(uncached!.rps)),
        Math.round(median(bare!.rps)),
        ratio(endpoint!.rps, bare!.rps),
        ratio(uncached!.rps, bare!.rps),
      ]);
    }
    // Cold queries: a distinct centre per request, plain and with a phone's Accept-Encoding.
    const nextPath = distinctPaths();
    for (const [label, headers, bytes] of [
      ["distinct centres, plain", {}, ports.typicalBytes.plain],
      ["distinct centres, br", { "accept-encoding": "br, gzip" }, ports.typicalBytes.br],
    ] as const) {
      const runDistinct = async (port: number, warm = false) =>
        checked(
          label,
          await autocannon({
            url: `http://127.0.0.1:${port}`,
            connections: warm ? 10 : HTTP_CONNECTIONS,
            ...(warm ? { amount: 3000 } : { duration: HTTP_SECONDS }),
            headers,
            requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
          }),
        );
      await runDistinct(ports.endpoint, true);
      await runDistinct(ports.bare, true);
      const [endpoint, bare] = await rounds([ports.endpoint, ports.bare], (port) => runDistinct(port));
      rows.push([
        `${label} (${(bytes / 1024).toFixed(1)} KB)`,
        Math.round(median(endpoint!.rps)),
        endpoint!.p50,
        endpoint!.p99,
        "-",
        Math.round(median(bare!.rps)),
        ratio(endpoint!.rps, bare!.rps),
        "-",
      ]);
    }
    return table(
      [
        "GET /api/search, 20k index",
        "endpoint req/s",
        "p50 ms",
        "p99 ms",
        "uncached req/s",
        "bare req/s",
        "endpoint/bare",
        "uncached/bare",
      ],
      rows,
    );
  } finally {
    child.kill();
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  console.log(
    `Search benchmark: Node ${process.version}, ${HTTP_CONNECTIONS} connections, HTTP runs of ${HTTP_SECONDS} s taken in turns ${HTTP_ROUNDS} times (medians)${QUICK ? " (quick)" : ""}\n`,
  );
  if (HTTP_ONLY) {
    console.log(await measureHttp());
    console.log(`\n${THROUGHPUT_TARGETS}`);
    return;
  }
  if (WRITES_ONLY) {
    process.exitCode = writesWhileServing();
    return;
  }
  const gazetteer = getGazetteer();
  const places = CITIES.map((name) => gazetteer.lookup(name)).filter((p): p is Place => p !== undefined);

  const buildRows: (string | number)[][] = [];
  const snapshotRows: (string | number)[][] = [];
  const queryRows: (string | number)[][] = [];
  /**
   * Full collections until the array buffers stop shrinking: the builder's temporary arrays are
   * garbage once it finishes, but their memory is given back by a later pass, and one gc() call
   * sometimes left 120 MB of them in the figure.
   */
  const settle = async () => {
    let previous = Infinity;
    for (let i = 0; i < 10 && process.memoryUsage().arrayBuffers < previous; i++) {
      previous = process.memoryUsage().arrayBuffers;
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  for (const size of SIZES) {
    await settle();
    const heapBefore = process.memoryUsage().heapUsed;
    const arrayBefore = process.memoryUsage().arrayBuffers;
    const rssBefore = process.memoryUsage().rss;
    const { index, generateMs, buildMs } = buildIndex(size);
    await settle();
    const after = process.memoryUsage();
    // The snapshot an instance starts from (docs/operations.md, "Search index"): written, read back.
    const snapshotFile = path.join(os.tmpdir(), `bench-search-${process.pid}.snapshot`);
    const writeStarted = performance.now();
    const snapshotBytes = await index.saveTo(snapshotFile, { horizon: "0", database: "bench", takenAt: Date.now() });
    const readStarted = performance.now();
    const loaded = await readSnapshot(snapshotFile);
    const readMs = performance.now() - readStarted;
    fs.rmSync(snapshotFile, { force: true });
    if (loaded?.columns.size !== index.size) throw new Error("the snapshot read back holds another number of rows");
    snapshotRows.push([
      size.toLocaleString("en-US"),
      mb(snapshotBytes),
      ((readStarted - writeStarted) / 1000).toFixed(2),
      (readMs / 1000).toFixed(2),
    ]);
    buildRows.push([
      size.toLocaleString("en-US"),
      index.size.toLocaleString("en-US"),
      (generateMs / 1000).toFixed(1),
      (buildMs / 1000).toFixed(2),
      mb(after.heapUsed - heapBefore),
      mb(after.arrayBuffers - arrayBefore),
      mb(after.heapUsed - heapBefore + after.arrayBuffers - arrayBefore),
      mb(index.bytes),
      mb(after.rss - rssBefore),
    ]);
    for (const m of measureQueries(index, places, size > 100_000 ? 500 : 5000)) {
      queryRows.push([
        size.toLocaleString("en-US"),
        m.scenario,
        m.meanResults.toLocaleString("en-US"),
        ms(m.p50),
        ms(m.p99),
        ms(m.max),
      ]);
    }
  }
  console.log(
    table(
      [
        "locations",
        "indexed",
        "generate s",
        "build s",
        "heap delta",
        "array buffers",
        "index memory",
        "columns",
        "RSS delta",
      ],
      buildRows,
    ),
  );
  console.log(`\nSnapshot (the file an instance starts from)\n`);
  console.log(table(["locations", "file", "write s", "read s"], snapshotRows));
  console.log(`\n100-mile searches around ${places.map((p) => p.name).join(", ")}; page size 12\n`);
  console.log(table(["locations", "query", "mean results", "p50 ms", "p99 ms", "max ms"], queryRows));
  if (INDEX_ONLY) {
    console.log("\nTargets at 1M: build or snapshot read <= 5 s, index memory <= 400 MB, p50 <= 0.8 ms, p99 <= 4 ms.");
    return;
  }
  console.log("\nHTTP throughput (server in a child process, autocannon here, both on 127.0.0.1)\n");
  console.log(await measureHttp());
  console.log(
    [
      "endpoint: the production handler (node:http fast path, per-index answer cache); a repeated query is a cache hit.",
      "uncached: parse + search + JSON.stringify on every request, straight to node:http: what a query costs the first time.",
      "bare:     the same bytes and headers, precomputed, from plain node:http.",
      "distinct centres: a new centre per request (no cache hit), against bare sending a typical answer of that size.",
    ].join("\n"),
  );
  console.log(
    [
      "\nTargets at 1M: build or snapshot read <= 5 s, index memory <= 400 MB, p50 <= 0.8 ms, p99 <= 4 ms.",
      THROUGHPUT_TARGETS,
    ].join("\n"),
  );
  if (!QUICK) process.exitCode = writesWhileServing();
}

/**
 * The last section (issue 36): 1M listings in PostgreSQL, a built site serving searches while a
 * second instance makes 20 writes a second for 60 s; run by scripts/bench-startup.ts, which starts
 * and fills what it needs (BENCH_DATABASE_URL, BENCH_LISTINGS, BENCH_WRITE_SECONDS,
 * BENCH_WRITES_PER_SECOND). Returns its exit code.
 */
function writesWhileServing(): number {
  console.log("\nWrites while serving (two instances on one PostgreSQL; scripts/bench-startup.ts --writes-only)\n");
  const run = spawnSync("npx", ["tsx", "scripts/bench-startup.ts", "--writes-only"], { stdio: "inherit" });
  return run.status ?? 1;
}

if (process.argv.includes("--serve")) {
  // Exit on the parent's signal rather than die of it, so that node --cpu-prof writes the profile.
  process.once("SIGTERM", () => process.exit(0));
  await serve();
} else {
  await main();
}
