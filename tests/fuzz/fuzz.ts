/**
 * `npm run fuzz`: throws generated requests at every route of the BUILT site, started as the
 * browser tests start it (scripts/lib/serve-built.ts, a fresh data directory with the demo
 * catalogue), and checks three properties: no 5xx (but a 503 with Retry-After), every answer
 * complete within a generous ceiling, and the site healthy at the end (/healthz and a search).
 * Every failure class is printed once with a reproducer saved under .tmp/fuzz/. See
 * docs/operations.md, "Fuzzing", for what it covers and the environment variables.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import routes from "../../app/routes";
import { IMAGE_FORMATS, IMAGE_WIDTHS } from "../../domain/images";
import { runScript, startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { ACCOUNTS, PASSWORD, prepareAccounts, type Fixtures } from "../e2e/accounts";
import { encodeRequest, sendRaw, type RawOutcome, type RawRequest } from "./raw-http";
import {
  plausibleRequestArbitrary,
  requestArbitrary,
  routeTemplates,
  type FuzzInput,
  type SiteFacts,
} from "./requests";
import { failureClass, judge, sentOf, stallClass } from "./verdict";

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got '${raw}'`);
  return value;
}

const RUNS = intFromEnv("FUZZ_RUNS", 2000);
const SEED = intFromEnv("FUZZ_SEED", (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0);
const BUDGET_MS = intFromEnv("FUZZ_SECONDS", 240) * 1000;
const CEILING_MS = intFromEnv("FUZZ_CEILING_MS", 2000);
/** A stall class is sent this many times; later inputs of the same class are skipped. */
const STALLS_PER_CLASS = intFromEnv("FUZZ_STALLS_PER_CLASS", 2);
const OUT_DIR = path.resolve(import.meta.dirname, "../../.tmp/fuzz");
const HUMAN_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

interface Failure {
  kind: string;
  cls: string;
  /** The input number within this seed's sequence (1-based). */
  index: number;
  original: RawRequest;
  minimal: RawRequest;
  outcome: RawOutcome;
  count: number;
}

/** The site under test, restarted on the same port and data directory when it stops answering. */
class Site {
  host = "";
  port = 0;
  restarts = 0;
  /** The fixture accounts, listing, promotion, invoice, lead and review, made on the first start. */
  fixtures: Fixtures | undefined;
  private running: RunningSite | undefined;
  private starts = 0;
  private readonly dataDir = fs.mkdtempSync(path.join(OUT_DIR, "data-"));

  async start(): Promise<void> {
    this.starts += 1;
    this.running = await startBuiltSite({
      logFile: path.join(OUT_DIR, `server-${this.starts}.log`),
      dataDir: this.dataDir,
      port: this.port || undefined,
      // The first start makes the browser tests' accounts, so that the console routes and their
      // forms are reached signed in, past the login redirect.
      prepare: this.fixtures
        ? undefined
        : async (dataDir) => {
            this.fixtures = await prepareAccounts(dataDir);
          },
    });
    const url = new URL(this.running.baseUrl);
    this.host = url.host;
    this.port = Number(url.port);
    process.env.SKIP_BUILD = "1"; // a restart reuses the build
  }

  async restart(): Promise<void> {
    this.restarts += 1;
    await this.running?.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.running?.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  send(request: RawRequest, timeoutMs = CEILING_MS): Promise<RawOutcome> {
    return sendRaw("127.0.0.1", this.port, encodeRequest(request), { timeoutMs, head: request.method === "HEAD" });
  }

  get(target: string, headers: [string, string][] = []): RawRequest {
    return {
      method: "GET",
      target,
      version: "HTTP/1.1",
      headers: [["Host", this.host], ["User-Agent", HUMAN_AGENT], ...headers, ["Connection", "close"]],
      body: Buffer.alloc(0),
    };
  }

  /** /healthz answers 200 and a search near Austin finds listings. */
  async healthy(timeoutMs = CEILING_MS): Promise<string | null> {
    const health = await this.send(this.get("/healthz"), timeoutMs);
    if (health.kind !== "response" || health.status !== 200) return `/healthz: ${describe(health)}`;
    const search = await this.send(this.get("/api/search?lat=30.27&lng=-97.74&pageSize=3"), timeoutMs);
    if (search.kind !== "response" || search.status !== 200 || search.bodyBytes < 100) {
      return `/api/search: ${describe(search)}`;
    }
    return null;
  }

  /** Waits for the site to answer again after a stall; restarts it when it does not within a few seconds. */
  async recover(): Promise<"recovered" | "restarted"> {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      if ((await this.healthy(1_000)) === null) return "recovered";
    }
    await this.restart();
    return "restarted";
  }
}

function describe(outcome: RawOutcome): string {
  switch (outcome.kind) {
    case "response":
      return `${outcome.status} after ${outcome.ms} ms`;
    case "timeout":
      return `no complete answer within ${outcome.ms} ms${outcome.status ? ` (status ${outcome.status})` : ""}`;
    case "closed":
      return `connection closed${outcome.status ? ` after status ${outcome.status}` : ""}${outcome.error ? ` (${outcome.error})` : ""} after ${outcome.ms} ms`;
  }
}

/** What the generators need from the running site: demo slugs and ids, a session, drawn photos. */
async function siteFacts(site: Site): Promise<SiteFacts> {
  const base = `http://${site.host}`;
  const search = (await (await fetch(`${base}/api/search?lat=30.27&lng=-97.74&pageSize=20`)).json()) as {
    items: { id: string; slug: string }[];
  };
  const signIn = await fetch(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, "User-Agent": HUMAN_AGENT },
    body: "{}",
  });
  const sessionCookie = cookiesOf(signIn);
  if (!sessionCookie) throw new Error(`No anonymous session: sign-in answered ${signIn.status}`);
  const signedIn = async (email: string) => {
    const response = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "User-Agent": HUMAN_AGENT },
      body: new URLSearchParams({ email, password: PASSWORD }),
    });
    const cookie = cookiesOf(response);
    if (response.status !== 302 || !cookie) throw new Error(`Signing in ${email} answered ${response.status}`);
    return cookie;
  };
  const fixtures = site.fixtures;
  // A demo photo's file is drawn on its first request; draw every file of a few now so the
  // ceiling applies to serving them.
  const warmImages = search.items.slice(0, 2).flatMap((item) => [1, 2].map((index) => ({ placeId: item.id, index })));
  for (const { placeId, index } of warmImages) {
    for (const width of IMAGE_WIDTHS) {
      for (const format of IMAGE_FORMATS) await fetch(`${base}/place-images/${placeId}/w${width}n${index}.${format}`);
    }
  }
  return {
    host: site.host,
    // The owned listing's page has the fixture review: its Helpful, Report and review form reach it.
    facilitySlugs: [...new Set([...(fixtures ? [fixtures.ownedSlug] : []), ...search.items.map((item) => item.slug)])],
    locationIds: search.items.map((item) => item.id),
    sessionCookie,
    signedInCookies: fixtures
      ? [await signedIn(ACCOUNTS.listing_owner.email), await signedIn(ACCOUNTS.admin.email)]
      : [],
    recordIds: fixtures
      ? [fixtures.promotionId, fixtures.invoiceId, fixtures.leadId, fixtures.claimId, String(fixtures.reviewId)]
      : [],
    warmImages,
  };
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

/**
 * Simpler variants of a request, simplest first: GET, the root path, origin-form, no query, this
 * site's Host, fewer headers, no body.
 */
function simplifications(request: RawRequest, siteHost: string): RawRequest[] {
  const out: RawRequest[] = [];
  const target = request.target.split("#")[0]!;
  const authority = /^[a-z]+:\/\/[^/?#]*/i.exec(target)?.[0] ?? "";
  const [pathPart = "", query] = target.slice(authority.length).split(/\?(.*)/s);
  const framingHeader = (name: string) => ["content-length", "transfer-encoding"].includes(name.toLowerCase());
  if (request.method !== "GET") out.push({ ...request, method: "GET" });
  if (request.target !== "/") out.push({ ...request, target: "/" });
  if (authority) out.push({ ...request, target: target.slice(authority.length) || "/" });
  if (authority && pathPart !== "/") out.push({ ...request, target: `${authority}/` });
  if (request.target.includes("#")) out.push({ ...request, target });
  if (query !== undefined) out.push({ ...request, target: `${authority}${pathPart}` });
  if (query) {
    const pairs = query.split("&");
    pairs.forEach((_, i) =>
      out.push({ ...request, target: `${authority}${pathPart}?${pairs.filter((__, j) => j !== i).join("&")}` }),
    );
  }
  if (request.headers.some(([name, value]) => name.toLowerCase() === "host" && value !== siteHost)) {
    out.push({
      ...request,
      headers: request.headers.map(([name, value]) => [name, name.toLowerCase() === "host" ? siteHost : value]),
    });
  }
  request.headers.forEach(([name], i) => {
    if (name.toLowerCase() === "connection") return;
    out.push({ ...request, headers: request.headers.filter((_, j) => j !== i) });
  });
  if (request.body.length > 0 || request.headers.some(([name]) => framingHeader(name))) {
    out.push({ ...request, body: Buffer.alloc(0), headers: request.headers.filter(([name]) => !framingHeader(name)) });
  }
  const lengthOnly = request.headers.every(([name]) => name.toLowerCase() !== "transfer-encoding");
  if (lengthOnly && request.body.length > 64) {
    const body = Buffer.from(request.body.subarray(0, 64));
    out.push({
      ...request,
      body,
      headers: request.headers.map(([name, value]) => [name, name.toLowerCase() === "content-length" ? "64" : value]),
    });
  }
  return out;
}

/**
 * Greedy shrinking of a fast failure: keeps each simplification that fails the same way. Gives
 * up after 60 attempts, 20 s or a candidate that stalls, so that shrinking cannot eat the budget.
 */
async function minimise(site: Site, request: RawRequest, kind: string, input: FuzzInput): Promise<RawRequest> {
  let current = request;
  let attempts = 0;
  const deadline = Date.now() + 20_000;
  for (let changed = true; changed;) {
    changed = false;
    for (const candidate of simplifications(current, site.host)) {
      if (++attempts > 60 || Date.now() > deadline) return current;
      const outcome = await site.send(candidate);
      if (outcome.kind === "timeout") {
        await site.recover();
        return current;
      }
      if (judge(outcome, { ...sentOf(input), bodyBytes: candidate.body.length }) === kind) {
        current = candidate;
        changed = true;
        break;
      }
    }
  }
  return current;
}

function printable(request: RawRequest, max = 400): string {
  const bytes = Buffer.from(request.body);
  const head = encodeRequest({ ...request, body: Buffer.alloc(0) }).toString("utf8");
  const shown = head.length > max ? `${head.slice(0, max)}… (${head.length} bytes of head)` : head;
  const body =
    request.body.length === 0
      ? ""
      : request.body.length > 200
        ? `<${request.body.length} bytes of body, first 80: ${JSON.stringify(bytes.subarray(0, 80).toString("latin1"))}>`
        : bytes.toString("latin1");
  return JSON.stringify(shown + body);
}

async function replay(file: string): Promise<number> {
  const site = new Site();
  await site.start();
  try {
    const bytes = fs.readFileSync(file);
    const split = bytes.indexOf("\r\n\r\n");
    const head = bytes
      .subarray(0, split)
      .toString("utf8")
      .replace(/127\.0\.0\.1:\d+/g, site.host);
    const request = Buffer.concat([Buffer.from(head, "utf8"), bytes.subarray(split)]);
    const outcome = await sendRaw("127.0.0.1", site.port, request, {
      timeoutMs: CEILING_MS,
      head: head.startsWith("HEAD "),
    });
    const kind = judge(outcome, { bodyShort: false, bodyBytes: bytes.length - split - 4 });
    console.log(`${file}: ${describe(outcome)}${kind ? ` -> FAILS (${kind})` : " -> passes"}`);
    if (outcome.kind === "timeout") console.log(`health afterwards: ${(await site.healthy()) ?? "ok"}`);
    return kind ? 1 : 0;
  } finally {
    await site.stop();
  }
}

async function main(): Promise<number> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  if (process.env.FUZZ_REPLAY) return replay(process.env.FUZZ_REPLAY);
  for (const old of fs.readdirSync(OUT_DIR)) if (old.endsWith(".http")) fs.rmSync(path.join(OUT_DIR, old));

  console.log(
    `fuzz: seed ${SEED}, up to ${RUNS} inputs or ${BUDGET_MS / 1000} s, ceiling ${CEILING_MS} ms per request`,
  );
  const site = new Site();
  await site.start();
  const started = Date.now();
  const deadline = started + BUDGET_MS;
  const failures = new Map<string, Failure>();
  const stalls = new Map<string, number>();
  let tried = 0;
  let skipped = 0;
  /** Answers by who asked (signed in or not) and status class: what the inputs reached. */
  const answers = new Map<string, number>();

  try {
    const facts = await siteFacts(site);
    const templates = routeTemplates(routes);
    const record = (kind: string, cls: string, input: FuzzInput, minimal: RawRequest, outcome: RawOutcome) => {
      const known = failures.get(cls);
      if (known) {
        known.count += 1;
        return;
      }
      failures.set(cls, { kind, cls, index: tried, original: input.request, minimal, outcome, count: 1 });
      console.log(`  #${tried} ${cls} (${describe(outcome)})`);
    };

    const result = await fc.check(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: requestArbitrary(templates, facts) },
          { weight: 1, arbitrary: plausibleRequestArbitrary(templates, facts) },
        ),
        async (input) => {
          const stall = stallClass(input.route, input.request);
          if (Date.now() > deadline) return; // fast-check stops at the next run: see interruptAfterTimeLimit
          if ((stalls.get(stall) ?? 0) >= STALLS_PER_CLASS) {
            skipped += 1;
            return;
          }
          tried += 1;
          const outcome = await site.send(input.request);
          const cookie = input.request.headers.find(([name]) => name === "Cookie")?.[1];
          const who = cookie && facts.signedInCookies.includes(cookie) ? "signed in" : "anonymous";
          const status = outcome.kind === "response" ? `${Math.floor(outcome.status / 100)}xx` : outcome.kind;
          answers.set(`${who} ${status}`, (answers.get(`${who} ${status}`) ?? 0) + 1);
          const kind = judge(outcome, sentOf(input));
          if (outcome.kind === "timeout" && !input.bodyShort) {
            stalls.set(stall, (stalls.get(stall) ?? 0) + 1);
            record(kind ?? "stall", stall, input, input.request, outcome);
            const after = await site.recover();
            if (after === "restarted") console.log(`    the site stopped answering and was restarted`);
            return;
          }
          if (kind === null) return;
          const minimal = await minimise(site, input.request, kind, input);
          record(kind, failureClass(kind, minimal, site.host), input, minimal, outcome);
          const health = await site.healthy();
          if (health !== null) {
            record(
              "unhealthy",
              `site unhealthy after: ${failureClass(kind, minimal, site.host)}`,
              input,
              minimal,
              outcome,
            );
            await site.recover();
          }
        },
      ),
      {
        numRuns: RUNS,
        seed: SEED,
        interruptAfterTimeLimit: BUDGET_MS,
        markInterruptAsFailure: false,
      },
    );
    if (result.failed && result.errorInstance) throw result.errorInstance;

    const health = await site.healthy();
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `\nfuzz: ${tried} inputs sent (${skipped} skipped as repeats of a stall) in ${seconds} s, seed ${SEED}` +
        `${result.interrupted ? ` (stopped at the ${BUDGET_MS / 1000} s budget)` : ""}; site restarted ${site.restarts} times`,
    );
    console.log(`health at the end: ${health ?? "ok (/healthz 200, search answers)"}`);
    console.log(
      `answers: ${[...answers]
        .sort()
        .map(([key, count]) => `${key} ${count}`)
        .join(", ")}`,
    );

    let n = 0;
    for (const failure of failures.values()) {
      n += 1;
      const file = path.join(OUT_DIR, `${n}.http`);
      fs.writeFileSync(file, encodeRequest(failure.minimal));
      fs.writeFileSync(path.join(OUT_DIR, `${n}-original.http`), encodeRequest(failure.original));
      console.log(`\n[${n}] ${failure.cls}`);
      console.log(`    seen ${failure.count} times, first at input #${failure.index}: ${describe(failure.outcome)}`);
      console.log(`    request: ${printable(failure.minimal)}`);
      console.log(`    replay:  FUZZ_REPLAY=${path.relative(process.cwd(), file)} npm run fuzz`);
    }
    if (failures.size > 0 || health !== null) {
      console.log(
        `\nfuzz: ${failures.size} failure classes; rerun this sequence with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`,
      );
      return 1;
    }
    console.log("fuzz: no failures");
    return 0;
  } finally {
    await site.stop();
  }
}

runScript(main);
