/**
 * npm run lighthouse: Lighthouse 12 (mobile profile) on a facility page and a results page of the
 * built site, in Debian's Chromium. Prints the four category scores per page.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { measuredPages, runScript, startBuiltSite } from "./lib/serve-built";

const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

async function main(): Promise<number> {
  const site = await startBuiltSite();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const pages = await measuredPages(site.baseUrl);
    const failures: string[] = [];
    // Warm up: demo photos are drawn and processed on their first request.
    for (const [, path] of pages) await fetch(site.baseUrl + path);
    console.log(`| page | ${CATEGORIES.join(" | ")} |\n|---|${CATEGORIES.map(() => "---:").join("|")}|`);
    for (const [name, path] of pages) {
      const result = await lighthouse(site.baseUrl + path, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      const categories = result?.lhr.categories ?? {};
      const scores = CATEGORIES.map((c) => Math.round((categories[c]?.score ?? 0) * 100));
      console.log(`| ${name} (${path.length > 40 ? `${path.slice(0, 40)}…` : path}) | ${scores.join(" | ")} |`);
      // What costs points, so a regression names its cause.
      const lhr = result?.lhr;
      for (const category of CATEGORIES) {
        for (const ref of lhr?.categories[category]?.auditRefs ?? []) {
          const audit = lhr?.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
            failures.push(
              `${name}: ${category}: ${audit.id} (${Math.round(audit.score * 100)}) ${audit.displayValue ?? ""}`,
            );
          }
        }
      }
    }
    if (failures.length) console.log(`\nAudits below full marks:\n${failures.map((f) => `  ${f}`).join("\n")}`);
    console.log("\nTargets: performance >= 90; accessibility, best practices and SEO = 100.");
    return 0;
  } finally {
    chrome.kill();
    await site.stop();
  }
}

runScript(main);
