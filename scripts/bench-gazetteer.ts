/**
 * Benchmarks the embedded gazetteer: cold load (in fresh processes), memory, and the latency of
 * suggest, lookup, reverse and stateAt over realistic inputs. Run with `npm run bench:gazetteer`.
 *
 * Inputs come from a seeded generator, so runs are comparable.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { getGazetteer, readGazetteerData } from "../server/geo/load-gazetteer";
import { createGazetteer } from "../server/geo/gazetteer";
import type { Place } from "../server/geo/gazetteer";

const COLD_RUNS = 5;
const QUERIES = 5000;

interface ColdSample {
  readMs: number;
  buildMs: number;
  totalMs: number;
  firstCallMs: number;
  heapMiB: number;
  rssMiB: number;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Runs in a child process: one cold load, reported as JSON on stdout. */
function coldSample(): void {
  gc();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const data = readGazetteerData();
  const t1 = performance.now();
  const g = createGazetteer(data);
  const t2 = performance.now();
  // First calls also pay for lazy work (the compact-name index) and JIT warm-up.
  g.lookup("coeur d alene");
  g.suggest("austin");
  g.reverse(39.7392, -104.9903);
  const t3 = performance.now();
  gc();
  const after = process.memoryUsage();
  // Keep `g` alive across the measurement.
  if (g.places().length === 0) throw new Error("empty gazetteer");
  const sample: ColdSample = {
    readMs: t1 - t0,
    buildMs: t2 - t1,
    totalMs: t2 - t0,
    firstCallMs: t3 - t2,
    heapMiB: (after.heapUsed - before.heapUsed) / 2 ** 20,
    rssMiB: (after.rss - before.rss) / 2 ** 20,
  };
  process.stdout.write(JSON.stringify(sample));
}

/** Mulberry32: a small seeded PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks towns with probability growing with population (what people type), some uniformly. */
function townPicker(towns: readonly Place[], random: () => number): () => Place {
  const first = towns[0];
  if (!first) throw new Error("no towns");
  const weights = towns.map((t) => Math.sqrt(t.population + 500));
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return towns[lo] ?? first;
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Row {
  name: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
  hits: number;
}

function measure<T>(name: string, inputs: readonly T[], run: (input: T) => unknown): Row {
  // Warm-up pass, then the measured pass.
  for (const input of inputs.slice(0, 500)) run(input);
  const times: number[] = [];
  let hits = 0;
  for (const input of inputs) {
    const t0 = performance.now();
    const result = run(input);
    times.push((performance.now() - t0) * 1000);
    if (Array.isArray(result) ? result.length > 0 : result !== undefined) hits++;
  }
  times.sort((a, b) => a - b);
  return {
    name,
    n: inputs.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? 0,
    hits,
  };
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  const script = fileURLToPath(import.meta.url);
  const samples: ColdSample[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const child = spawnSync(process.execPath, [...process.execArgv, "--expose-gc", script, "--cold"], {
      encoding: "utf8",
      env: process.env,
    });
    if (child.status !== 0) throw new Error(`cold run failed: ${child.stderr}`);
    samples.push(JSON.parse(child.stdout) as ColdSample);
  }
  const fmt = (x: number, digits = 1): string => x.toFixed(digits);
  const col = (pick: (s: ColdSample) => number): string[] => [
    fmt(median(samples.map(pick))),
    fmt(Math.min(...samples.map(pick))),
    fmt(Math.max(...samples.map(pick))),
  ];
  console.log(`Cold load (${COLD_RUNS} fresh processes)\n`);
  console.log(
    table(
      ["", "median", "min", "max"],
      [
        ["read + gunzip + JSON.parse (ms)", ...col((s) => s.readMs)],
        ["build indexes (ms)", ...col((s) => s.buildMs)],
        ["total load (ms)", ...col((s) => s.totalMs)],
        ["first lookup+suggest+reverse (ms)", ...col((s) => s.firstCallMs)],
        ["heap delta (MiB)", ...col((s) => s.heapMiB)],
        ["RSS delta (MiB)", ...col((s) => s.rssMiB)],
      ],
    ),
  );

  const g = getGazetteer();
  const random = rng(20240601);
  const towns = g.places();
  const pick = townPicker(towns, random);

  const prefixes: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = pick();
    const len = 2 + Math.floor(random() * 9); // 2..10 characters
    const r = random();
    const text = r < 0.85 ? t.name : r < 0.95 ? `${t.name}, ${t.state}` : t.name.toLowerCase();
    prefixes.push(text.slice(0, len));
  }
  const zipPrefixes: string[] = [];
  for (let i = 0; i < 1000; i++)
    zipPrefixes.push(
      String(Math.floor(random() * 100000))
        .padStart(5, "0")
        .slice(0, 3 + Math.floor(random() * 3)),
    );

  const lookups: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = pick();
    const r = random();
    if (r < 0.4) lookups.push(t.name);
    else if (r < 0.6) lookups.push(`${t.name}, ${t.state}`);
    else if (r < 0.7) lookups.push(`${t.name}, ${t.stateName}`);
    else if (r < 0.8) lookups.push(`${t.name.toLowerCase()} ${t.state.toLowerCase()}`);
    else if (r < 0.9) lookups.push(String(Math.floor(random() * 100000)).padStart(5, "0"));
    else lookups.push(`${(t.lat + (random() - 0.5) * 0.2).toFixed(4)}, ${(t.lng + (random() - 0.5) * 0.2).toFixed(4)}`);
  }

  // Points near towns (where people are) and uniform points over the lower-48 bounding box.
  const points: [number, number][] = [];
  for (let i = 0; i < QUERIES; i++) {
    if (random() < 0.7) {
      const t = pick();
      points.push([t.lat + (random() - 0.5) * 0.5, t.lng + (random() - 0.5) * 0.5]);
    } else {
      points.push([24.5 + random() * 25, -125 + random() * 58]);
    }
  }

  const rows: Row[] = [
    measure("suggest (2-10 char name prefixes)", prefixes, (q) => g.suggest(q)),
    measure("suggest (3-5 digit ZIP prefixes)", zipPrefixes, (q) => g.suggest(q)),
    measure("lookup (names, City ST, ZIPs, coords)", lookups, (q) => g.lookup(q)),
    measure("reverse", points, ([lat, lng]) => g.reverse(lat, lng)),
    measure("stateAt", points, ([lat, lng]) => g.stateAt(lat, lng)),
  ];
  console.log(`\nLatency (microseconds, after a warm-up pass)\n`);
  console.log(
    table(
      ["operation", "n", "p50 µs", "p99 µs", "max µs", "non-empty"],
      rows.map((r) => [
        r.name,
        String(r.n),
        fmt(r.p50),
        fmt(r.p99),
        fmt(r.max, 0),
        `${((100 * r.hits) / r.n).toFixed(0)}%`,
      ]),
    ),
  );
  console.log(`\n${towns.length} towns; data: ${process.env.GAZETTEER_DIR ?? "server/geo/data"}`);
}

if (process.argv.includes("--cold")) coldSample();
else main();
