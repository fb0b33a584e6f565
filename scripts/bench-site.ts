/**
 * npm run bench:site: mixed traffic against one instance of the built site, then against two on the
 * same PostgreSQL (docs/operations.md, "Benchmarks and page budgets").
 *
 * Creates a scratch database on BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * starts instance A on it (demo catalogue, DEMO_COUNT listings, default 3000), collects request
 * targets from the running site (50 towns resolved through the suggest endpoint, their results
 * pages, the facility links on those pages, listing ids from /api/search), fetches each once, and
 * opens anonymous sessions for the beacons. Each run then measures A alone for BENCH_SECONDS (20),
 * starts instance B (same database, data directory and AUTH_SECRET, DEMO_DATA=off, its own port),
 * requests one target of each kind from it, measures A and B together and stops B. Two instances
 * are measured with two autocannon runs in parallel, one per instance, each with half of the
 * BENCH_CONNECTIONS (16), summed: no proxy sits in the path. Every measurement follows
 * BENCH_WARMUP seconds (5) of the same traffic, not counted. BENCH_RUNS (1) repeats and prints the
 * median of the runs.
 *
 * Any answer other than 2xx/3xx, or any socket error or timeout, fails the run: exit 1, naming the
 * requests and the end of the instances' logs. The database is dropped and the instances stopped
 * on every exit, Ctrl+C included.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { PAGE_SIZE } from "../domain/search";
import { runScript, startBuiltSite, type RunningSite } from "./lib/serve-built";
import {
  USER_AGENT,
  anonymousSession,
  facilityLinks,
  getJson,
  median,
  positive,
  prime,
  resolveTowns,
  table,
} from "./lib/bench";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const SECONDS = positive("BENCH_SECONDS", 20);
const WARMUP = process.env.BENCH_WARMUP === "0" ? 0 : positive("BENCH_WARMUP", 5);
const RUNS = positive("BENCH_RUNS", 1);
/**
 * Connections in all, split evenly between the instances: the same visitors whether one instance
 * serves them or two, so the rate shows what the second adds and the latency what it relieves.
 */
const CONNECTIONS = positive("BENCH_CONNECTIONS", 16);
const SESSIONS = positive("BENCH_SESSIONS", 200);

/**
 * The traffic: typed searches (`?where=`, answered with a redirect), results pages and the
 * filters' /api/search calls make up 45%; facility pages 25%; the home page, place suggestions
 * and analytics beacons 10% each.
 */
const MIX = [
  ["results", 30],
  ["where", 5],
  ["api-search", 10],
  ["facility", 25],
  ["home", 10],
  ["suggest", 10],
  ["beacon", 10],
] as const;
type Kind = (typeof MIX)[number][0];
const KINDS = MIX.map(([kind]) => kind);
const WEIGHT_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0);

interface Targets {
  /** GET paths by kind (every kind but the beacons). */
  paths: Record<Exclude<Kind, "beacon">, string[]>;
  /** Listings the beacons report on. */
  listings: { id: string; slug: string }[];
  /** Results pages the list-view beacons come from. */
  resultsPaths: string[];
}

interface Visitor {
  cookie: string;
  address: string;
}

/** The simulated address of visitor i (10.x.y.z): the instances run with TRUST_PROXY=loopback. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

function pickKind(): Kind {
  let roll = Math.random() * WEIGHT_TOTAL;
  for (const [kind, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return MIX[0][0];
}

// ---------------------------------------------------------------- targets

async function collectTargets(baseUrl: string): Promise<Targets> {
  const places = await resolveTowns(baseUrl);

  const results: string[] = [];
  const where: string[] = [];
  const apiSearch: string[] = [];
  const suggest = new Set<string>();
  const facility = new Set<string>();
  const listings = new Map<string, string>();
  for (const place of places) {
    const point = `lat=${place.lat}&lng=${place.lng}`;
    const found = await getJson<{ total: number; items: { id: string; slug: string }[] }>(
      `${baseUrl}/api/search?${point}&radius=100&pageSize=24`,
    );
    for (const item of found.items) listings.set(item.id, item.slug);

    const page = `/rv-storage/${place.slug}`;
    results.push(
      page,
      `${page}?sort=rating`,
      `${page}?size=10x20`,
      `${page}?amenity=has_covered_parking`,
      `${page}?size=12x30&amenity=has_climate_controlled`,
      `${page}?radius=50`,
      `/rv-storage?${point}`,
    );
    if (found.total > PAGE_SIZE) results.push(`${page}?page=2`);
    where.push(`/rv-storage?where=${encodeURIComponent(place.town)}`);
    // The results page's own calls: a page of results, and the filters' preview counts.
    apiSearch.push(
      `/api/search?${point}&radius=100`,
      `/api/search?${point}&radius=50&sort=rating`,
      `/api/search?${point}&radius=100&pageSize=0&size=10x20`,
      `/api/search?${point}&radius=100&pageSize=0&amenity=has_covered_parking`,
    );
    // What a visitor types, keystroke by keystroke, past the 2-character threshold.
    const name = place.town.toLowerCase();
    for (const length of [3, 4, 6, name.length])
      suggest.add(`/api/places/suggest?q=${encodeURIComponent(name.slice(0, length))}`);

    const response = await fetch(baseUrl + page, { headers: { "user-agent": USER_AGENT } });
    if (!response.ok) throw new Error(`GET ${page}: ${response.status}`);
    for (const link of facilityLinks(await response.text())) facility.add(link);
  }
  if (facility.size === 0) throw new Error("No facility links on the results pages");
  if (listings.size === 0) throw new Error("No listings from /api/search for the beacons");
  return {
    paths: { results, where, "api-search": apiSearch, facility: [...facility], home: ["/"], suggest: [...suggest] },
    listings: [...listings].map(([id, slug]) => ({ id, slug })),
    resultsPaths: results,
  };
}

/** Primes the site with every target once; any answer but 2xx/3xx is an error. */
const primeAll = (baseUrl: string, all: readonly string[]) =>
  prime(baseUrl, all, {
    headers: { "user-agent": USER_AGENT, "accept-encoding": "gzip, deflate, br, zstd" },
    ok: (status) => status < 400,
  });

async function openSessions(baseUrl: string): Promise<Visitor[]> {
  const visitors: Visitor[] = [];
  for (let i = 0; i < SESSIONS; i += 8) {
    const wave = Array.from({ length: Math.min(8, SESSIONS - i) }, (_, j) => addressOf(i + j + 1));
    const cookies = await Promise.all(wave.map((address) => anonymousSession(baseUrl, address)));
    visitors.push(...cookies.map((cookie, j) => ({ cookie, address: wave[j]! })));
  }
  return visitors;
}

/** A small beacon batch (1 to 4 events) as the tracker sends it from a page. */
function beacon(baseUrl: string, targets: Targets): string {
  const now = new Date().toISOString();
  const sessionId = randomBytes(8).toString("hex");
  const count = 1 + Math.floor(Math.random() * 4);
  const events = [];
  for (let i = 0; i < count; i++) {
    const listing = pick(targets.listings);
    const roll = Math.random();
    const base = {
      eventId: randomUUID(),
      timestamp: now,
      sessionId,
      userAgent: USER_AGENT,
      referrer: roll < 0.2 ? "https://www.google.com/" : "",
      viewport: { width: 390, height: 844 },
      locationId: listing.id,
    };
    const facilityUrl = `${baseUrl}/location/${listing.slug}`;
    if (roll < 0.4) events.push({ ...base, url: facilityUrl, eventType: "page_view" });
    else if (roll < 0.8) events.push({ ...base, url: baseUrl + pick(targets.resultsPaths), eventType: "list_view" });
    else
      events.push({
        ...base,
        url: facilityUrl,
        eventType: "click",
        elementType: pick(["phone", "website", "directions", "contact_button"] as const),
      });
  }
  return JSON.stringify(events);
}

// ---------------------------------------------------------------- load

interface Phase {
  seconds: number;
  counts: Record<Kind, number>;
  latencies: Record<Kind, number[]>;
  /** "kind status" -> how many, and one request with the start of its answer. */
  failures: Map<string, { count: number; example: string }>;
  /** Socket errors and timeouts by message. */
  errors: Map<string, number>;
  /** CPU this process (the load generator) used, as a share of one core. */
  generatorCpu: number;
  /** Share of all cores busy on the machine (anything running on it). */
  machineBusy: number;
  /** Answers by instance, in the order of the sites. */
  perSite: number[];
}

interface RequestContext {
  kind?: Kind;
  target?: string;
  started?: number;
}

const running = new Set<autocannon.Instance>();

function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/** One autocannon run per site, in parallel; the responses of all of them are tallied together. */
async function load(sites: RunningSite[], seconds: number, targets: Targets, visitors: Visitor[]): Promise<Phase> {
  const phase: Phase = {
    seconds,
    counts: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    latencies: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
    failures: new Map(),
    errors: new Map(),
    generatorCpu: 0,
    machineBusy: 0,
    perSite: sites.map(() => 0),
  };
  const cpuBefore = process.cpuUsage();
  const machineBefore = cpuTimes();
  const wallStart = performance.now();
  const runs = sites.map(
    ({ baseUrl }, site) =>
      new Promise<void>((resolve, reject) => {
        const instance = autocannon(
          {
            url: baseUrl,
            connections: Math.max(1, Math.round(CONNECTIONS / sites.length)),
            duration: seconds,
            requests: [
              {
                setupRequest: (request, context) => {
                  const ctx = context as RequestContext;
                  const kind = pickKind();
                  const visitor = pick(visitors);
                  ctx.kind = kind;
                  ctx.started = performance.now();
                  // A new headers object each time: autocannon writes Content-Length into it.
                  if (kind === "beacon") {
                    ctx.target = "/api/analytics/events";
                    return {
                      ...request,
                      method: "POST",
                      path: ctx.target,
                      headers: {
                        "content-type": "application/json",
                        origin: baseUrl,
                        "user-agent": USER_AGENT,
                        cookie: visitor.cookie,
                        "x-forwarded-for": visitor.address,
                      },
                      body: beacon(baseUrl, targets),
                    };
                  }
                  ctx.target = pick(targets.paths[kind]);
                  const page = kind === "results" || kind === "where" || kind === "facility" || kind === "home";
                  return {
                    ...request,
                    method: "GET",
                    path: ctx.target,
                    headers: {
                      accept: page ? "text/html,application/xhtml+xml,*/*;q=0.8" : "*/*",
                      "accept-encoding": "gzip, deflate, br, zstd",
                      "user-agent": USER_AGENT,
                      "x-forwarded-for": visitor.address,
                    },
                  };
                },
                onResponse: (status, body, context) => {
                  const { kind, target, started } = context as RequestContext;
                  if (!kind || started === undefined) return;
                  phase.counts[kind]++;
                  phase.perSite[site]!++;
                  phase.latencies[kind].push(performance.now() - started);
                  if (status < 200 || status >= 400) {
                    const key = `${kind} ${status}`;
                    const seen = phase.failures.get(key);
                    if (seen) seen.count++;
                    else
                      phase.failures.set(key, {
                        count: 1,
                        example: `${kind === "beacon" ? "POST" : "GET"} ${baseUrl}${target}: ${body.slice(0, 300)}`,
                      });
                  }
                },
              },
            ],
          },
          (error) => {
            running.delete(instance);
            if (error) reject(error);
            else resolve();
          },
        );
        running.add(instance);
        instance.on("reqError", (error: Error) => {
          phase.errors.set(error.message, (phase.errors.get(error.message) ?? 0) + 1);
        });
      }),
  );
  await Promise.all(runs);
  const wall = (performance.now() - wallStart) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = cpuTimes();
  phase.seconds = wall;
  phase.generatorCpu = (cpu.user + cpu.system) / 1e6 / wall;
  phase.machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  return phase;
}

// ---------------------------------------------------------------- report

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

interface Summary {
  rps: number;
  kinds: Record<Kind, { rps: number; p50: number; p99: number }>;
  generatorCpu: number;
  machineBusy: number;
  /** req/s by instance. */
  perSite: number[];
}

function summarize(phase: Phase): Summary {
  const kinds = {} as Summary["kinds"];
  let total = 0;
  for (const kind of KINDS) {
    const sorted = phase.latencies[kind].sort((a, b) => a - b);
    total += phase.counts[kind];
    kinds[kind] = {
      rps: phase.counts[kind] / phase.seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
    };
  }
  return {
    rps: total / phase.seconds,
    kinds,
    generatorCpu: phase.generatorCpu,
    machineBusy: phase.machineBusy,
    perSite: phase.perSite.map((n) => n / phase.seconds),
  };
}

/** Failures of a phase, printed; true when there were any. */
function reportFailures(label: string, phase: Phase): boolean {
  if (phase.failures.size === 0 && phase.errors.size === 0) return false;
  console.log(`\nFAILED during ${label}:`);
  for (const [key, { count, example }] of phase.failures) console.log(`  ${count} x ${key}, e.g. ${example}`);
  for (const [message, count] of phase.errors) console.log(`  ${count} x socket error or timeout: ${message}`);
  return true;
}

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

function printComparison(title: string, one: Summary, two: Summary, ratio: number): void {
  console.log(`\n${title}`);
  console.log(
    table(
      ["kind", "share", "1: req/s", "1: p50 ms", "1: p99 ms", "2: req/s", "2: p50 ms", "2: p99 ms"],
      [
        ...MIX.map(([kind, weight]) => [
          kind,
          `${weight}%`,
          fixed(one.kinds[kind].rps),
          fixed(one.kinds[kind].p50),
          fixed(one.kinds[kind].p99),
          fixed(two.kinds[kind].rps),
          fixed(two.kinds[kind].p50),
          fixed(two.kinds[kind].p99),
        ]),
        ["total", "100%", fixed(one.rps), "", "", fixed(two.rps), "", ""],
      ],
    ),
  );
  console.log(`two instances: ${two.perSite.map((rps) => fixed(rps)).join(" + ")} req/s (A + B)`);
  console.log(
    `two/one: ${ratio.toFixed(2)}; load generator ${Math.round(one.generatorCpu * 100)}% / ${Math.round(two.generatorCpu * 100)}% of a core; machine busy ${Math.round(one.machineBusy * 100)}% / ${Math.round(two.machineBusy * 100)}% of ${os.availableParallelism()} cores`,
  );
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const name = `rvbench_site_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "rvbench-site-"));
  const logOf = (instance: string) => path.join(workDir, `${instance}.log`);
  // One DATA_DIR for both instances, as several instances share their files (docs/operations.md,
  // "Backups"): B finds the demo photos A has drawn instead of drawing them again under load.
  const dataDir = path.join(workDir, "data");
  const sites = new Map<string, RunningSite>();
  let databaseCreated = false;
  // Once, whichever comes first (the end of main or a signal); both wait for the same promise.
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const instance of running) instance.stop();
      await Promise.all([...sites.values()].map((site) => site.stop().catch(() => {})));
      sites.clear();
      fs.rmSync(workDir, { recursive: true, force: true });
      if (databaseCreated) {
        const admin = new pg.Client({ connectionString: SERVER_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    })());
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the instances and dropping ${name}`);
    void cleanUp()
      .catch((error: unknown) => console.error(error instanceof Error ? error.message : String(error)))
      .finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let failed = false;
  try {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    databaseCreated = true;
    await admin.end();
    const url = new URL(SERVER_URL);
    url.pathname = `/${name}`;
    delete process.env.SITE_URL; // the bench starts its own instances on its own database
    const shared = {
      DATABASE_URL: url.toString(),
      // One key on every instance, so a session opened on one is valid on the other.
      AUTH_SECRET: randomBytes(32).toString("hex"),
      // The bench is the proxy: each visitor's address comes in X-Forwarded-For.
      TRUST_PROXY: "loopback",
      // The in-memory batch limits count per instance and would refuse a benchmark's beacons.
      ANALYTICS_RATE_PER_SESSION: "100000000",
      ANALYTICS_RATE_PER_IP: "100000000",
      DEMO_COUNT: process.env.DEMO_COUNT ?? "3000",
    };

    console.log(`Starting instance A on ${name} (demo catalogue of ${shared.DEMO_COUNT})...`);
    const a = await startBuiltSite({ logFile: logOf("a"), dataDir, env: { ...shared, DEMO_DATA: "auto" } });
    sites.set("a", a);
    process.env.SKIP_BUILD = "1"; // built once, for A
    const targets = await collectTargets(a.baseUrl);
    await primeAll(a.baseUrl, Object.values(targets.paths).flat());
    const visitors = await openSessions(a.baseUrl);
    const counts = Object.entries(targets.paths)
      .map(([kind, list]) => `${list.length} ${kind}`)
      .join(", ");
    console.log(
      `targets: ${counts}; ${targets.listings.length} listings for beacons of 1-4 events from ${visitors.length} anonymous sessions`,
    );
    console.log(
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); Node ${process.version}; ` +
        `${CONNECTIONS} connections (split between the instances), ${WARMUP} s warm-up + ${SECONDS} s per measurement, ${RUNS} run(s)`,
    );
    console.log(
      "Two instances: two autocannon runs in parallel from this process, one per instance, summed (no proxy in the path).",
    );

    const summaries: { one: Summary; two: Summary; ratio: number }[] = [];
    for (let run = 1; run <= RUNS && !failed; run++) {
      const measure = async (label: string, on: RunningSite[]) => {
        if (WARMUP > 0) {
          const warm = await load(on, WARMUP, targets, visitors);
          if (reportFailures(`${label}, warm-up`, warm)) return undefined;
        }
        const phase = await load(on, SECONDS, targets, visitors);
        return reportFailures(label, phase) ? undefined : summarize(phase);
      };
      console.log(`\nrun ${run}/${RUNS}: one instance...`);
      const one = await measure(`run ${run}, one instance`, [a]);
      if (!one) {
        failed = true;
        break;
      }
      console.log(`run ${run}/${RUNS}: starting instance B (DEMO_DATA=off) on the same database...`);
      const b = await startBuiltSite({ logFile: logOf("b"), dataDir, env: { ...shared, DEMO_DATA: "off" } });
      sites.set("b", b);
      // One request of each kind loads B's route modules; the warm-up does the rest.
      await primeAll(
        b.baseUrl,
        Object.values(targets.paths).map((list) => list[0]!),
      );
      console.log(`run ${run}/${RUNS}: two instances...`);
      const two = await measure(`run ${run}, two instances`, [a, b]);
      await b.stop();
      sites.delete("b");
      if (!two) {
        failed = true;
        break;
      }
      const ratio = two.rps / one.rps;
      summaries.push({ one, two, ratio });
      printComparison(`run ${run}: one instance (1) vs two instances (2)`, one, two, ratio);
    }

    if (!failed && summaries.length > 1) {
      const med = (get: (s: (typeof summaries)[number]) => number) => median(summaries.map(get));
      const summaryOf = (which: "one" | "two"): Summary => ({
        rps: med((s) => s[which].rps),
        kinds: Object.fromEntries(
          KINDS.map((kind) => [
            kind,
            {
              rps: med((s) => s[which].kinds[kind].rps),
              p50: med((s) => s[which].kinds[kind].p50),
              p99: med((s) => s[which].kinds[kind].p99),
            },
          ]),
        ) as Summary["kinds"],
        generatorCpu: med((s) => s[which].generatorCpu),
        perSite: summaries[0]![which].perSite.map((_, i) => med((s) => s[which].perSite[i]!)),
        machineBusy: med((s) => s[which].machineBusy),
      });
      printComparison(
        `median of ${summaries.length} runs (each figure on its own; two/one is the median of the runs' ratios)`,
        summaryOf("one"),
        summaryOf("two"),
        med((s) => s.ratio),
      );
    }
    if (!failed) {
      // Two instances, the load generator and PostgreSQL: four busy processes.
      const cores = os.availableParallelism();
      console.log(
        cores < 4
          ? `\nRead two/one against the cores: two instances, the load generator and PostgreSQL share ${cores} cores here, so two instances cannot double the rate; the ratio measures this machine more than the site.`
          : `\nRead two/one against the cores: with ${cores} cores each instance, the load generator and PostgreSQL can have one; near 2.0 the second instance adds its full share, well below it something shared (PostgreSQL, the machine) is the limit.`,
      );
    }
  } catch (error) {
    failed = true;
    if (!interrupted) console.error(error instanceof Error ? error.message : String(error));
  } finally {
    if (failed && !interrupted) {
      for (const instance of ["a", "b"]) {
        const log = logOf(instance);
        if (!fs.existsSync(log)) continue;
        const lines = fs.readFileSync(log, "utf8").trimEnd().split("\n").slice(-20);
        if (lines.join("").trim())
          console.log(`\nlast lines of instance ${instance.toUpperCase()}'s log:\n${lines.join("\n")}`);
      }
    }
    await cleanUp();
  }
  return failed ? 1 : 0;
}

runScript(main);
