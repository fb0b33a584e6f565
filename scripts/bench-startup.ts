/**
 * npm run bench:startup: how long an instance takes to serve, and how much memory it holds, with a
 * large catalogue in PostgreSQL (docs/operations.md, "Benchmarks and page budgets").
 *
 * Creates a scratch database on BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * fills it with BENCH_LISTINGS (1,000,000) listings spread over the contiguous US (generated in
 * SQL, 100,000 per statement), then starts the built site on it (DEMO_DATA=off) once from the
 * database (which saves the search index's snapshot in its data folder) and BENCH_RUNS (3) times
 * from that snapshot, and prints the time from spawn to a 200 from /healthz and the process's
 * resident and peak memory of each; then, on the last instance, adds one listing from outside and announces it as
 * another instance would, and measures /api/search answers while the index is rebuilt (the old
 * index keeps serving: no error, and the time until the new listing is found). Last, this process
 * becomes a second instance (issue 36): it builds its own index from the same database and, for
 * BENCH_WRITE_SECONDS (60), renames BENCH_WRITES_PER_SECOND (20) listings a second, each applied to
 * its own index in place and announced with NOTIFY, while searches run on both instances; it prints
 * the search p50/p99 of each, the time until each write was visible on the site, and how many full
 * rebuilds the site made meanwhile (the target is none: the site applies the change log in place).
 * The site's searches are timed from a worker thread, so that this instance's own synchronous
 * searches do not delay them. `-- --writes-only` runs only that last section (as `npm run
 * bench:search` does).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../server/db/client";
import { notifyLocationsChanged } from "../server/search/notify";
import { getSearchIndex, refreshSearchIndex } from "../server/search/refresh";
import { runScript, startBuiltSite, type RunningSite } from "./lib/serve-built";
import { median } from "./lib/bench";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 1_000_000);
/**
 * --writes-only: the writes section alone (issue 36; `npm run bench:search` runs it so): one start
 * from the database, no start-up runs from the snapshot, no added-listing section.
 */
const WRITES_ONLY = process.argv.includes("--writes-only");
const RUNS = WRITES_ONLY ? 0 : Number(process.env.BENCH_RUNS ?? 3);
const CHUNK = 100_000;
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 60);
const WRITES_PER_SECOND = Number(process.env.BENCH_WRITES_PER_SECOND ?? 20);
const SERVER_LOG = ".tmp/bench-startup-server.log";
const STATES = ["TX", "CA", "FL", "AZ", "CO", "GA", "NC", "OH", "WA", "MI", "PA", "NY", "TN", "MO", "OR"];

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  // "VmRSS:\t  123456 kB": the number after the field's name, found without a pattern.
  const kb = (field: string) => {
    const line = status.split("\n").find((l) => l.startsWith(`${field}:`));
    return line ? Number.parseInt(line.slice(field.length + 1).trim(), 10) : 0;
  };
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

async function fill(url: string) {
  const handle = await openDatabase({ kind: "postgres", url, max: 1 });
  await handle.migrate();
  await handle.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const states = `array[${STATES.map((s) => `'${s}'`).join(",")}]`;
  try {
    for (let from = 1; from <= LISTINGS; from += CHUNK) {
      const to = Math.min(LISTINGS, from + CHUNK - 1);
      // Deterministic spread: positions from a hash of the row number.
      await client.query(`
        insert into locations (place_id, slug, name, address, city, state, latitude, longitude, rating,
                               user_ratings_total, dimensions, tier)
        select 'bench' || g, 'bench-storage-' || g, 'Bench RV Storage ' || g, g || ' Main St', 'Benchville',
               (${states})[1 + g % ${STATES.length}],
               25 + (hashint4(g) & 65535) / 65535.0 * 24,
               -124 + (hashint4(g + 7) & 65535) / 65535.0 * 57,
               round((3 + (g % 20) / 10.0)::numeric, 1), g % 300,
               jsonb_build_array(jsonb_build_object('width', 12, 'length', 20 + (g % 5) * 5)), 'Free'
        from generate_series(${from}, ${to}) g`);
      process.stdout.write(`\r  filled ${to.toLocaleString("en-US")} of ${LISTINGS.toLocaleString("en-US")}`);
    }
    process.stdout.write("\n");
    await client.query("analyze locations");
  } finally {
    await client.end();
  }
}

async function rebuildWhileServing(site: RunningSite, url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Far from any generated row's exact spot, and ranked first by its tier.
    await client.query(`
      insert into locations (place_id, slug, name, latitude, longitude, state, tier, dimensions)
      values ('bench-new', 'bench-new-listing', 'Bench New Listing', 39.5, -98.35, 'KS', 'Preferred',
              '[{"width":12,"length":40}]')`);
    const started = Date.now();
    await client.query("select pg_notify('locations_changed', 'bench')");
    const latencies: number[] = [];
    let errors = 0;
    let foundAfter: number | undefined;
    while (Date.now() - started < 120_000) {
      const t = performance.now();
      let body: { items?: { id: string }[] };
      try {
        const response = await fetch(`${site.baseUrl}/api/search?lat=39.5&lng=-98.35`);
        if (!response.ok) errors++;
        body = (await response.json()) as { items?: { id: string }[] };
      } catch (error) {
        // Counted and named, so that a failure shows what happened instead of ending the run.
        errors++;
        console.error(
          `  search failed during the rebuild: ${(error as Error).message} ${String((error as Error).cause ?? "")}`,
        );
        if (site.child?.exitCode !== null)
          throw new Error("The site exited during the rebuild (see .tmp/bench-startup-server.log)");
        continue;
      } finally {
        latencies.push(performance.now() - t);
      }
      if (body.items?.some((item) => item.id === "bench-new")) {
        foundAfter = Date.now() - started;
        break;
      }
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(1);
    return { foundAfter, errors, requests: latencies.length, p50: pct(0.5), p99: pct(0.99) };
  } finally {
    await client.end();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};
const rebuildsLogged = () =>
  fs.existsSync(SERVER_LOG) ? fs.readFileSync(SERVER_LOG, "utf8").split('"msg":"search index built"').length - 1 : 0;

/**
 * Issue 36's two-instance run: this process writes (and serves its own in-process index) while
 * the site serves searches; every write must reach the site in place, within a second.
 */
/** Where both instances' searches are centred: at random in the contiguous US. */
const CENTRES = { south: 25, north: 49, west: -124, east: -67 };
const centre = () => ({
  lat: CENTRES.south + Math.random() * (CENTRES.north - CENTRES.south),
  lng: CENTRES.west + Math.random() * (CENTRES.east - CENTRES.west),
});

/** The site's searchers, in a worker thread: two loops of GET /api/search at random CENTRES. */
const SITE_SEARCHER = `
const { parentPort, workerData } = require("node:worker_threads");
const { baseUrl, until, centres } = workerData;
const latencies = [];
// The site's own time for each answer (its Server-Timing header), beside the time seen here.
const own = [];
let errors = 0;
async function searcher() {
  while (Date.now() < until) {
    const lat = centres.south + Math.random() * (centres.north - centres.south);
    const lng = centres.west + Math.random() * (centres.east - centres.west);
    const t = performance.now();
    try {
      const response = await fetch(baseUrl + "/api/search?lat=" + lat.toFixed(4) + "&lng=" + lng.toFixed(4));
      await response.arrayBuffer();
      if (!response.ok) errors++;
      const timing = response.headers.get("server-timing") || "";
      const at = timing.indexOf("dur=");
      if (at !== -1) own.push(Number(timing.slice(at + 4)));
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t);
  }
}
Promise.all([searcher(), searcher()]).then(() => parentPort.postMessage({ latencies, own, errors }));
`;

async function writesWhileServing(site: RunningSite, url: string) {
  const handle = await openDatabase({ kind: "postgres", url, max: 4 });
  try {
    const building = Date.now();
    await refreshSearchIndex(handle.db);
    console.log(
      `  writer instance: its own index of ${getSearchIndex().size.toLocaleString("en-US")} listings built in ${((Date.now() - building) / 1000).toFixed(1)} s`,
    );
    const rebuildsBefore = rebuildsLogged();
    const siteLatencies: number[] = [];
    const localLatencies: number[] = [];
    const lags: number[] = [];
    let lost = 0;
    let errors = 0;
    const until = Date.now() + WRITE_SECONDS * 1000;
    // Searches on the site, two at a time, the whole while, timed by a thread of their own: this
    // thread is the writing instance, whose own searches run synchronously and would otherwise
    // hold the site's answers back before they are timed.
    const searchers = new Promise<{ latencies: number[]; own: number[]; errors: number }>((resolve, reject) => {
      const worker = new Worker(SITE_SEARCHER, {
        eval: true,
        workerData: { baseUrl: site.baseUrl, until, centres: CENTRES },
      });
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    // Each write: renamed with a unique word, applied here, announced; then looked for on the site.
    const visibleOnSite = async (word: string, lat: number, lng: number, since: number) => {
      const deadline = since + 5_000;
      while (Date.now() < deadline) {
        const response = await fetch(
          `${site.baseUrl}/api/search?lat=${lat}&lng=${lng}&radius=1&q=${word}&pageSize=1`,
        ).catch(() => undefined);
        const body = response?.ok ? ((await response.json()) as { total: number }) : undefined;
        if (body && body.total > 0) return lags.push(Date.now() - since);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      lost++;
    };
    // Writes start on the clock, 20 a second, whatever each one takes to be applied and seen.
    const write = async (i: number) => {
      const started = Date.now();
      const id = `bench${1 + Math.floor(Math.random() * LISTINGS)}`;
      const word = `w${i}x${randomBytes(2).toString("hex")}`;
      const result = await handle.db.execute(
        sql`update locations set name = ${`Bench RV Storage ${word}`} where place_id = ${id} returning latitude, longitude`,
      );
      await notifyLocationsChanged(handle.db);
      const [row] = (result as unknown as { rows: { latitude: number; longitude: number }[] }).rows;
      if (row) await visibleOnSite(word, row.latitude, row.longitude, started);
    };
    // This instance's own searches, between its writes.
    const localSearches = async () => {
      while (Date.now() < until) {
        const { lat, lng } = centre();
        const t = performance.now();
        getSearchIndex().query({
          lat,
          lng,
          radius: 100,
          sizes: [],
          amenities: [],
          sort: "distance",
          page: 1,
          pageSize: 12,
        });
        localLatencies.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const writer = async () => {
      const writes: Promise<unknown>[] = [];
      const start = Date.now();
      for (let i = 0; Date.now() < until; i++) {
        writes.push(write(i));
        const wait = start + ((i + 1) * 1000) / WRITES_PER_SECOND - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      await Promise.all(writes);
    };
    const [, , fromSite] = await Promise.all([writer(), localSearches(), searchers]);
    siteLatencies.push(...fromSite.latencies);
    errors += fromSite.errors;
    return {
      writes: lags.length + lost,
      lost,
      errors,
      lagP50: percentile(lags, 0.5),
      lagMax: Math.max(...lags),
      siteP50: percentile(siteLatencies, 0.5),
      siteP99: percentile(siteLatencies, 0.99),
      siteOwnP50: percentile(fromSite.own, 0.5),
      siteOwnP99: percentile(fromSite.own, 0.99),
      localP50: percentile(localLatencies, 0.5),
      localP99: percentile(localLatencies, 0.99),
      rebuilds: rebuildsLogged() - rebuildsBefore,
    };
  } finally {
    await handle.close();
  }
}

async function main(): Promise<number> {
  if (!process.env.SKIP_BUILD) {
    const build = spawnSync("npx", ["react-router", "build"], {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (build.status !== 0) throw new Error("The build failed");
  }
  process.env.SKIP_BUILD = "1";
  const name = `rvbench_startup_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  let site: RunningSite | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-bench-startup-"));
  try {
    console.log(
      WRITES_ONLY
        ? `writes while serving: ${LISTINGS.toLocaleString("en-US")} listings in PostgreSQL, two instances`
        : `bench:startup: ${LISTINGS.toLocaleString("en-US")} listings in PostgreSQL, ${RUNS} start-ups`,
    );
    const fillStarted = Date.now();
    await fill(url.toString());
    console.log(`  loaded in ${((Date.now() - fillStarted) / 1000).toFixed(0)} s`);
    const times: number[] = [];
    const rss: number[] = [];
    const peaks: number[] = [];
    // One data folder for every start: the first builds the index and saves its snapshot, the
    // others start from it (docs/operations.md, "Search index").
    const snapshot = path.join(dataDir, "search-index.snapshot");
    for (let run = 0; run <= RUNS; run++) {
      const started = Date.now();
      site = await startBuiltSite({
        dataDir,
        // The last instance logs its rebuilds (info), which the writes section counts.
        env: {
          DATABASE_URL: url.toString(),
          DEMO_DATA: "off",
          SITE_URL: "",
          LOG_LEVEL: run === RUNS ? "info" : "warn",
          // The daily jobs start a minute after boot, inside the writes section, and one of them
          // reads the whole catalogue (the listing data check): measured here are the writes.
          DAILY_JOBS: "off",
        },
        logFile: SERVER_LOG,
      });
      const ms = Date.now() - started;
      const memory = memoryOf(site.child!.pid!);
      if (run === 0) {
        console.log(
          `  from the database: serving after ${(ms / 1000).toFixed(1)} s, resident ${memory.rssMb} MB, peak ${memory.peakMb} MB`,
        );
        // The snapshot is written after the start, in the background.
        const deadline = Date.now() + 120_000;
        while (!fs.existsSync(snapshot) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        if (!fs.existsSync(snapshot)) throw new Error("the first start saved no search index snapshot within 120 s");
        console.log(`  snapshot: ${Math.round(fs.statSync(snapshot).size / 1e6)} MB`);
      } else {
        times.push(ms);
        rss.push(memory.rssMb);
        peaks.push(memory.peakMb);
        console.log(
          `  run ${run} from the snapshot: serving after ${(ms / 1000).toFixed(1)} s, resident ${memory.rssMb} MB, peak ${memory.peakMb} MB`,
        );
      }
      if (run < RUNS) {
        await site.stop();
        site = undefined;
      }
    }
    let rebuildOk = true;
    if (!WRITES_ONLY) {
      console.log(
        `  median from the snapshot: serving after ${(median(times) / 1000).toFixed(1)} s, resident ${median(rss)} MB, peak ${median(peaks)} MB (target: ready within 15 s)`,
      );
      const rebuild = await rebuildWhileServing(site!, url.toString());
      console.log(
        `  a listing added by another instance (applied in place): found after ${
          rebuild.foundAfter === undefined ? "(not within 120 s)" : `${(rebuild.foundAfter / 1000).toFixed(1)} s`
        }; meanwhile ${rebuild.requests} searches answered, p50 ${rebuild.p50} ms, p99 ${rebuild.p99} ms, ${rebuild.errors} errors`,
      );
      rebuildOk = rebuild.errors === 0 && rebuild.foundAfter !== undefined;
    }
    const writes = await writesWhileServing(site!, url.toString());
    console.log(
      `  ${writes.writes} writes in ${WRITE_SECONDS} s on a second instance: visible on the site after p50 ${writes.lagP50} ms, at most ${writes.lagMax} ms (${writes.lost} not within 5 s); ` +
        `site searches p50 ${writes.siteP50.toFixed(2)} ms, p99 ${writes.siteP99.toFixed(2)} ms (${writes.errors} errors; ` +
        `the site's own time, from Server-Timing, p50 ${writes.siteOwnP50.toFixed(2)} ms, p99 ${writes.siteOwnP99.toFixed(2)} ms); ` +
        `writer's in-process searches p50 ${writes.localP50.toFixed(2)} ms, p99 ${writes.localP99.toFixed(2)} ms; ` +
        `full rebuilds on the site meanwhile: ${writes.rebuilds}`,
    );
    console.log("  targets: every write visible within 1 s, search p99 <= 10 ms on both, no full rebuild");
    return rebuildOk && writes.lost === 0 && writes.errors === 0 ? 0 : 1;
  } finally {
    await site?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

runScript(main);
