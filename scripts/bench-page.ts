/**
 * npm run bench:page: server response time (TTFB) and bytes per page of the built site, and the
 * public pages' JavaScript budgets (docs/product.md, "Budgets"), as a phone on a cold cache loads
 * them. Run `npm run build` first, or let it build (SKIP_BUILD=1 reuses the last build).
 *
 * A page's JS is every script and module preload its HTML names, gzipped as the server sends them
 * (bodies only, no headers): what the page downloads before it is interactive. Scripts the page
 * imports later (the map's Leaflet chunk once the map is on screen, the full-screen gallery on
 * demand) are listed apart as "lazy JS" and are not part of the budget. No public page may load a
 * chunk that only the console routes (/admin, /owner) use. Exit 1 when a budget is over.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { launchBrowser } from "./lib/chromium";
import { measuredPages, runScript, startBuiltSite } from "./lib/serve-built";

const KB = 1024;
/**
 * Gzipped JS per page (docs/operations.md "Benchmarks and page budgets"): React, React DOM and
 * React Router alone are about 105 kB of it.
 */
const JS_BUDGETS: Record<string, number> = { home: 125 * KB, results: 155 * KB, facility: 135 * KB, article: 115 * KB };
/** Scripts and module preloads a public page's HTML may name: each is a request. */
const SCRIPT_BUDGET = 15;
const RUNS = 30;

function ttfb(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        res.once("data", () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
        res.resume();
      })
      .on("error", reject);
  });
}

/** The body as sent (gzipped when the server compresses it), and its length in bytes. */
function download(url: string): Promise<{ bytes: number; text: string; gzipped: boolean }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            bytes: body.length,
            text: res.headers["content-encoding"] ? "" : body.toString("utf8"),
            gzipped: res.headers["content-encoding"] === "gzip",
          });
        });
      })
      .on("error", reject);
  });
}

/** The value of `name="..."` in one tag's text, or undefined. */
function attribute(tag: string, name: string): string | undefined {
  const key = ` ${name}="`;
  const start = tag.indexOf(key);
  if (start < 0) return undefined;
  const end = tag.indexOf('"', start + key.length);
  return end < 0 ? undefined : tag.slice(start + key.length, end);
}

/** The external scripts and module preloads an HTML page names, in order, without repeats (those held
 * back until the first paint included). */
function pageScripts(html: string): string[] {
  const found = new Set<string>();
  for (const open of ["<script", "<link"]) {
    for (let at = html.indexOf(open); at >= 0; at = html.indexOf(open, at + open.length)) {
      const end = html.indexOf(">", at);
      if (end < 0) break;
      const tag = html.slice(at, end).replaceAll("'", '"');
      if (open === "<script") {
        const src = attribute(tag, "src");
        if (src) found.add(src);
      } else if (attribute(tag, "rel") === "modulepreload" || attribute(tag, "data-after-paint") === "modulepreload") {
        // Held back until the first paint (server/http/script-priority.ts), loaded all the same.
        const href = attribute(tag, "href");
        if (href) found.add(href);
      }
    }
  }
  return [...found];
}

/**
 * The client chunks only console routes use (a route module under routes/admin or routes/owner,
 * and whatever only those import), from React Router's build manifest; empty when the site is not
 * this checkout's build (SITE_URL).
 */
function consoleOnlyChunks(): Set<string> {
  const dir = path.resolve(import.meta.dirname, "../build/client/assets");
  if (process.env.SITE_URL || !fs.existsSync(dir)) return new Set();
  const file = fs.readdirSync(dir).find((f) => f.startsWith("manifest-") && f.endsWith(".js"));
  if (!file) return new Set();
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const consoleFiles = new Set<string>();
  const publicFiles = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const [id, route] of Object.entries(manifest.routes)) {
    const files = [route.module, ...(route.imports ?? [])];
    const isConsole = id.startsWith("admin") || id.startsWith("owner") || route.module.includes("/admin/");
    for (const f of files) (isConsole ? consoleFiles : publicFiles).add(f);
  }
  // What a public page may fetch later (the map, the full-screen gallery, the analytics tracker)
  // is named in the chunks' text (`import("./x.js")`, or Vite's preload list "assets/x.js").
  const reference = /(?:\.\/|assets\/)([\w.-]+)/g;
  const todo = [...publicFiles];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const code = fs.readFileSync(path.join(dir, path.basename(next)), "utf8");
    for (const [, name] of code.matchAll(reference)) {
      if (!name!.endsWith(".js")) continue;
      const file = `/assets/${name}`;
      if (!publicFiles.has(file) && fs.existsSync(path.join(dir, name!))) {
        publicFiles.add(file);
        todo.push(file);
      }
    }
  }
  return new Set([...consoleFiles].filter((f) => !publicFiles.has(f)));
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} kB`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

async function main(): Promise<number> {
  const site = await startBuiltSite();
  const browser = await launchBrowser();
  const consoleOnly = consoleOnlyChunks();
  const problems: string[] = [];
  try {
    const pages = await measuredPages(site.baseUrl);
    const pageJs: Record<string, number> = {};
    const pageScriptCount: Record<string, number> = {};
    console.log(
      "| page | TTFB p50 | TTFB p99 | HTML | JS (page, gz) | scripts | lazy JS | CSS | images | total transferred |\n" +
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const [name, pagePath] of pages) {
      const url = site.baseUrl + pagePath;
      await fetch(url); // warm: JIT, caches, the first demo photos
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await ttfb(url));

      // The page's own JS: what its HTML names, as the server sends it.
      const html = await (await fetch(url)).text();
      const named = pageScripts(html);
      const sizes = new Map<string, number>();
      const sizeOf = async (src: string) => {
        if (!sizes.has(src)) sizes.set(src, (await download(new URL(src, url).toString())).bytes);
        return sizes.get(src)!;
      };
      let js = 0;
      for (const src of named) js += await sizeOf(src);
      pageJs[name] = js;
      pageScriptCount[name] = named.length;

      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      const types = new Map<string, string>();
      const bytes: Record<string, number> = { Document: 0, Script: 0, Stylesheet: 0, Image: 0, Other: 0 };
      const scripts = new Set<string>();
      cdp.on("Network.responseReceived", (e) => {
        types.set(e.requestId, e.type);
        if (e.type === "Script") scripts.add(new URL(e.response.url).pathname);
      });
      cdp.on("Network.loadingFinished", (e) => {
        const type = types.get(e.requestId) ?? "Other";
        bytes[type in bytes ? type : "Other"]! += e.encodedDataLength;
      });
      await page.goto(url, { waitUntil: "networkidle" });
      await context.close();
      const namedPaths = new Set(named.map((src) => new URL(src, url).pathname));
      let lazy = 0;
      for (const script of scripts) if (!namedPaths.has(script)) lazy += await sizeOf(script);
      for (const script of new Set([...scripts, ...namedPaths])) {
        if (consoleOnly.has(script)) problems.push(`${name} loads ${script}, which only the consoles use`);
      }

      const total = Object.values(bytes).reduce((a, b) => a + b, 0);
      console.log(
        `| ${name} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.99).toFixed(1)} ms | ${kb(bytes.Document!)} | ${kb(js)} | ${named.length} | ${kb(lazy)} | ${kb(bytes.Stylesheet!)} | ${kb(bytes.Image!)} | ${kb(total)} |`,
      );
    }

    console.log("\nBudgets (gzipped JS named by the page's HTML: scripts and module preloads):");
    for (const [name, budget] of Object.entries(JS_BUDGETS)) {
      const over = (pageJs[name] ?? 0) > budget;
      if (over) problems.push(`${name}: ${kb(pageJs[name] ?? 0)} of JS, over its ${kb(budget)} budget`);
      console.log(`- ${name}: ${kb(pageJs[name] ?? 0)} <= ${kb(budget)}: ${over ? "OVER" : "met"}`);
    }
    for (const [name, count] of Object.entries(pageScriptCount)) {
      const over = count > SCRIPT_BUDGET;
      if (over) problems.push(`${name}: ${count} scripts and module preloads, over ${SCRIPT_BUDGET}`);
      console.log(`- ${name}: ${count} scripts <= ${SCRIPT_BUDGET}: ${over ? "OVER" : "met"}`);
    }
    // An article runs no script of its own (docs/product.md section 13): no more than the home page's.
    const articleOver = (pageJs.article ?? 0) > (pageJs.home ?? 0);
    if (articleOver) problems.push("article: more JS than the home page");
    console.log(
      `- article <= home (${kb(pageJs.article ?? 0)} vs ${kb(pageJs.home ?? 0)}): ${articleOver ? "OVER" : "met"}`,
    );
    console.log(
      consoleOnly.size === 0
        ? "- console chunks: not checked (no local build manifest)"
        : `- no console-only chunk (${consoleOnly.size} of them) on a public page: ${problems.some((p) => p.includes("consoles use")) ? "FAILED" : "met"}`,
    );
    for (const problem of problems) console.error(`FAILED: ${problem}`);
    return problems.length > 0 ? 1 : 0;
  } finally {
    await browser.close();
    await site.stop();
  }
}

runScript(main);
