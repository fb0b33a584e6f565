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
 * Between the two, unless BENCH_PROXY=off, the same traffic goes through nginx configured from the
 * reference shared cache (deploy/nginx/nginx.conf.template, scripts/lib/caching-proxy.ts) in front
 * of A alone, with all BENCH_CONNECTIONS, after each document target was asked once through it: the
 * pages come without cookies, as search engines' visitors arrive, the beacons with their anonymous
 * sessions. Then, unless BENCH_PROXY=mixed, documents only, from A alone and through nginx. It
 * prints the share of document requests nginx answered from its cache (HIT, STALE or UPDATING in
 * its access log, which counts every request), the documents a second through nginx against A
 * alone, and their p99 through nginx, beside issue 37's targets (>= 95%, >= 10x, <= 20 ms).
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
import {
  FROM_CACHE,
  parseAccessLog,
  startCachingProxy,
  type AccessLogLine,
  type CachingProxy,
} from "./lib/caching-proxy";
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
/** BENCH_PROXY=off skips the runs through nginx; BENCH_PROXY=mixed skips the documents-only one. */
const PROXY = process.env.BENCH_PROXY !== "off";
const PROXY_DOCUMENTS = PROXY && process.env.BENCH_PROXY !== "mixed";

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
/** The document requests: what a browser navigates to (typed searches answer with a redirect). */
const PAGE_KINDS: readonly Kind[] = ["results", "where", "facility", "home"];
/** The pages the site lets a shared cache keep (a typed search's redirect is private). */
const CACHEABLE_KINDS: readonly Kind[] = ["results", "facility", "home"];
type Mix = readonly (readonly [Kind, number])[];
/** Only what visitors from a search engine ask for: the documents, in the mix's proportions. */
const DOCUMENTS_MIX: Mix = MIX.filter(([kind]) => PAGE_KINDS.includes(kind));

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

function pickKind(mix: Mix): Kind {
  let roll = Math.random() * mix.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of mix) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return mix[0]![0];
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
    // Without the fragment (a card's "Ask about space" link ends in #ask): browsers never send one,
    // and through nginx "/location/x#ask" would be a cache entry of its own.
    for (const link of facilityLinks(await response.text())) facility.add(link.split("#", 1)[0]!);
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
    if (roll < 0.3) events.push({ ...base, url: facilityUrl, eventType: "page_view" });
    // A results page's view, from which search demand counts the search (the server searches again).
    else if (roll < 0.4)
      events.push({ ...base, locationId: null, url: baseUrl + pick(targets.resultsPaths), eventType: "page_view" });
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
  /** When the load started and ended, in seconds since the epoch (to pick its lines from a log). */
  startedAt: number;
  endedAt: number;
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
async function load(
  sites: RunningSite[],
  seconds: number,
  targets: Targets,
  visitors: Visitor[],
  mix: Mix = MIX,
): Promise<Phase> {
  const phase: Phase = {
    seconds,
    counts: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    latencies: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
    failures: new Map(),
    errors: new Map(),
    generatorCpu: 0,
    machineBusy: 0,
    perSite: sites.map(() => 0),
    startedAt: Date.now() / 1000,
    endedAt: 0,
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
                  const kind = pickKind(mix);
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
  phase.endedAt = Date.now() / 1000;
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

// ---------------------------------------------------------------- through nginx

/** The kind of a request in nginx's access log, by its method and URI (as the targets are built). */
function kindOfRequest(method: string, uri: string): Kind | undefined {
  if (method === "POST") return uri === "/api/analytics/events" ? "beacon" : undefined;
  if (uri === "/") return "home";
  if (uri.startsWith("/rv-storage?where=")) return "where";
  if (uri.startsWith("/rv-storage")) return "results";
  if (uri.startsWith("/location/")) return "facility";
  if (uri.startsWith("/api/search?")) return "api-search";
  if (uri.startsWith("/api/places/suggest?")) return "suggest";
  return undefined;
}

/** Requests nginx logged, and how many it answered from its cache, by $upstream_cache_status. */
interface CacheCount {
  total: number;
  fromCache: number;
  byStatus: Map<string, number>;
}

const newCount = (): CacheCount => ({ total: 0, fromCache: 0, byStatus: new Map() });
const shareOf = (count: CacheCount) => (count.total > 0 ? count.fromCache / count.total : NaN);

interface LogCounts {
  /** All document requests; those the site lets a cache keep; every kind. */
  documents: CacheCount;
  cacheable: CacheCount;
  perKind: Record<Kind, CacheCount>;
}

/** nginx's log lines of a phase (by their time), counted. */
function countLog(lines: AccessLogLine[], phase: Phase): LogCounts {
  const counts: LogCounts = {
    documents: newCount(),
    cacheable: newCount(),
    perKind: Object.fromEntries(KINDS.map((kind) => [kind, newCount()])) as Record<Kind, CacheCount>,
  };
  for (const line of lines) {
    if (line.time < phase.startedAt || line.time > phase.endedAt) continue;
    const kind = kindOfRequest(line.method, line.uri);
    if (!kind) continue;
    const into = [counts.perKind[kind]];
    if (PAGE_KINDS.includes(kind)) into.push(counts.documents);
    if (CACHEABLE_KINDS.includes(kind)) into.push(counts.cacheable);
    for (const count of into) {
      count.total++;
      if (FROM_CACHE.has(line.cacheStatus)) count.fromCache++;
      count.byStatus.set(line.cacheStatus, (count.byStatus.get(line.cacheStatus) ?? 0) + 1);
    }
  }
  return counts;
}

/** Document requests a second, and their p99 (ms), from the load generator's side. */
function documentsOf(phase: Phase): { rps: number; p99: number } {
  const latencies = PAGE_KINDS.flatMap((kind) => phase.latencies[kind]).sort((x, y) => x - y);
  return { rps: latencies.length / phase.seconds, p99: percentile(latencies, 0.99) };
}

interface ProxyFigures {
  /** The mixed traffic through nginx, per kind (A alone is the run's "one"). */
  summary: Summary;
  log: LogCounts;
  /** Documents a second through nginx and from A alone (the same mixed traffic), and their p99. */
  pagesRps: number;
  onePagesRps: number;
  pagesP99: number;
  /** Documents only, A alone then through nginx (BENCH_PROXY=mixed leaves it out). */
  documentsOnly?: { oneRps: number; oneP99: number; rps: number; p99: number; log: LogCounts };
}

/**
 * The same traffic through nginx in front of A alone: nginx starts on a fresh cache, each document
 * target is requested once through it (earlier visitors, as for the instances), then the warm-up and
 * the measurement; then, unless BENCH_PROXY=mixed, documents only, from A alone and through nginx.
 * nginx's access log, read once it has stopped, says where each answer came from.
 */
async function throughProxy(
  label: string,
  a: RunningSite,
  one: Summary,
  targets: Targets,
  visitors: Visitor[],
  dir: string,
  started: (proxy: CachingProxy) => void,
): Promise<ProxyFigures | undefined> {
  const proxy = await startCachingProxy({ upstreams: [a.baseUrl], purgeToken: randomBytes(16).toString("hex"), dir });
  started(proxy);
  const site: RunningSite = { baseUrl: proxy.url, stop: () => proxy.stop() };
  await primeAll(
    proxy.url,
    PAGE_KINDS.flatMap((kind) => targets.paths[kind as Exclude<Kind, "beacon">]),
  );
  const measure = async (what: string, on: RunningSite, mix: Mix) => {
    if (WARMUP > 0) {
      const warm = await load([on], WARMUP, targets, visitors, mix);
      if (reportFailures(`${label}, ${what}, warm-up`, warm)) return undefined;
    }
    const phase = await load([on], SECONDS, targets, visitors, mix);
    return reportFailures(`${label}, ${what}`, phase) ? undefined : phase;
  };
  const mixed = await measure("mixed traffic", site, MIX);
  if (!mixed) return undefined;
  let alone: Phase | undefined;
  let documents: Phase | undefined;
  if (PROXY_DOCUMENTS) {
    console.log(`${label}: documents only, A alone and through nginx...`);
    alone = await measure("documents only, A alone", a, DOCUMENTS_MIX);
    if (!alone) return undefined;
    documents = await measure("documents only, through nginx", site, DOCUMENTS_MIX);
    if (!documents) return undefined;
  }
  await proxy.stop();

  const lines = parseAccessLog(fs.readFileSync(proxy.accessLog, "utf8"));
  const summary = summarize(mixed);
  const figures: ProxyFigures = {
    summary,
    log: countLog(lines, mixed),
    pagesRps: documentsOf(mixed).rps,
    onePagesRps: PAGE_KINDS.reduce((sum, kind) => sum + one.kinds[kind].rps, 0),
    pagesP99: documentsOf(mixed).p99,
  };
  if (alone && documents) {
    const before = documentsOf(alone);
    const after = documentsOf(documents);
    figures.documentsOnly = {
      oneRps: before.rps,
      oneP99: before.p99,
      rps: after.rps,
      p99: after.p99,
      log: countLog(lines, documents),
    };
  }
  return figures;
}

const percent = (share: number) => (Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : "-");
const verdict = (met: boolean) => (met ? "met" : "missed");

/** The figures issue 37 sets targets for, one traffic's worth. */
interface TargetFigures {
  hit: number;
  cacheableHit: number;
  rps: number;
  oneRps: number;
  p99: number;
}

function printTargets(traffic: string, { hit, cacheableHit, rps, oneRps, p99 }: TargetFigures): void {
  const ratio = rps / oneRps;
  console.log(`${traffic}:`);
  console.log(
    `  documents answered from nginx's cache: ${percent(hit)} (target >= 95%: ${verdict(hit >= 0.95)}); ` +
      `of the pages the site lets a cache keep (results, facility, home): ${percent(cacheableHit)}`,
  );
  console.log(
    `  document throughput: ${fixed(rps)}/s through nginx, ${fixed(oneRps)}/s from A alone: ` +
      `${ratio.toFixed(1)}x (target >= 10x: ${verdict(ratio >= 10)})`,
  );
  console.log(`  document p99 through nginx: ${fixed(p99)} ms (target <= 20 ms: ${verdict(p99 <= 20)})`);
}

const mixedTargets = (f: ProxyFigures): TargetFigures => ({
  hit: shareOf(f.log.documents),
  cacheableHit: shareOf(f.log.cacheable),
  rps: f.pagesRps,
  oneRps: f.onePagesRps,
  p99: f.pagesP99,
});

const documentsTargets = (f: ProxyFigures): TargetFigures | undefined =>
  f.documentsOnly && {
    hit: shareOf(f.documentsOnly.log.documents),
    cacheableHit: shareOf(f.documentsOnly.log.cacheable),
    rps: f.documentsOnly.rps,
    oneRps: f.documentsOnly.oneRps,
    p99: f.documentsOnly.p99,
  };

function printProxy(title: string, one: Summary, figures: ProxyFigures): void {
  const { summary, log } = figures;
  console.log(`\n${title}`);
  console.log(
    table(
      [
        "kind",
        "share",
        "A: req/s",
        "A: p50 ms",
        "A: p99 ms",
        "nginx: req/s",
        "nginx: p50 ms",
        "nginx: p99 ms",
        "from cache",
      ],
      [
        ...MIX.map(([kind, weight]) => [
          kind,
          `${weight}%`,
          fixed(one.kinds[kind].rps),
          fixed(one.kinds[kind].p50),
          fixed(one.kinds[kind].p99),
          fixed(summary.kinds[kind].rps),
          fixed(summary.kinds[kind].p50),
          fixed(summary.kinds[kind].p99),
          percent(shareOf(log.perKind[kind])),
        ]),
        ["total", "100%", fixed(one.rps), "", "", fixed(summary.rps), "", "", ""],
      ],
    ),
  );
  const statuses = (count: CacheCount) =>
    [...count.byStatus]
      .sort((x, y) => y[1] - x[1])
      .map(([status, n]) => `${status} ${n}`)
      .join(", ");
  console.log(
    `nginx's log, document requests of the mixed traffic: ${log.documents.total} (${statuses(log.documents)})`,
  );
  printTargets("the mixed traffic", mixedTargets(figures));
  const documents = documentsTargets(figures);
  if (documents && figures.documentsOnly) {
    printTargets(
      `documents only (A alone p99 ${fixed(figures.documentsOnly.oneP99)} ms; nginx's log: ${statuses(figures.documentsOnly.log.documents)})`,
      documents,
    );
  }
  console.log(
    `load generator ${Math.round(summary.generatorCpu * 100)}% of a core; machine busy ${Math.round(summary.machineBusy * 100)}% of ${os.availableParallelism()} cores (mixed traffic through nginx)`,
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
  const proxies = new Set<CachingProxy>();
  let databaseCreated = false;
  // Once, whichever comes first (the end of main or a signal); both wait for the same promise.
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const instance of running) instance.stop();
      await Promise.all([...proxies].map((proxy) => proxy.stop().catch(() => {})));
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
    const proxyRuns: ProxyFigures[] = [];
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
      if (PROXY) {
        console.log(`run ${run}/${RUNS}: nginx (deploy/nginx) in front of A alone...`);
        const figures = await throughProxy(
          `run ${run}, through nginx`,
          a,
          one,
          targets,
          visitors,
          path.join(workDir, `nginx-${run}`),
          (proxy) => proxies.add(proxy),
        );
        if (!figures) {
          failed = true;
          break;
        }
        proxyRuns.push(figures);
        printProxy(`run ${run}: A alone vs through nginx (same traffic, pages without cookies)`, one, figures);
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
    if (!failed && proxyRuns.length > 1) {
      console.log(`\nthrough nginx, median of ${proxyRuns.length} runs (each figure on its own):`);
      const medianOf = (all: TargetFigures[]): TargetFigures => ({
        hit: median(all.map((f) => f.hit)),
        cacheableHit: median(all.map((f) => f.cacheableHit)),
        rps: median(all.map((f) => f.rps)),
        oneRps: median(all.map((f) => f.oneRps)),
        p99: median(all.map((f) => f.p99)),
      });
      printTargets("the mixed traffic", medianOf(proxyRuns.map(mixedTargets)));
      const documents = proxyRuns.map(documentsTargets).filter((f) => f !== undefined);
      if (documents.length > 0) printTargets("documents only", medianOf(documents));
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
      for (const proxy of proxies) {
        const lines = fs.existsSync(proxy.errorLog) ? fs.readFileSync(proxy.errorLog, "utf8").trimEnd() : "";
        if (lines) console.log(`\nlast lines of nginx's error log:\n${lines.split("\n").slice(-20).join("\n")}`);
      }
    }
    await cleanUp();
  }
  return failed ? 1 : 0;
}

runScript(main);
