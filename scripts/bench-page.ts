/**
 * npm run bench:page: server response time (TTFB) and bytes transferred per page of the built
 * site, by kind (HTML, JS, CSS, images), as a phone on a cold cache loads them. Budget: JS <= 150 kB
 * gzipped on a facility page.
 */
import http from "node:http";
import { launchBrowser } from "./lib/chromium";
import { measuredPages, runScript, startBuiltSite } from "./lib/serve-built";

const JS_BUDGET = 150 * 1024;
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

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

async function main(): Promise<number> {
  const site = await startBuiltSite();
  const browser = await launchBrowser();
  let failed = false;
  try {
    const pages = await measuredPages(site.baseUrl);
    const script: Record<string, number> = {};
    console.log(
      "| page | TTFB p50 | TTFB p99 | HTML | JS | CSS | images | total |\n|---|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const [name, path] of pages) {
      const url = site.baseUrl + path;
      await fetch(url); // warm: JIT, caches, the first demo photos
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await ttfb(url));

      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      const types = new Map<string, string>();
      const bytes: Record<string, number> = { Document: 0, Script: 0, Stylesheet: 0, Image: 0, Other: 0 };
      cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
      cdp.on("Network.loadingFinished", (e) => {
        const type = types.get(e.requestId) ?? "Other";
        bytes[type in bytes ? type : "Other"]! += e.encodedDataLength;
      });
      await page.goto(url, { waitUntil: "networkidle" });
      await context.close();
      const total = Object.values(bytes).reduce((a, b) => a + b, 0);
      console.log(
        `| ${name} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.99).toFixed(1)} ms | ${kb(bytes.Document!)} | ${kb(bytes.Script!)} | ${kb(bytes.Stylesheet!)} | ${kb(bytes.Image!)} | ${kb(total)} |`,
      );
      if (name === "facility" && bytes.Script! > JS_BUDGET) failed = true;
      script[name] = bytes.Script!;
    }
    console.log(
      `\nBudget: JS <= ${kb(JS_BUDGET)} transferred (gzipped) on a facility page: ${failed ? "OVER" : "met"}.`,
    );
    // An article runs no script of its own (docs/product.md section 13): no more than the home page's.
    const articleOver = (script.article ?? 0) > (script.home ?? 0);
    if (articleOver) failed = true;
    console.log(
      `Budget: JS on an article <= the home page's (${kb(script.article ?? 0)} vs ${kb(script.home ?? 0)}): ${articleOver ? "OVER" : "met"}.`,
    );
    return failed ? 2 : 0;
  } finally {
    await browser.close();
    await site.stop();
  }
}

runScript(main);
