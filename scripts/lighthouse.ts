/**
 * npm run lighthouse: Lighthouse 12 (mobile profile) on the pages bench:page measures (a facility,
 * a results page, the home page and a blog article) of the built site, in Debian's Chromium.
 * Prints the four category scores per page.
 *
 * `npm run lighthouse -- --runs 3` measures each page three times and prints every run (with FCP,
 * LCP and Total Blocking Time) and the median: performance varies from run to run. `--pages
 * results,home` measures only the pages named. The full reports are written to .tmp/lighthouse/
 * for a closer look.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import {
  CHROMIUM_FLAGS,
  CHROMIUM_PATH,
  assertChromium,
  disableFeaturesFlag,
  disabledFeatureLists,
} from "./lib/chromium";
import { measuredPages, runScript, startBuiltSite } from "./lib/serve-built";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

const REPORT_DIR = path.resolve(import.meta.dirname, "../.tmp/lighthouse");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const PHOTO_PATH = /^[A-Za-z0-9_-]+\/w\d+n\d+\.(?:avif|webp|jpg)/;
const ARTICLE_IMAGE_PATH = /^[A-Za-z0-9_-]+\/w\d+\.(?:avif|webp|jpg)/;

/** Requests a page and every place photo and article image it names, a few at a time. */
async function warm(baseUrl: string, pagePath: string): Promise<void> {
  const html = await (await fetch(baseUrl + pagePath)).text();
  // Each photo path follows "/place-images/" (an article image "/blog-images/"): split there and match anchored, so no quantifier
  // is retried from every character of the page.
  const photos = [
    ...new Set([
      ...html
        .split("/place-images/")
        .slice(1)
        .map((rest) => PHOTO_PATH.exec(rest)?.[0])
        .filter((photo) => photo !== undefined)
        .map((photo) => `/place-images/${photo}`),
      ...html
        .split("/blog-images/")
        .slice(1)
        .map((rest) => ARTICLE_IMAGE_PATH.exec(rest)?.[0])
        .filter((image) => image !== undefined)
        .map((image) => `/blog-images/${image}`),
    ]),
  ];
  for (let i = 0; i < photos.length; i += 4) {
    await Promise.all(photos.slice(i, i + 4).map(async (photo) => (await fetch(baseUrl + photo)).arrayBuffer()));
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "1" }, pages: { type: "string" } } });
  const runs = Math.max(1, Number.parseInt(values.runs, 10) || 1);
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  assertChromium();
  const site = await startBuiltSite();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    // chrome-launcher's defaults name features to disable too: ours adds to them (the last
    // --disable-features is the one Chromium reads).
    chromeFlags: [
      "--headless=new",
      ...CHROMIUM_FLAGS,
      disableFeaturesFlag(disabledFeatureLists(chromeLauncher.Launcher.defaultFlags()).flat()),
    ],
  });
  try {
    // `--pages results,home` measures only those pages.
    const only = values.pages?.split(",").map((name) => name.trim());
    const pages = (await measuredPages(site.baseUrl)).filter(([name]) => !only || only.includes(name));
    const failures: string[] = [];
    const verdicts: string[] = [];
    // Warm up as a visitor before us would: the server (JIT, caches) and the demo photos, which
    // are drawn and encoded on their first request. The score is for the site as it usually is,
    // not for the one moment when a demo photo is made (`npm run bench:page` shows that moment).
    for (const [, pagePath] of pages) await warm(site.baseUrl, pagePath);
    const header = runs > 1 ? ["run", ...CATEGORIES, "FCP", "LCP", "TBT"] : [...CATEGORIES];
    console.log(`| page | ${header.join(" | ")} |\n|---|${header.map(() => "---:").join("|")}|`);
    for (const [name, pagePath] of pages) {
      const performance: number[] = [];
      const blocking: number[] = [];
      const paints: number[] = [];
      const label = `${name} (${pagePath.length > 40 ? `${pagePath.slice(0, 40)}…` : pagePath})`;
      for (let run = 1; run <= runs; run++) {
        let result: Awaited<ReturnType<typeof lighthouse>>;
        // A run that Lighthouse itself could not record (NO_NAVSTART and the like: its trace
        // missed the navigation) says nothing about the page: it is retried, at most twice.
        for (let attempt = 1; ; attempt++) {
          result = await lighthouse(site.baseUrl + pagePath, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: [...CATEGORIES],
          });
          const error = result?.lhr.runtimeError;
          if (!error || attempt === 3) break;
          console.log(`(${name} run ${run}: Lighthouse could not record it (${error.code}); measuring again)`);
        }
        const lhr = result?.lhr;
        if (result) fs.writeFileSync(path.join(REPORT_DIR, `${name}-${run}.json`), JSON.stringify(lhr));
        const scores = CATEGORIES.map((c) => Math.round((lhr?.categories[c]?.score ?? 0) * 100));
        performance.push(scores[0]!);
        blocking.push(lhr?.audits["total-blocking-time"]?.numericValue ?? Infinity);
        paints.push(lhr?.audits["largest-contentful-paint"]?.numericValue ?? Infinity);
        const timing = (id: string) => lhr?.audits[id]?.displayValue ?? "?";
        const row =
          runs > 1
            ? [
                run,
                ...scores,
                timing("first-contentful-paint"),
                timing("largest-contentful-paint"),
                timing("total-blocking-time"),
              ]
            : scores;
        console.log(`| ${label} | ${row.join(" | ")} |`);
        // What costs points, so a regression names its cause.
        for (const category of CATEGORIES) {
          for (const ref of lhr?.categories[category]?.auditRefs ?? []) {
            const audit = lhr?.audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
              failures.push(
                `${name}${runs > 1 ? ` #${run}` : ""}: ${category}: ${audit.id} (${Math.round(audit.score * 100)}) ${audit.displayValue ?? ""}`,
              );
            }
          }
        }
      }
      if (runs > 1) {
        const tbt = median(blocking);
        const fastPaints = paints.filter((ms) => ms <= 1500).length;
        console.log(`| ${label} | median | ${median(performance)} | | | | | | ${Math.round(tbt)} ms |`);
        verdicts.push(
          `- ${name}: performance median ${median(performance)} (>= 97: ${median(performance) >= 97 ? "met" : "NOT met"}), ` +
            `TBT median ${Math.round(tbt)} ms (<= 50: ${tbt <= 50 ? "met" : "NOT met"}), ` +
            `LCP <= 1.5 s in ${fastPaints} of ${paints.length} runs (4 of 5: ${fastPaints >= Math.ceil((paints.length * 4) / 5) ? "met" : "NOT met"})`,
        );
      }
    }
    if (failures.length) console.log(`\nAudits below full marks:\n${failures.map((f) => `  ${f}`).join("\n")}`);
    console.log(
      "\nTargets (docs/decisions/026-react-in-the-browser.md): median performance >= 97, Total Blocking Time median <= 50 ms, LCP <= 1.5 s in 4 of 5 runs; accessibility, best practices and SEO = 100.",
    );
    if (verdicts.length) console.log(verdicts.join("\n"));
    return 0;
  } finally {
    chrome.kill();
    await site.stop();
  }
}

runScript(main);
