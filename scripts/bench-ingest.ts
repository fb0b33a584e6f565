/**
 * npm run bench:ingest: analytics ingestion throughput on PostgreSQL. Builds the site once, then
 * BENCH_RUNS (3) times starts it on a fresh database, opens anonymous sessions as browsers would,
 * posts batches of 50 events with autocannon for BENCH_SECONDS (20) and checks the counts: every
 * event sent was answered counted or dropped (none lost), and the events the endpoint reported
 * counted = the events in location_metrics = in location_metrics_daily = raw rows. It prints each
 * run and the median of the runs' counted events/s and latency p50/p99; exit 1 when any run lost
 * or miscounted an event, 2 when the median is below 5,000 events/s.
 *
 * BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) names a server where a scratch
 * database is created and dropped. The traffic is many visitors' (BENCH_SESSIONS, 400), each with
 * its own address: the site runs with TRUST_PROXY=loopback and each session sends its address in
 * X-Forwarded-For, so the analytics caps (per session and listing, per address and day;
 * server/analytics/caps.ts) see what they would in production rather than one address over its
 * budget. Events over a cap are accepted and dropped: the run prints how many were counted and how
 * many dropped, and the rate is of counted events. The in-memory batch rate limits, which count
 * per instance and would refuse most of a benchmark's batches, are lifted (ANALYTICS_RATE_PER_*).
 * Batches answered with anything but 202 (a 503 when the store is busy) and those still unanswered
 * when autocannon stops are sent again at the end, as the tracker would.
 */
import { randomBytes, randomUUID } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { runScript, startBuiltSite } from "./lib/serve-built";
import { USER_AGENT, anonymousSession, median } from "./lib/bench";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BATCH = 50;
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 400);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const TARGET = 5_000;

/** The simulated address of visitor i (10.x.y.z, unique for up to 16 million). */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

interface Visitor {
  cookie: string;
  address: string;
}

async function locationIds(baseUrl: string): Promise<string[]> {
  const ids = new Set<string>();
  for (const [lat, lng] of [
    [30.27, -97.74],
    [33.45, -112.07],
    [39.74, -104.99],
    [35.23, -80.84],
    [47.61, -122.33],
  ]) {
    const response = await fetch(`${baseUrl}/api/search?lat=${lat}&lng=${lng}&radius=500&pageSize=100`);
    const body = (await response.json()) as { items: { id: string }[] };
    for (const item of body.items) ids.add(item.id);
  }
  if (ids.size === 0) throw new Error("No locations to send events for");
  return [...ids];
}

function batch(ids: string[], baseUrl: string): string {
  const now = new Date().toISOString();
  const session = randomBytes(8).toString("hex");
  const events = [];
  for (let i = 0; i < BATCH; i++) {
    const roll = Math.random();
    const locationId = ids[Math.floor(Math.random() * ids.length)]!;
    const base = {
      eventId: randomUUID(),
      timestamp: now,
      sessionId: session,
      url: `${baseUrl}/location/${locationId}`,
      userAgent: USER_AGENT,
      referrer: roll < 0.2 ? "https://www.google.com/" : "",
      viewport: { width: 390, height: 844 },
      locationId,
    };
    if (roll < 0.4) events.push({ ...base, eventType: "page_view" });
    else if (roll < 0.8) events.push({ ...base, eventType: "list_view" });
    else
      events.push({
        ...base,
        eventType: "click",
        elementType: (["phone", "website", "directions", "contact_button"] as const)[Math.floor(Math.random() * 4)],
      });
  }
  return JSON.stringify(events);
}

/** What one run measured. */
interface Run {
  rate: number;
  p50: number;
  p99: number;
  lost: number;
  countsMatch: boolean;
}

/** One run: a fresh database and site, sessions, autocannon, the retries and the count check. */
async function measure(): Promise<Run> {
  const name = `rvbench_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    ANALYTICS_RATE_PER_SESSION: "100000000",
    ANALYTICS_RATE_PER_IP: "100000000",
    // The bench is the proxy: the site takes each visitor's address from X-Forwarded-For.
    TRUST_PROXY: "loopback",
  });

  delete process.env.SITE_URL; // the count check reads the database this run creates
  const site = await startBuiltSite({ logFile: process.env.BENCH_LOG });
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    const baseUrl = site.baseUrl;
    const ids = await locationIds(baseUrl);
    const visitors: Visitor[] = [];
    for (let i = 0; i < SESSIONS; i += 8) {
      const wave = Array.from({ length: Math.min(8, SESSIONS - i) }, (_, j) => addressOf(i + j + 1));
      const cookies = await Promise.all(wave.map((address) => anonymousSession(baseUrl, address)));
      visitors.push(...cookies.map((cookie, j) => ({ cookie, address: wave[j]! })));
    }
    console.log(
      `PostgreSQL, ${ids.length} locations, ${SESSIONS} sessions, ${CONNECTIONS} connections, ${BATCH} events a batch, ${SECONDS} s`,
    );

    type InFlight = { visitor?: Visitor; body?: string };
    const connections = new Set<InFlight>();
    /** Batches answered with anything but 202: sent again at the end. */
    const refused: { visitor: Visitor; body: string }[] = [];
    const headers = (visitor: Visitor) => ({
      "content-type": "application/json",
      origin: baseUrl,
      "user-agent": USER_AGENT,
      cookie: visitor.cookie,
      "x-forwarded-for": visitor.address,
    });
    let stored = 0;
    let dropped = 0;
    let sent = 0;
    const statuses = new Map<number, number>();
    let turn = 0;
    const started = Date.now();
    const result = await autocannon({
      url: `${baseUrl}/api/analytics/events`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: "POST",
          setupRequest: (request, context) => {
            const inFlight = context as InFlight;
            inFlight.visitor = visitors[turn++ % visitors.length]!;
            inFlight.body = batch(ids, baseUrl);
            connections.add(inFlight);
            sent += BATCH;
            return {
              ...request,
              headers: { ...headers(inFlight.visitor) },
              body: inFlight.body,
            };
          },
          onResponse: (status, body, context) => {
            const inFlight = context as InFlight;
            if (status !== 202 && inFlight.body && inFlight.visitor) {
              refused.push({ visitor: inFlight.visitor, body: inFlight.body });
            }
            inFlight.body = undefined;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status === 202) {
              const answer = JSON.parse(body) as { stored: number; duplicates: number; dropped: number };
              stored += answer.stored + answer.duplicates;
              dropped += answer.dropped;
            }
          },
        },
      ],
    });
    const elapsed = (Date.now() - started) / 1000;
    // autocannon stops without reading the answers to the batches still in flight: send those
    // again, as the tracker would retry them, and the refused ones. The server may have stored
    // them already; the event ids make the retry count each event exactly once.
    let retried = 0;
    const again = [...refused];
    for (const inFlight of connections) {
      if (inFlight.body && inFlight.visitor) again.push({ visitor: inFlight.visitor, body: inFlight.body });
    }
    for (const batch of again) {
      const response = await fetch(`${baseUrl}/api/analytics/events`, {
        method: "POST",
        headers: headers(batch.visitor),
        body: batch.body,
      });
      if (response.status !== 202) throw new Error(`A retried batch got ${response.status}`);
      // Accepted: stored now, or found already stored (the first attempt got through).
      const answer = (await response.json()) as { stored: number; duplicates: number; dropped: number };
      stored += answer.stored + answer.duplicates;
      dropped += answer.dropped;
      retried++;
    }

    await db.connect();
    const counted = await db.query<{ n: string }>(
      "select coalesce(sum(page_views + list_views + website_clicks + contact_clicks + directions_clicks), 0) as n from location_metrics",
    );
    const daily = await db.query<{ n: string }>(
      "select coalesce(sum(page_views + list_views + website_clicks + contact_clicks + directions_clicks), 0) as n from location_metrics_daily",
    );
    const raw = await db.query<{ n: string }>("select count(*) as n from analytics_events");
    const inMetrics = Number(counted.rows[0]!.n);
    const inDaily = Number(daily.rows[0]!.n);
    const rawRows = Number(raw.rows[0]!.n);
    const rate = stored / elapsed;

    console.log(
      `\nresponses: ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(", ")}; errors ${result.errors}, timeouts ${result.timeouts}`,
    );
    const lost = sent - stored - dropped;
    console.log(
      `events sent ${sent}; ${retried} batches refused or unanswered at the end were retried; counted ${stored}, dropped over the caps ${dropped}, lost ${lost}`,
    );
    console.log(
      `sustained: ${Math.round(rate)} counted events/s, ${Math.round((stored + dropped) / elapsed)} accepted events/s (${result.requests.average.toFixed(0)} batches/s)`,
    );
    console.log(
      `latency per batch: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    const countsMatch = stored === inMetrics && stored === inDaily && stored === rawRows;
    console.log(
      `count check: counted ${stored} = ${inMetrics} (location_metrics) = ${inDaily} (daily) = ${rawRows} raw events: ${countsMatch ? "OK" : "MISMATCH"}`,
    );
    return { rate, p50: result.latency.p50, p99: result.latency.p99, lost, countsMatch };
  } finally {
    await db.end().catch(() => {});
    await site.stop();
    const dropper = new pg.Client({ connectionString: SERVER_URL });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await dropper.end();
  }
}

async function main(): Promise<number> {
  const runs: Run[] = [];
  for (let i = 1; i <= RUNS; i++) {
    console.log(`\n== run ${i} of ${RUNS} (fresh database)`);
    runs.push(await measure());
    // The site is built once, before the first run.
    process.env.SKIP_BUILD = "1";
  }
  console.log(`\n${RUNS} runs:`);
  runs.forEach((run, i) =>
    console.log(
      `  run ${i + 1}: ${Math.round(run.rate)} counted events/s, p50 ${run.p50} ms, p99 ${run.p99} ms, lost ${run.lost}, counts ${run.countsMatch ? "OK" : "MISMATCH"}`,
    ),
  );
  const rate = median(runs.map((r) => r.rate));
  console.log(
    `median: ${Math.round(rate)} counted events/s, p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms`,
  );
  const ok = runs.every((r) => r.lost === 0 && r.countsMatch);
  console.log(`lost events: ${ok ? "none in any run" : "SOME RUN LOST OR MISCOUNTED EVENTS"}`);
  console.log(`target >= ${TARGET} events/s (median): ${rate >= TARGET ? "met" : "NOT met"}`);
  return ok ? (rate >= TARGET ? 0 : 2) : 1;
}

runScript(main);
