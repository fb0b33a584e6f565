import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { eventsRoute } from "./analytics/endpoint";
import { settleAccountWork } from "./auth/account-work";
import { shareRateLimits } from "./auth/forms";
import { authHttpHandler, shareAnonymousLimit } from "./auth/http";
import { getConfig, publicUrlWarning } from "./config";
import { sql } from "drizzle-orm";
import { connectDatabase, disconnectDatabase, getDatabase } from "./db";
import { RETRY_AFTER_SECONDS, databaseUnavailable } from "./errors";
import { isDatabaseUnavailable } from "./db/errors";
import { startEmail, stopEmail } from "./email";
import { startCachePurges, stopCachePurges } from "./cache";
import { getGazetteer } from "./geo";
import { ensureDemoArticles } from "./blog/demo";
import { ensureDemoData } from "./locations/demo-seed";
import { UNEXPECTED_API_MESSAGE, withAppErrors } from "./http/app-errors";
import { bodyLimit } from "./http/body-limit";
import { createFastPath } from "./http/fast-path";
import { formsOnly, knownMethods, privateByDefault } from "./http/request-rules";
import { requestContext } from "./http/request-context";
import { createRequestIds, requestIdMiddleware, trustedPeerOf } from "./http/request-id";
import { originCheck, securityHeaders, staticFileHeaders } from "./http/security";
import { createPageMemory } from "./http/page-memory";
import { sharedCacheDecision, sharedCacheMark } from "./http/shared-cache";
import { scheduleDailyJobs } from "./jobs";
import { logger, urlForLog } from "./logger";
import { SNAPSHOT_FILE, getSearchIndex, startSearch, stopSearch } from "./search";
import { serverNow } from "./clock";
import { startSearchDemand, stopSearchDemand } from "./search/demand";
import { carrySavesOnSignIn } from "./saved/service";

let ready = false;
/** Set on SIGTERM: /readyz answers 503 so a load balancer stops sending new requests. */
let draining = false;
let stopDailyJobs = () => {};

/**
 * Everything that must happen before the first request: configuration, database connection and
 * migrations, demo data on an empty database, the gazetteer and the search index in memory.
 */
export async function boot(): Promise<{ port: number; host: string; shutdownTimeoutMs: number }> {
  const config = getConfig();
  const started = Date.now();
  const warning = publicUrlWarning(config);
  if (warning) logger.warn(warning);
  const handle = await connectDatabase();
  await handle.migrate();
  const seeded = await ensureDemoData(handle.db, { mode: config.DEMO_DATA, count: config.DEMO_COUNT });
  if (seeded > 0) logger.info({ seeded }, "loaded the demo catalogue into the empty database");
  if (config.DEMO_DATA === "auto") {
    const articles = await ensureDemoArticles(handle.db);
    if (articles > 0) logger.info({ articles }, "loaded the demo articles into the empty blog");
  }
  getGazetteer();
  await startSearch(handle, {
    snapshotFile: config.SEARCH_SNAPSHOT === "on" ? path.join(config.dataDir, SNAPSHOT_FILE) : undefined,
  });
  // Sign-in, sign-up and new-session limits count in the database: one budget for all instances.
  shareRateLimits(handle.db);
  shareAnonymousLimit(handle.db);
  carrySavesOnSignIn();
  // Daily jobs run on whichever instance with DAILY_JOBS=on claims them first (docs/operations.md).
  if (config.DAILY_JOBS === "on") stopDailyJobs = scheduleDailyJobs(handle.db);
  startEmail(handle.db);
  await startCachePurges(handle.db);
  startSearchDemand(handle.db);
  ready = true;
  logger.info({ database: handle.kind, ms: Date.now() - started }, "ready");
  return { port: config.PORT, host: config.HOST, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
}

const config = getConfig();
/** server.js puts this ahead of the static files it serves before the app. */
export { staticFileHeaders };

export const app = express();
app.disable("x-powered-by");
if (config.TRUST_PROXY)
  app.set("trust proxy", /^\d+$/.test(config.TRUST_PROXY) ? Number(config.TRUST_PROXY) : config.TRUST_PROXY);
// Our own id for every request; a trusted proxy's only beside it, in the log (server/http/request-id.ts).
const requestIds = createRequestIds(trustedPeerOf(config.TRUST_PROXY_REQUEST_ID, app.get("trust proxy fn")));

/** Requests answered before Express sees them: GET /api/search and a bad Host (server/http/fast-path.ts). */
/**
 * Moves whenever the search index changes: a listing changed, on this instance or another
 * (server/search/refresh.ts applies every instance's changes), so pages kept in memory go.
 */
let catalogue: { index: unknown; version: number; stamp: number } = { index: undefined, version: -1, stamp: 0 };
function catalogueVersion(): number {
  const index = getSearchIndex();
  if (index !== catalogue.index || index.version !== catalogue.version)
    catalogue = { index, version: index.version, stamp: catalogue.stamp + 1 };
  return catalogue.stamp;
}

/** Public pages served from memory between changes (server/http/page-memory.ts); not in development. */
export const pageMemory =
  import.meta.env.DEV || config.PAGE_MEMORY_MB === 0
    ? undefined
    : createPageMemory({
        seconds: config.SHARED_CACHE_SECONDS,
        maxBytes: config.PAGE_MEMORY_MB * 1024 * 1024,
        version: catalogueVersion,
        now: () => serverNow().getTime(),
      });
export const handleFastPath = createFastPath({ requestIds, pages: pageMemory });

app.use(requestIdMiddleware(requestIds));
app.use((req, res, next) => {
  const { requestId, upstreamRequestId } = res.locals as { requestId: string; upstreamRequestId?: string };
  // The client address as Express sees it (TRUST_PROXY aware), for rate limits in route modules;
  // whatever a client sent under this name is replaced.
  req.headers["x-client-ip"] = req.ip ?? "unknown";
  const start = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    logger.info(
      {
        requestId,
        upstreamRequestId,
        method: req.method,
        url: urlForLog(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      },
      "request",
    );
  });
  next();
});

// Whether the answer is a public page a shared cache may keep (server/http/shared-cache.ts): the
// security headers then leave the nonce out, and the mark after privateByDefault says so.
app.use(sharedCacheDecision(config));
app.use(securityHeaders(config));
// Methods, body size caps, form content types and private caching, before any route reads a body.
app.use(knownMethods, bodyLimit(), formsOnly, privateByDefault, sharedCacheMark(config));
app.use(originCheck(config));

app.get("/healthz", (_req, res) => {
  res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "starting" });
});

// Whether this instance should get traffic: booted, not shutting down, and its database answers
// (docs/operations.md, "Deployment"). /healthz only says the process is alive.
app.get("/readyz", async (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  if (!ready || draining) {
    res.status(503).json({ status: draining ? "draining" : "starting" });
    return;
  }
  const database = await databaseReachable();
  res
    .status(database ? 200 : 503)
    .json({ status: database ? "ready" : "unavailable", database: database ? "ok" : "unreachable" });
});

// Pages that answer 503 (the database is unreachable) say when to come back, as the APIs do.
app.use((_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (this.statusCode === 503 || args[0] === 503) {
      if (!this.getHeader("retry-after")) this.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    }
    if (draining) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
});

app.all("/api/auth/*splat", authHttpHandler());
// The tracker's batches skip React Router, whose per-request work cost more than storing them
// (server/analytics/endpoint.ts, eventsRoute); its route module still answers other methods.
app.post("/api/analytics/events", eventsRoute());
// Errors of the Express routes above (the auth API, analytics batches): an unreachable database
// is a 503 with Retry-After, anything else a JSON 500 with the request id; never Express's HTML page.
app.use("/api", (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const requestId = String(res.locals.requestId);
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId }, "the database is unreachable");
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    res.status(503).json({ error: databaseUnavailable().message });
    return;
  }
  logger.error({ err: error, requestId }, "unexpected error in an API route");
  res.status(500).json({ error: UNEXPECTED_API_MESSAGE, requestId });
});

// Every loader, action and middleware turns a thrown AppError into its page or JSON answer.
const loadBuild = async () => withAppErrors(await import("virtual:react-router/server-build"));
const pageHandler = (build: Parameters<typeof createRequestHandler>[0]["build"]) =>
  createRequestHandler({
    build,
    // With future.v8_middleware the load context is a RouterContextProvider (server/http/request-context.ts).
    getLoadContext: (_req, res) =>
      requestContext({
        requestId: String(res.locals.requestId),
        nonce: String(res.locals.nonce),
        shared: res.locals.sharedCache === true,
      }),
  });
if (import.meta.env.DEV) {
  // In development the build is asked for on every request, so that edits show without a restart.
  app.use(pageHandler(loadBuild));
} else {
  // In production the build never changes. Handed over as a value, React Router derives its route
  // tables once; handed over as a function it derives them on every request (a tenth of a page's CPU).
  let handler: Promise<express.RequestHandler> | undefined;
  app.use((req, res, next) => {
    handler ??= loadBuild().then(pageHandler);
    handler.then((handle) => handle(req, res, next), next);
  });
}

let lastProbe: { at: number; ok: Promise<boolean> } | undefined;

/** `select 1` within 2 s, at most once a second however often /readyz is asked. */
function databaseReachable(): Promise<boolean> {
  const now = Date.now();
  if (lastProbe && now - lastProbe.at < 1000) return lastProbe.ok;
  const ok = (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no answer within 2 s")), 2000);
      });
      await Promise.race([getDatabase().execute(sql`select 1`), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  })();
  lastProbe = { at: now, ok };
  return ok;
}

/** SIGTERM's first step (server.js): /readyz answers 503 and responses close their connection. */
export function beginShutdown(): void {
  draining = true;
}

/** Closes the database (and releases the PGlite lock) on SIGINT/SIGTERM. */
export async function shutdown(): Promise<void> {
  stopDailyJobs();
  // The search demand counted in memory is written before the database closes.
  await stopSearchDemand().catch(() => {});
  await stopSearch();
  // Sign-ups and reset requests answered just before (server/auth/account-work.ts) finish first.
  await settleAccountWork();
  await stopEmail();
  await stopCachePurges();
  await disconnectDatabase();
}
