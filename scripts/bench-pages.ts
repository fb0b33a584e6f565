/**
 * npm run bench:pages: pages per second of one instance of the embedded default (PGlite, demo
 * catalogue), for the home page, results pages and facility pages, each kind measured on its own
 * (issue 36, "Pages, not only the API"; docs/operations.md, "Benchmarks and page budgets").
 *
 * Builds the site (SKIP_BUILD=1 reuses the last build) and starts it as `npm start` would, on a
 * fresh data directory and a free port, with a demo catalogue of DEMO_COUNT listings (3000; at most
 * 100000). Takes its targets from the running site: the results pages of the towns of
 * scripts/lib/bench.ts TOWNS and the facility links on them, so that no single URL is repeated
 * (the home page is one URL). Requests each target once, then per kind BENCH_WARMUP seconds (3) of
 * load not counted and BENCH_SECONDS (10) counted, with BENCH_CONNECTIONS (8) connections, as an
 * anonymous browser (no cookie, HTML accepted, compressed answers). BENCH_RUNS (3) repeats and
 * prints the median of the runs, the figure to quote.
 *
 * Target per kind: >= 200 pages/s and p99 <= 60 ms. Exit 1 on any answer other than 2xx, socket
 * error or timeout; 2 when a target is missed.
 *
 * Each kind is measured twice, on two starts of the site: as it runs by default, with the public
 * pages it has sent kept in memory for SHARED_CACHE_SECONDS (server/http/page-memory.ts), and with
 * PAGE_MEMORY_MB=0, where every page is rendered (what a page costs). The targets and the exit code
 * are the default's; BENCH_MEMORY=on or off measures one of the two.
 *
 * `-- --profile` runs the server under `node --cpu-prof` and, after the last run, prints the self
 * time of the hottest functions and of each package or folder (the .cpuprofile stays in .tmp/).
 * `-- --kinds home,facility` measures only those kinds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { summarizeProfile, type CpuProfile } from "./lib/cpu-profile";
import { USER_AGENT, facilityLinks, median, positive, prime, resolveTowns, table } from "./lib/bench";
import { runScript, startBuiltSite, type RunningSite } from "./lib/serve-built";

const SECONDS = positive("BENCH_SECONDS", 10);
const WARMUP = process.env.BENCH_WARMUP === "0" ? 0 : positive("BENCH_WARMUP", 3);
const CONNECTIONS = positive("BENCH_CONNECTIONS", 8);
const RUNS = positive("BENCH_RUNS", 3);
const DEMO_COUNT = process.env.DEMO_COUNT || "3000";
const MODES = (() => {
  const value = process.env.BENCH_MEMORY ?? "both";
  if (value === "both") return ["on", "off"] as const;
  if (value === "on" || value === "off") return [value] as const;
  throw new Error(`BENCH_MEMORY must be on, off or both, got "${value}"`);
})();
type Mode = (typeof MODES)[number];
const MODE_TITLE: Record<Mode, string> = {
  on: "pages kept in memory (the default)",
  off: "every page rendered (PAGE_MEMORY_MB=0)",
};

/** issue 36: each kind of page at this rate or more, with this p99 or less, at 8 connections. */
const TARGET_PAGES_PER_SECOND = 200;
const TARGET_P99_MS = 60;

const ALL_KINDS = ["home", "results", "facility"] as const;
type Kind = (typeof ALL_KINDS)[number];

function parseArgs(argv: readonly string[]): { profile: boolean; kinds: Kind[] } {
  let profile = false;
  let kinds: Kind[] = [...ALL_KINDS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--profile") profile = true;
    else if (arg === "--kinds" || arg.startsWith("--kinds=")) {
      const value = arg === "--kinds" ? argv[++i] : arg.slice("--kinds=".length);
      const named = (value ?? "").split(",").filter(Boolean);
      const unknown = named.filter((kind) => !(ALL_KINDS as readonly string[]).includes(kind));
      if (named.length === 0 || unknown.length > 0)
        throw new Error(`--kinds: a comma-separated list of ${ALL_KINDS.join(", ")}, got "${value ?? ""}"`);
      kinds = named as Kind[];
    } else throw new Error(`Unknown argument "${arg}" (known: --profile, --kinds home,results,facility)`);
  }
  return { profile, kinds };
}

const HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br, zstd",
  "user-agent": USER_AGENT,
};

/** The results pages of the towns and the facility links on them (each once). */
async function collectTargets(baseUrl: string): Promise<Record<Kind, string[]>> {
  const results: string[] = [];
  const facility = new Set<string>();
  for (const place of await resolveTowns(baseUrl)) {
    const page = `/rv-storage/${place.slug}`;
    const response = await fetch(baseUrl + page, { headers: HEADERS });
    if (response.status !== 200) throw new Error(`GET ${page}: ${response.status}`);
    results.push(page);
    for (const link of facilityLinks(await response.text())) facility.add(link);
  }
  if (facility.size === 0) throw new Error("No facility links on the results pages");
  return { home: ["/"], results, facility: [...facility] };
}

/** Primes the site with every target once; anything but 2xx is an error. */
const primeAll = (baseUrl: string, all: readonly string[]) =>
  prime(baseUrl, all, { headers: HEADERS, ok: (status) => status >= 200 && status < 300 });

interface Measurement {
  pagesPerSecond: number;
  /** The server's CPU time (all its threads) per page answered: steadier than pages/s on a shared machine. */
  cpuMsPerPage: number;
  p50: number;
  p99: number;
  /** "status: example request" of answers other than 2xx, and socket errors and timeouts. */
  failures: string[];
}

interface RequestContext {
  target?: string;
  started?: number;
}

const running = new Set<autocannon.Instance>();

/** CPU seconds a process has used, all threads (Linux /proc); NaN where that is not readable. */
function processCpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux that Node supports. */
const CLOCK_TICKS = 100;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

/** BENCH_CONNECTIONS connections for `seconds`, each request to a random path of the list. */
function load(site: RunningSite, paths: readonly string[], seconds: number): Promise<Measurement> {
  const { baseUrl } = site;
  const latencies: number[] = [];
  const failures = new Map<string, { count: number; example: string }>();
  const errors = new Map<string, number>();
  let ok = 0;
  const started = performance.now();
  const cpuBefore = processCpuSeconds(site.child?.pid);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            setupRequest: (request, context) => {
              const ctx = context as RequestContext;
              ctx.target = paths[Math.floor(Math.random() * paths.length)]!;
              ctx.started = performance.now();
              return { ...request, method: "GET", path: ctx.target, headers: { ...HEADERS } };
            },
            onResponse: (status, body, context) => {
              const { target, started: at } = context as RequestContext;
              if (at === undefined) return;
              latencies.push(performance.now() - at);
              if (status >= 200 && status < 300) {
                ok++;
                return;
              }
              const seen = failures.get(String(status));
              if (seen) seen.count++;
              else failures.set(String(status), { count: 1, example: `GET ${target}: ${body.slice(0, 200)}` });
            },
          },
        ],
      },
      (error) => {
        running.delete(instance);
        if (error) {
          reject(error);
          return;
        }
        const wall = (performance.now() - started) / 1000;
        const cpu = processCpuSeconds(site.child?.pid) - cpuBefore;
        const sorted = latencies.sort((a, b) => a - b);
        resolve({
          pagesPerSecond: ok / wall,
          cpuMsPerPage: ok > 0 ? (cpu * 1000) / ok : NaN,
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          failures: [
            ...[...failures].map(([status, { count, example }]) => `${count} x ${status}, e.g. ${example}`),
            ...[...errors].map(([message, count]) => `${count} x socket error or timeout: ${message}`),
          ],
        });
      },
    );
    running.add(instance);
    instance.on("reqError", (error: Error) => errors.set(error.message, (errors.get(error.message) ?? 0) + 1));
  });
}

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const meets = (m: Pick<Measurement, "pagesPerSecond" | "p99">) =>
  m.pagesPerSecond >= TARGET_PAGES_PER_SECOND && m.p99 <= TARGET_P99_MS;

function printTable(title: string, kinds: readonly Kind[], rows: Map<Kind, Measurement>, urls: Record<Kind, string[]>) {
  console.log(`\n${title}`);
  console.log(
    table(
      ["page kind", "URLs", "pages/s", "p50 ms", "p99 ms", "target", "met", "server CPU ms/page"],
      kinds.map((kind) => {
        const m = rows.get(kind)!;
        return [
          kind,
          urls[kind].length,
          fixed(m.pagesPerSecond),
          fixed(m.p50),
          fixed(m.p99),
          `>= ${TARGET_PAGES_PER_SECOND}/s, p99 <= ${TARGET_P99_MS} ms`,
          meets(m) ? "yes" : "no",
          fixed(m.cpuMsPerPage, 2),
        ];
      }),
    ),
  );
}

/** `skipMs`: the server's start-up and the requests before the load, left out of the summary. */
function printProfile(file: string, skipMs: number): void {
  const summary = summarizeProfile(JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile, 30, skipMs);
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  console.log(
    `\nserver CPU profile (${file}), from the first load on: busy ${fixed(summary.busyMs / 1000)} s, idle ${fixed(summary.idleMs / 1000)} s`,
  );
  console.log(
    table(
      ["self time by origin", "ms", "share of busy"],
      summary.origins.map((o) => [o.name, Math.round(o.ms), pct(o.share)]),
    ),
  );
  console.log(
    table(
      ["self time by function", "ms", "share of busy"],
      summary.functions.map((f) => [f.name, Math.round(f.ms), pct(f.share)]),
    ),
  );
}

function printLogTail(logFile: string): void {
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20) : [];
  if (tail.join("").trim()) console.log(`\nlast lines of the site's log:\n${tail.join("\n")}`);
}

async function main(): Promise<number> {
  const { profile, kinds } = parseArgs(process.argv.slice(2));
  let verdict = 0;
  for (const mode of MODES) {
    const code = await measureMode(mode, profile, kinds);
    if (code === 1) return 1;
    // The targets are the default's (memory on); the rendered figures say what a page costs.
    if (mode === "on" || MODES.length === 1) verdict = Math.max(verdict, code);
  }
  return verdict;
}

async function measureMode(mode: Mode, profile: boolean, kinds: readonly Kind[]): Promise<number> {
  const root = path.resolve(import.meta.dirname, "..");
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "rvbench-pages-"));
  const profileDir = path.join(root, ".tmp", "cpu-profiles");
  const logFile = path.join(workDir, "site.log");
  let site: RunningSite | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const instance of running) instance.stop();
      await site?.stop().catch(() => {});
      fs.rmSync(workDir, { recursive: true, force: true });
    })());
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    delete process.env.SITE_URL; // the bench measures its own instance on the embedded default
    if (profile) fs.mkdirSync(profileDir, { recursive: true });
    const profileName = `pages-${mode}-${Date.now()}.cpuprofile`;
    console.log(`\n== ${MODE_TITLE[mode]}`);
    console.log(`Starting the site: embedded PGlite, demo catalogue of ${DEMO_COUNT} listings...`);
    const startedAt = performance.now();
    site = await startBuiltSite({
      logFile,
      dataDir: path.join(workDir, "data"),
      env: {
        DATABASE_URL: "",
        DEMO_DATA: "auto",
        DEMO_COUNT,
        ...(mode === "off" ? { PAGE_MEMORY_MB: "0" } : {}),
      },
      nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profileName}`] : [],
    });
    console.log(`serving after ${fixed((performance.now() - startedAt) / 1000)} s`);
    const urls = await collectTargets(site.baseUrl);
    await primeAll(
      site.baseUrl,
      kinds.flatMap((kind) => urls[kind]),
    );
    console.log(
      `targets: ${kinds.map((kind) => `${urls[kind].length} ${kind}`).join(", ")}; ` +
        `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ` +
        `${CONNECTIONS} connections, ${WARMUP} s warm-up + ${SECONDS} s per kind, ${RUNS} run(s)`,
    );

    const loadStartedAt = performance.now();
    const runs: Map<Kind, Measurement>[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const rows = new Map<Kind, Measurement>();
      for (const kind of kinds) {
        const phases = WARMUP > 0 ? [await load(site, urls[kind], WARMUP)] : [];
        phases.push(await load(site, urls[kind], SECONDS));
        const failures = phases.flatMap((phase) => phase.failures);
        if (failures.length > 0) {
          console.log(`\nFAILED: ${kind} pages, run ${run}:\n  ${failures.join("\n  ")}`);
          printLogTail(logFile);
          return 1;
        }
        rows.set(kind, phases.at(-1)!);
      }
      runs.push(rows);
      printTable(`run ${run}/${RUNS} (DEMO_COUNT ${DEMO_COUNT}, ${MODE_TITLE[mode]})`, kinds, rows, urls);
    }
    const medians = new Map<Kind, Measurement>(
      kinds.map((kind) => {
        const of = (get: (m: Measurement) => number) => median(runs.map((rows) => get(rows.get(kind)!)));
        return [
          kind,
          {
            pagesPerSecond: of((m) => m.pagesPerSecond),
            p50: of((m) => m.p50),
            p99: of((m) => m.p99),
            cpuMsPerPage: of((m) => m.cpuMsPerPage),
            failures: [],
          },
        ];
      }),
    );
    if (RUNS > 1)
      printTable(`median of ${RUNS} runs, ${MODE_TITLE[mode]} (each figure on its own)`, kinds, medians, urls);

    if (profile) {
      // The profile is written when the server exits.
      await site.stop();
      site = undefined;
      printProfile(path.join(profileDir, profileName), loadStartedAt - startedAt);
    }
    return [...medians.values()].every(meets) ? 0 : 2;
  } catch (error) {
    // A failure before the load (the site stopped, a target failed): the site's own words first.
    printLogTail(logFile);
    throw error;
  } finally {
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await cleanUp();
  }
}

runScript(main);
