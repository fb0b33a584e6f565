/**
 * Graceful shutdown (docs/operations.md, "Deployment"): on SIGTERM the site stops accepting
 * connections, finishes the requests under way (an analytics batch still arriving is stored) and
 * exits 0; a request that outlives SHUTDOWN_TIMEOUT_MS is cut and the exit code is 1.
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
let site: RunningSite | undefined;
const dataDirs: string[] = [];

afterEach(async () => {
  await site?.stop();
  site = undefined;
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}, dataDir?: string) {
  process.env.SKIP_BUILD = "1"; // the global setup built the site
  site = await startBuiltSite({ env: { DEMO_COUNT: "200", SITE_URL: "", ...env }, dataDir });
  return site;
}

const exited = (s: RunningSite) =>
  new Promise<number | null>((resolve) => {
    if (s.child!.exitCode !== null) resolve(s.child!.exitCode);
    else s.child!.once("exit", (code) => resolve(code));
  });

/**
 * A POST whose body the test sends in two parts, so the request is under way in between.
 * `underWay` resolves when the server has read its headers and handed it to the site: it asks
 * for a 100 Continue, which Node's server sends just before it emits the request.
 */
function slowPost(url: string, headers: Record<string, string>, body: string) {
  const target = new URL(url);
  const request = http.request({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: "POST",
    headers: { ...headers, "content-length": String(Buffer.byteLength(body)), expect: "100-continue" },
  });
  const underWay = new Promise<void>((resolve) => request.once("continue", () => resolve()));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { underWay, answer, finish: () => request.end(body.slice(half)) };
}

/** Whether a new connection to the site is refused: it no longer listens. */
function refusesConnections(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

async function anonymousCookie(base: string): Promise<string> {
  const session = await fetch(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "user-agent": BROWSER },
    body: "{}",
  });
  expect(session.status).toBe(200);
  return session.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

describe("graceful shutdown", () => {
  it("finishes an analytics batch under way after SIGTERM, refuses new connections, and exits 0", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-shutdown-"));
    dataDirs.push(dataDir);
    const running = await start({}, dataDir);
    const base = running.baseUrl;
    const cookie = await anonymousCookie(base);
    const search = (await (await fetch(`${base}/api/search?lat=30.27&lng=-97.74`)).json()) as {
      items: { id: string }[];
    };
    const locationId = search.items[0]!.id;
    const eventId = crypto.randomUUID();
    const batch = JSON.stringify([
      {
        eventId,
        eventType: "page_view",
        timestamp: new Date().toISOString(),
        sessionId: "shutdown-test",
        url: `${base}/location/${locationId}`,
        userAgent: BROWSER,
        referrer: "",
        viewport: { width: 390, height: 844 },
        locationId,
      },
    ]);
    const post = slowPost(
      `${base}/api/analytics/events`,
      { "content-type": "application/json", cookie, origin: base, "user-agent": BROWSER },
      batch,
    );
    await post.underWay;

    const exit = exited(running);
    running.child!.kill("SIGTERM");
    // No longer accepting: once the signal is handled, a new connection is refused, while the
    // request under way is still waiting for the rest of its body.
    await expect.poll(() => refusesConnections(base), { timeout: 10_000 }).toBe(true);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    // The request under way still gets its answer, and the batch is stored.
    post.finish();
    const answer = await post.answer;
    expect(answer.status).toBe(202);
    expect(JSON.parse(answer.body)).toMatchObject({ stored: 1 });
    expect(await exit).toBe(0);

    // The process closed its embedded database cleanly: it opens again with the event in it.
    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      const rows = await handle.db.execute(
        sql`select count(*)::int as n from analytics_events where event_id = ${eventId}`,
      );
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it("cuts a request that outlives SHUTDOWN_TIMEOUT_MS and exits 1", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-shutdown-"));
    dataDirs.push(dataDir);
    const running = await start({ SHUTDOWN_TIMEOUT_MS: "1000" }, dataDir);
    // A request that never finishes: its body never ends.
    const base = running.baseUrl;
    const cookie = await anonymousCookie(base);
    const post = slowPost(
      `${base}/api/analytics/events`,
      { "content-type": "application/json", cookie, origin: base, "user-agent": BROWSER },
      "[{}, {}]",
    );
    post.answer.catch(() => {}); // cut on purpose
    await post.underWay;
    const exit = exited(running);
    const sent = Date.now();
    running.child!.kill("SIGTERM");
    expect(await exit).toBe(1);
    // Cut at the deadline, not left hanging (generous: the machine may be busy).
    expect(Date.now() - sent).toBeLessThan(15_000);
  });
});
