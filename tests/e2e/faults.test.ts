/**
 * The site on PostgreSQL behind a TCP proxy that the test cuts mid-traffic (docs/operations.md,
 * "When the database is unreachable"): search, results and recently seen facility pages keep
 * answering from memory, pages and APIs that need the database answer a 503 with Retry-After,
 * a write fails with nothing written, /healthz stays up, /readyz says the database is gone, and
 * once it is back the same process serves everything again without a restart.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const reachable = await postgresReachable();
if (!reachable)
  console.warn(`faults.test.ts: no PostgreSQL at ${SERVER_URL}; these tests need one (docs/operations.md)`);

const name = `rvfaults_${Date.now()}_${randomBytes(3).toString("hex")}`;
let proxy: TcpProxy;
let site: RunningSite;
let base: string;
let direct: pg.Client;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const get = (path: string, init?: RequestInit) => fetch(`${base}${path}`, { redirect: "manual", ...init });

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 250));
  }
}

function facilityPaths(html: string): string[] {
  const paths = new Set<string>();
  const prefix = 'href="/location/';
  for (let start = html.indexOf(prefix); start >= 0; start = html.indexOf(prefix, start + 1)) {
    const end = html.indexOf('"', start + prefix.length);
    // A card links its page twice: plainly and to the question form (`?length=…#ask`).
    if (end > start + prefix.length) paths.add(html.slice(start + 'href="'.length, end).split(/[?#]/)[0]!);
  }
  return [...paths];
}

describe.skipIf(!reachable)("when PostgreSQL goes away mid-traffic", () => {
  let seen: string;
  let unseen: string;

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const target = new URL(SERVER_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(SERVER_URL);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    viaProxy.pathname = `/${name}`;
    process.env.SKIP_BUILD = "1"; // the global setup built the site
    site = await startBuiltSite({
      env: { DATABASE_URL: viaProxy.toString(), DEMO_COUNT: "400", SITE_URL: "" },
      logFile: ".tmp/faults-server.log",
    });
    base = site.baseUrl;
    const direct_ = new URL(SERVER_URL);
    direct_.pathname = `/${name}`;
    direct = new pg.Client({ connectionString: direct_.toString() });
    await direct.connect();

    const results = await (await get("/rv-storage/austin-tx")).text();
    const paths = facilityPaths(results);
    expect(paths.length).toBeGreaterThan(1);
    [seen, unseen] = paths as [string, string];
    expect((await get(seen)).status).toBe(200);
    expect((await get("/")).status).toBe(200);
    expect((await get("/readyz")).status).toBe(200);
  });

  afterAll(async () => {
    await site?.stop();
    await direct?.end();
    await proxy?.close();
    if (reachable) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it("keeps search, results and recently seen pages up, answers 503 elsewhere, and recovers without a restart", async () => {
    const sessionsBefore = (await direct.query("select count(*)::int as n from sessions")).rows[0].n as number;
    await proxy.cut();

    // Alive, but not ready: a load balancer stops sending traffic here if it can.
    expect((await get("/healthz")).status).toBe(200);
    // (Its answer may be up to a second old.)
    await eventually(async () => (await get("/readyz")).status === 503, 5_000);
    expect(await (await get("/readyz")).json()).toMatchObject({ database: "unreachable" });

    // From memory: the search API, a results page, the home page and a facility page seen before.
    const search = await get("/api/search?lat=30.27&lng=-97.74");
    expect(search.status).toBe(200);
    expect(((await search.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    const results = await get("/rv-storage/austin-tx");
    expect(results.status).toBe(200);
    expect(facilityPaths(await results.text())).toContain(seen);
    expect((await get("/")).status).toBe(200);
    const again = await get(seen);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("<h1");

    // A page that needs the database: a clear 503 page with Retry-After.
    const page = await get(unseen);
    expect(page.status).toBe(503);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await page.text()).toContain("Temporarily unavailable");
    const blog = await get("/blog");
    expect(blog.status).toBe(503);

    // An API that writes to the database (a new anonymous session): 503 JSON with Retry-After.
    const visitor = { "content-type": "application/json", origin: base, "user-agent": BROWSER };
    const refused = await get("/api/auth/sign-in/anonymous", { method: "POST", headers: visitor, body: "{}" });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(refused.headers.get("set-cookie")).toBeNull();

    await proxy.restore();
    await eventually(async () => (await get("/readyz")).status === 200);
    expect((await get(unseen)).status).toBe(200);
    expect((await get("/blog")).status).toBe(200);
    // The refused write left nothing behind; the same request now works.
    expect((await direct.query("select count(*)::int as n from sessions")).rows[0].n).toBe(sessionsBefore);
    const accepted = await get("/api/auth/sign-in/anonymous", { method: "POST", headers: visitor, body: "{}" });
    expect(accepted.status).toBe(200);
    expect((await direct.query("select count(*)::int as n from sessions")).rows[0].n).toBe(sessionsBefore + 1);
  });
});
