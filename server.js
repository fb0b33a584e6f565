// The production (and development) entry point: boots the app built from server/app.ts, then
// serves static assets and every route. `npm start` runs it through scripts/start.mjs.
import fs from "node:fs";
import http from "node:http";
import { clearTimeout, setTimeout } from "node:timers";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";

const DEVELOPMENT = process.env.NODE_ENV === "development";

const server = express();
server.disable("x-powered-by");
server.use(compression());

/** Configuration and database problems carry a readable message; print it without a stack. */
function fail(error) {
  console.error(`\nThe site could not start:\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let mod;
let listen;
try {
  if (DEVELOPMENT) {
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    server.use(viteDevServer.middlewares);
    mod = await viteDevServer.ssrLoadModule("./server/app.ts");
    server.use((req, res, next) => mod.app(req, res, next));
  } else {
    mod = await import("./build/server/index.js");
    server.use(mod.staticFileHeaders);
    // Scripts and stylesheets were compressed at build time (scripts/vite/precompress.ts):
    // Brotli for browsers that take it, else gzip; compression() leaves encoded answers alone.
    server.use(
      "/assets",
      expressStaticGzip("build/client/assets", {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        serveStatic: { immutable: true, maxAge: "1y" },
      }),
      // A file that is not there (an old build's hash) is a plain 404, not a page: the middleware
      // above has already named the compressed file's type and encoding, which a page cannot keep.
      (_req, res) => {
        res.removeHeader("Content-Encoding");
        res.removeHeader("Vary");
        res.status(404).type("text/plain").send("Not found");
      },
    );
    // The files public/ put at the top of build/client (the favicon), by their first path segment,
    // read once: express.static would otherwise ask the disk about every page's path (and about an
    // index.html for "/") to find nothing, a failed stat and its error object per page.
    const publicEntries = new Set(fs.readdirSync("build/client").filter((name) => name !== "assets"));
    const publicFiles = express.static("build/client", { maxAge: "1h", index: false });
    server.use((req, res, next) => {
      if (publicEntries.has(req.path.split("/", 2)[1])) publicFiles(req, res, next);
      else next();
    });
    server.use(mod.app);
  }
  listen = await mod.boot();
} catch (error) {
  fail(error);
}

const { port, host } = listen;
let stopping = false;
// A few hot endpoints are answered before Express (server/app.ts handleFastPath).
const listener = http.createServer((req, res) => {
  // While stopping, every answer closes its connection so keep-alive clients move on.
  if (stopping) res.setHeader("Connection", "close");
  if (!mod.handleFastPath(req, res)) server(req, res);
});
listener.listen(port, host, () => {
  console.log(`RV Storage Finder is serving http://localhost:${port}`);
});
listener.on("error", (error) => {
  console.error(`\nThe site could not listen on port ${port}: ${error.message}\nSet PORT to use another port.\n`);
  process.exit(1);
});

// Graceful shutdown (docs/operations.md, "Deployment"): stop accepting connections, let the
// requests under way finish (their analytics batches are written before they answer), then flush
// the search demand counted in memory, let the email worker finish its delivery and close the
// database. Past SHUTDOWN_TIMEOUT_MS the remaining connections are cut and the exit code is 1.
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  const deadline = listen.shutdownTimeoutMs ?? 10_000;
  console.log(`${signal}: finishing the requests under way (at most ${deadline} ms), then stopping`);
  mod.beginShutdown?.();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    listener.closeAllConnections();
  }, deadline);
  timer.unref();
  await new Promise((resolve) => {
    listener.close(() => resolve());
    listener.closeIdleConnections();
  });
  clearTimeout(timer);
  try {
    await mod.shutdown?.();
  } catch (error) {
    console.error(`Shutting down: ${error instanceof Error ? error.message : String(error)}`);
    timedOut = true;
  }
  if (timedOut) console.error(`Stopped after cutting requests that took longer than ${deadline} ms`);
  process.exit(timedOut ? 1 : 0);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop(signal));
