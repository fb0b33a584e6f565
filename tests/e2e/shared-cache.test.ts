import { randomBytes } from "node:crypto";
import net from "node:net";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import type { Page, Response as PageResponse } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCachingProxy, type CachingProxy } from "../../scripts/lib/caching-proxy";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The reference deployment (docs/operations.md, "A shared cache in front"): nginx in front of the
 * site. Anonymous visitors get public pages from its cache, the same page for everybody, with the
 * person's part (header, saved hearts) asked for after load; a signed-in visitor's pages never come
 * from it nor go into it; a listing edit reaches its facility page at once (the purge outbox) and the
 * results pages within s-maxage. Its own site and proxy: the shared site has no cache in front.
 */
const browser = browserForThisFile();
const SHOTS = resolve(".tmp/screenshots");

/** Short enough for the expiry to be waited for, long enough to tell a purge from an expiry. */
const SHARED_SECONDS = 20;
const STALE_SECONDS = 2;
const token = randomBytes(16).toString("hex");

let site: RunningSite | undefined;
let proxy: CachingProxy | undefined;
interface Listing {
  slug: string;
  name: string;
  lat: number;
  lng: number;
}
let owned: Listing;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  if (process.env.E2E_BASE_URL) return;
  // The site is told where the cache is before the cache exists: it refreshes pages there.
  const port = await freePort();
  site = await startBuiltSite({
    env: {
      SHARED_CACHE_SECONDS: String(SHARED_SECONDS),
      SHARED_CACHE_STALE_SECONDS: String(STALE_SECONDS),
      CACHE_PURGE_URL: `http://127.0.0.1:${port}`,
      CACHE_PURGE_TOKEN: token,
      TRUST_PROXY: "loopback",
    },
    prepare: async (dataDir) => {
      const fixtures = await prepareAccounts(dataDir);
      const handle = await openDatabase({ kind: "pglite", dataDir });
      try {
        const [row] = await handle.db
          .select({ slug: locations.slug, name: locations.name, lat: locations.latitude, lng: locations.longitude })
          .from(locations)
          .where(eq(locations.placeId, fixtures.ownedLocationId));
        owned = row as Listing;
      } finally {
        await handle.close();
      }
    },
  });
  proxy = await startCachingProxy({ upstreams: [site.baseUrl], purgeToken: token, port });
}, 180_000);
afterAll(async () => {
  await proxy?.stop();
  await site?.stop();
});

const cached = () => {
  if (!proxy) throw new Error("The proxy starts in beforeAll (and not against E2E_BASE_URL)");
  return proxy.url;
};

/** A page as an anonymous visitor without any cookie gets it through the cache. */
async function anonymously(
  path: string,
): Promise<{ status: number; cache: string | null; control: string | null; date: number; body: string }> {
  const response = await fetch(`${cached()}${path}`, { headers: { "Accept-Encoding": "gzip" }, redirect: "manual" });
  return {
    status: response.status,
    cache: response.headers.get("x-cache-status"),
    control: response.headers.get("cache-control"),
    // When the instance rendered the copy (a cached answer keeps the instance's Date).
    date: Date.parse(response.headers.get("date") ?? ""),
    body: await response.text(),
  };
}

/** An anonymous answer the cache gave from what it holds (asked again until it does). */
async function fromTheCache(path: string): ReturnType<typeof anonymously> {
  let answer = await anonymously(path);
  await expect
    .poll(
      async () => {
        if (answer.cache !== "HIT") answer = await anonymously(path);
        return answer.cache;
      },
      { timeout: 5_000, message: path },
    )
    .toBe("HIT");
  return answer;
}

/** The cache's verdict on every document the page loads from now on, by path. */
function documentVerdicts(page: Page): Map<string, string> {
  const verdicts = new Map<string, string>();
  page.on("response", (response: PageResponse) => {
    if (response.request().resourceType() !== "document") return;
    verdicts.set(new URL(response.url()).pathname, response.headers()["x-cache-status"] ?? "none");
  });
  return verdicts;
}

/**
 * Clicks a save button and waits for the server's answer: the heart fills before the request goes
 * out, and a reload right after could cancel it.
 */
async function savedOnServer(page: Page, click: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/saved" && response.request().method() === "POST",
  );
  await click();
  expect((await answered).ok()).toBe(true);
}

/** A save button showing a saved facility. */
const SAVED = 'button[aria-pressed="true"][aria-label^="Save "]';

/** The facility's own save button (the page's first: cards of nearby places follow). */
const saveButton = (page: Page) => page.getByRole("button", { name: `Save ${owned.name}` }).first();

const PUBLIC_PAGES = () => [
  "/",
  "/about",
  "/blog",
  "/rv-storage/tx",
  `/rv-storage?lat=${owned.lat}&lng=${owned.lng}`,
  `/location/${owned.slug}`,
];

describe("a shared cache in front", () => {
  it("answers anonymous visitors from the cache, and never a signed-in visitor's pages, nor keeps them", async () => {
    if (!site) return;
    // Anonymous: the first answer fills the cache, the second comes from it.
    for (const path of PUBLIC_PAGES()) {
      const first = await anonymously(path);
      expect(first.status, path).toBe(200);
      expect(first.control, path).toBe(
        `public, max-age=0, s-maxage=${SHARED_SECONDS}, stale-while-revalidate=${STALE_SECONDS}`,
      );
      expect(["HIT", "MISS", "EXPIRED", "STALE", "UPDATING"], path).toContain(first.cache);
      await expect.poll(async () => (await anonymously(path)).cache, { timeout: 5_000 }).toBe("HIT");
    }

    // A signed-in visitor saves a facility and walks every public page: each is rendered for them.
    const member = await signedInPage(browser(), cached(), ACCOUNTS.user.email);
    const verdicts = documentVerdicts(member);
    await member.goto(`${cached()}/location/${owned.slug}`);
    await hydrated(member);
    await savedOnServer(member, () => saveButton(member).click());
    await member.locator(SAVED).first().waitFor();
    await member.getByRole("link", { name: "Saved (1)" }).first().waitFor({ state: "attached" });
    for (const path of PUBLIC_PAGES()) {
      await member.goto(`${cached()}${path}`);
      await hydrated(member);
      await member.getByRole("button", { name: "Sign out" }).first().waitFor({ state: "attached" });
      expect(verdicts.get(new URL(`${cached()}${path}`).pathname), path).toBe("BYPASS");
    }
    const account = (await member.context().cookies()).find((cookie) => cookie.name === "rvs_account");
    expect(account?.value).toBe("1");

    // Nobody else ever gets what was rendered for them: not in the cached HTML, not in a browser.
    // What the cache holds is read (a HIT); on a slow machine the walk above may outlast s-maxage,
    // and then the first answer refills it.
    for (const path of PUBLIC_PAGES()) {
      const answer = await fromTheCache(path);
      expect(answer.body, path).not.toContain(ACCOUNTS.user.email);
      expect(answer.body, path).not.toContain("Signed in as");
      expect(answer.body, path).not.toContain("Sign out");
      expect(answer.body, path).not.toMatch(/aria-pressed="true" aria-label="Save /);
    }
    const stranger = await (await newHumanContext(browser())).newPage();
    const strangerVerdicts = documentVerdicts(stranger);

    for (const path of PUBLIC_PAGES()) {
      await stranger.goto(`${cached()}${path}`);
      await hydrated(stranger);
      // After load the page asks who is looking: nobody signed in, nothing saved.
      await stranger.getByRole("link", { name: "Login" }).first().waitFor({ state: "attached" });
      expect(await stranger.getByRole("button", { name: "Sign out" }).count(), path).toBe(0);
      expect(await stranger.locator('[title^="Signed in as"]').count(), path).toBe(0);
      expect(await stranger.getByRole("link", { name: "Saved (0)" }).count(), path).toBeGreaterThan(0);
      expect(strangerVerdicts.get(new URL(`${cached()}${path}`).pathname), path).toMatch(
        /^(HIT|STALE|UPDATING|EXPIRED|MISS)$/,
      );
    }
    expect(await stranger.locator(SAVED).count()).toBe(0);
    // A results page from the cache still sends its page view, from which search demand counts the
    // search (the site never rendered the page for this visitor).
    const another = await (await newHumanContext(browser())).newPage();
    const anotherVerdicts = documentVerdicts(another);
    const viewStored = another.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === "/api/analytics/events" &&
        (JSON.parse(response.request().postData() ?? "[]") as { eventType: string; url: string }[]).some(
          (event) => event.eventType === "page_view" && new URL(event.url).pathname === "/rv-storage/tx",
        ),
    );
    await another.goto(`${cached()}/rv-storage/tx`);
    expect(anotherVerdicts.get("/rv-storage/tx")).toMatch(/^(HIT|STALE|UPDATING)$/);
    expect((await viewStored).status()).toBe(202);
    await another.context().close();
    await member.context().close();
    await stranger.context().close();
  });

  it("shows an anonymous visitor their own saved facilities on a cached page", async () => {
    if (!site) return;
    const visitor = await (await newHumanContext(browser())).newPage();
    const verdicts = documentVerdicts(visitor);
    await visitor.goto(`${cached()}/location/${owned.slug}`);
    await hydrated(visitor);
    await savedOnServer(visitor, () => saveButton(visitor).click());
    await visitor.locator(SAVED).first().waitFor();
    // A fresh load of the same page comes from the cache, which knows nothing of the save, and the
    // heart is filled from GET /api/session after load.
    await visitor.reload();
    await hydrated(visitor);
    expect(verdicts.get(`/location/${owned.slug}`)).toBe("HIT");
    await visitor.locator(SAVED).first().waitFor();
    await visitor.getByRole("link", { name: "Saved (1)" }).first().waitFor({ state: "attached" });
    await visitor.context().close();
  });

  it("lets an administrator purge a page from the overview, refreshing the copy strangers get", async () => {
    if (!site) return;
    const results = `/rv-storage?lat=${owned.lat}&lng=${owned.lng}&radius=50`;
    const before = await fromTheCache(results);
    // The cache's copy carries the second it was rendered: a refreshed one is later.
    await expect.poll(() => Date.now() - before.date, { timeout: 3_000 }).toBeGreaterThan(1_100);

    const admin = await signedInPage(browser(), cached(), ACCOUNTS.admin.email, {
      viewport: { width: 390, height: 844 },
    });
    await admin.goto(`${cached()}/`);
    await hydrated(admin);
    // On a phone the consoles are in the header's menu.
    const header = admin.locator("header").first();
    await header.getByText("Menu", { exact: true }).click();
    await header.getByRole("link", { name: "Admin Console" }).last().click();
    await admin.waitForURL(/\/admin$/);
    const form = admin.locator("section", {
      has: admin.getByRole("heading", { name: "Purge a page from the shared cache" }),
    });
    const page = form.getByLabel("Page");

    // Another site's address is refused beside the field, and what was typed stays.
    await page.fill("https://example.com/rv-storage");
    await form.getByRole("button", { name: "Purge this page" }).click();
    await form.getByText("This is an address on another site (example.com)", { exact: false }).waitFor();
    expect(await page.inputValue()).toBe("https://example.com/rv-storage");
    await screenshot(admin, { path: join(SHOTS, "admin-cache-purge-refused-phone.png"), fullPage: true });

    // The page's full address on the site (its PUBLIC_URL: here the instance's own address) is
    // queued, and the worker refreshes it in the cache.
    await page.fill(`${site.baseUrl}${results}`);
    await form.getByRole("button", { name: "Purge this page" }).click();
    await admin.getByText(`Queued: ${results}`).first().waitFor();
    expect(await page.inputValue()).toBe("");
    // Not the full page: the message is fixed to the bottom of the screen.
    await screenshot(admin, { path: join(SHOTS, "admin-cache-purge-queued-phone.png") });
    await expect
      .poll(
        async () => {
          const now = await anonymously(results);
          return now.cache === "HIT" && now.date > before.date;
        },
        { timeout: 10_000, message: "a refreshed copy, well inside s-maxage" },
      )
      .toBe(true);
    await admin.context().close();
  });

  it("shows a listing edit on its facility page at once, and on the results pages within s-maxage", async () => {
    if (!site) return;
    const facility = `/location/${owned.slug}`;
    // The listing has no wash bay yet: it is not among these results until the edit.
    const results = `/rv-storage?lat=${owned.lat}&lng=${owned.lng}&amenity=rv_washbay`;
    // Both pages stored afresh now (a refresh, as the outbox sends it), so that neither can expire
    // before the test is done with the cached copy.
    for (const path of [facility, results]) {
      const refreshed = await fetch(`${cached()}${path}`, {
        headers: { "Accept-Encoding": "gzip", "X-Cache-Purge": token },
      });
      expect(refreshed.status, path).toBe(200);
      await refreshed.arrayBuffer();
      expect((await anonymously(path)).cache, path).toBe("HIT");
    }
    const stored = Date.now();

    const listed = (body: string) => body.includes(`/location/${owned.slug}`);
    expect(listed((await anonymously(results)).body)).toBe(false);

    // The owner describes the listing and adds a wash bay in the console (through the cache, which
    // passes the console by: the owner is signed in).
    const owner = await signedInPage(browser(), cached(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
    });
    await owner.goto(`${cached()}/owner/locations`);
    await owner
      .getByRole("link", { name: /^Update/ })
      .first()
      .click();
    await owner.waitForURL(/\/owner\/locations\/.+\/update$/);
    const described = `Wash bay open ${randomBytes(4).toString("hex")}.`;
    await owner.getByLabel("Description").fill(described);
    await owner.getByLabel("RV wash bay").check();
    await owner.getByRole("button", { name: "Save changes" }).click();
    await owner
      .getByText(/^Saved\./)
      .first()
      .waitFor();

    // The facility page is refreshed by the purge, well before it would expire; the results page
    // is the cached copy until it expires.
    await expect
      .poll(async () => (await anonymously(facility)).body.includes(described), { timeout: 10_000 })
      .toBe(true);
    expect(Date.now() - stored).toBeLessThan(SHARED_SECONDS * 1000);
    const stale = await anonymously(results);
    expect(stale.cache).toBe("HIT");
    expect(listed(stale.body)).toBe(false);
    await expect
      .poll(async () => listed((await anonymously(results)).body), {
        timeout: (SHARED_SECONDS + STALE_SECONDS + 5) * 1000,
        interval: 500,
      })
      .toBe(true);

    // A visitor's browser shows the change on both.
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${cached()}${facility}`);
    await visitor.getByText(described).first().waitFor();
    await visitor.goto(`${cached()}${results}`);
    await visitor.locator(`a[href^="/location/${owned.slug}"]`).first().waitFor();
    await owner.context().close();
    await visitor.context().close();
  });
});
