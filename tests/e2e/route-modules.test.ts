import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNTS } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";

/**
 * Every route module loads in the browser, and the menus move between screens without a reload
 * (issue: the admin blog list imported a server helper, so its chunk carried the database driver,
 * "Error loading route module" reloaded the overview and the list never became interactive).
 * The build refuses Node built-ins in a client chunk (scripts/vite/browser-only.ts); these tests
 * check the result in a browser: each module of the build's route table is imported, and each
 * menu link is followed client-side by the person who sees it.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
const browser = browserForThisFile();

/** The client manifest of the build: route id -> the module the browser imports. */
function builtRouteModules(): { id: string; module: string }[] {
  const dir = path.resolve("build/client/assets");
  const file = fs.readdirSync(dir).find((f) => f.startsWith("manifest-") && f.endsWith(".js"));
  if (!file) throw new Error("No client manifest under build/client/assets: build the site first");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    routes: Record<string, { id: string; module: string }>;
  };
  return Object.values(manifest.routes).map(({ id, module }) => ({ id, module }));
}

/** Collects the page's uncaught errors and React Router's "Error loading route module" logs. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /route module|Failed to fetch dynamically imported/i.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  return errors;
}

/**
 * Follows each link of the navigation landmark `nav` in turn, as a click: each must change the
 * address without a document load (a reload would lose the marker set on `window`) and leave the
 * page hydrated and free of errors.
 */
async function walkMenu(page: Page, nav: string, errors: string[]): Promise<string[]> {
  await hydrated(page);
  await page.evaluate(() => Object.assign(window, { routeWalkMarker: true }));
  const menu = page.getByRole("navigation", { name: nav, exact: true });
  const targets = await menu
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(targets.length).toBeGreaterThan(0);
  const visited: string[] = [];
  for (const target of targets) {
    await menu.locator(`a[href="${target}"]`).first().click();
    // React Router changes the address once the new screen's module and data are in; a module
    // that fails to load makes it reload the document instead, which drops the marker.
    await page.waitForURL((url) => url.pathname === target);
    expect(await page.evaluate(() => "routeWalkMarker" in window), `${target} reloaded the page`).toBe(true);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).count(), { message: target }).toBeGreaterThan(0);
    visited.push(target);
  }
  expect(errors).toEqual([]);
  return visited;
}

describe("route modules in the browser", () => {
  it("imports every route module of the build without an error", async () => {
    const routes = builtRouteModules();
    // The consoles' and the public pages' modules alike: 60-odd of them.
    expect(routes.length).toBeGreaterThan(50);
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}/about`);
    await hydrated(page);
    // A string, not a function: Vitest would rewrite a function's import() for Node.
    const failures = (await page.evaluate(`(async (modules) => {
      const failed = [];
      for (const { id, module } of modules) {
        try {
          await import(module);
        } catch (error) {
          failed.push(id + " (" + module + "): " + (error instanceof Error ? error.message : String(error)));
        }
      }
      return failed;
    })(${JSON.stringify(routes)})`)) as string[];
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("follows the admin console's menu client-side, screen by screen", async () => {
    if (!fixtures) return;
    const page = await signedInPage(browser(), baseUrl, ACCOUNTS.admin.email);
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}/admin`);
    const visited = await walkMenu(page, "Admin console", errors);
    expect(visited).toContain("/admin/blog");
    // The blog list is interactive: its filter answers without a reload.
    await page.getByRole("navigation", { name: "Admin console" }).getByRole("link", { name: "Blog" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/blog");
    await page.getByRole("searchbox", { name: "Search" }).fill("winter");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/blog" && url.search.includes("winter"));
    expect(await page.evaluate(() => "routeWalkMarker" in window)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("follows the owner console's menu client-side, screen by screen", async () => {
    if (!fixtures) return;
    const page = await signedInPage(browser(), baseUrl, ACCOUNTS.listing_owner.email);
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}/owner`);
    const visited = await walkMenu(page, "Owner console", errors);
    expect(visited).toContain("/owner/leads");
    await page.context().close();
  });

  it("follows the public header's and footer's links client-side", async () => {
    const context = await newHumanContext(browser());
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}/`);
    await walkMenu(page, "Footer", errors);
    await context.close();
  });
});
