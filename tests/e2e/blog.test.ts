import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { announce } from "./announce";
import { browserForThisFile, newHumanContext, signedInPage } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The blog end to end (docs/product.md section 13): an administrator writes an article with a
 * cover image and a link into the directory, previews it, schedules it a minute ahead, and it
 * appears on /blog, in the feed and in the sitemap at that time and not before (the site's clock
 * moved forward with TEST_CLOCK_FILE instead of waiting); renaming it answers the old address
 * with a 301. Its own site, since it moves that site's clock.
 */
const browser = browserForThisFile();
const shots = path.resolve(".tmp/screenshots");
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rv-clock-")), "offset");
let site: RunningSite | undefined;

beforeAll(async () => {
  fs.writeFileSync(clockFile, "0");
  if (process.env.E2E_BASE_URL) return;
  process.env.SKIP_BUILD = "1";
  site = await startBuiltSite({
    env: { TEST_CLOCK_FILE: clockFile, DEMO_COUNT: "200" },
    prepare: async (dir) => void (await prepareAccounts(dir)),
  });
}, 180_000);
afterAll(async () => {
  await site?.stop();
});
const base = () => site!.baseUrl;

async function png(r: number, g: number, b: number): Promise<Buffer> {
  const sharp = (await import("sharp")).default;
  return sharp({ create: { width: 1600, height: 900, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

const get = (pathname: string) => fetch(`${base()}${pathname}`, { redirect: "manual" });

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("the blog", () => {
  it("writes, previews and schedules an article that appears at its time, and 301s its old address", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/blog`);
    // The demo articles are listed, each published.
    expect(await admin.getByRole("row").filter({ hasText: "Prepare Your RV for Winter" }).textContent()).toContain(
      "Published",
    );
    await admin.getByRole("link", { name: "New article" }).click();
    await admin.getByLabel("Title").fill("Storing an RV in Austin's summer heat");
    await admin.getByRole("button", { name: "Create draft" }).click();
    await admin.waitForURL(/\/admin\/blog\/edit\//);
    expect(await admin.getByLabel("Address").inputValue()).toBe("storing-an-rv-in-austins-summer-heat");

    // A cover image through the photo pipeline.
    await admin
      .getByLabel(/Upload a cover/)
      .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await png(200, 120, 40) });
    await admin.getByRole("button", { name: "Upload cover" }).click();
    await admin.getByAltText("The current cover").waitFor();

    // The body with a link into the directory on a line of its own: the preview shows it as a card.
    await admin.getByLabel("Address").fill("austin-summer-rv-storage");
    await admin.getByLabel("Excerpt").fill("Shade, airflow and a covered space: keeping an RV cool in Central Texas.");
    await admin.getByLabel("Tags").fill("Covered storage, Summer");
    await admin.getByLabel("Cover description").fill("An orange square");
    await admin
      .getByLabel("Body (Markdown)")
      .fill(
        "## Why shade matters\n\nThe sun is hard on roofs and tires.\n\n[Compare storage in Austin](/rv-storage/austin-tx)\n\n## What to ask\n\n- Is it covered?\n",
      );
    const card = admin.locator(".article-body .directory-card");
    await card.waitFor();
    expect(await card.textContent()).toContain("RV storage in Austin, TX");
    // A draft saves itself once typing stops.
    await admin.getByText(/^Saved at /).waitFor({ timeout: 15_000 });
    await screenshot(admin, { path: path.join(shots, "blog-editor-1280.png"), fullPage: true });

    // Scheduled a minute ahead of the site's clock, in the browser's time zone.
    const at = new Date(Date.now() + 60_000);
    const local = await admin.evaluate(
      (iso) => {
        const d = new Date(iso);
        const p = (n: number) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      },
      new Date(at.getTime() + 60_000 - (at.getTime() % 60_000)).toISOString(),
    );
    await admin.getByLabel("Publish at (your time)").fill(local);
    await admin.getByRole("button", { name: "Schedule" }).click();
    await admin
      .getByText(/^Scheduled for /)
      .first()
      .waitFor();

    // Before its time: not listed, not served, not in the feed or the sitemap.
    const visible = async () => ({
      list: (await (await get("/blog")).text()).includes("/blog/austin-summer-rv-storage"),
      page: (await get("/blog/austin-summer-rv-storage")).status,
      feed: (await (await get("/blog/rss.xml")).text()).includes("/blog/austin-summer-rv-storage"),
      sitemap: (await (await get("/sitemaps/articles.xml")).text()).includes("/blog/austin-summer-rv-storage"),
    });
    expect(await visible()).toEqual({ list: false, page: 404, feed: false, sitemap: false });

    // Three minutes later on the site's clock, it is out everywhere.
    fs.writeFileSync(clockFile, String(3 * 60_000));
    expect(await visible()).toEqual({ list: true, page: 200, feed: true, sitemap: true });
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/blog`);
    await visitor.getByRole("link", { name: "Storing an RV in Austin's summer heat" }).click();
    await visitor.waitForURL(`${base()}/blog/austin-summer-rv-storage`);
    await visitor.locator(".article-body .directory-card a[href='/rv-storage/austin-tx']").waitFor();
    const cover = visitor.getByAltText("An orange square");
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const jsonLd = await visitor.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.some((t) => t.includes('"@type":"Article"'))).toBe(true);
    expect(jsonLd.some((t) => t.includes('"@type":"BreadcrumbList"'))).toBe(true);
    for (const width of [1280, 390]) {
      await visitor.setViewportSize({ width, height: 900 });
      await screenshot(visitor, { path: path.join(shots, `blog-article-${width}.png`), fullPage: true });
      expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }

    // A rename keeps the old address working.
    await admin.reload();
    await admin.getByLabel("Address").fill("rv-storage-in-austin-heat");
    await admin.getByRole("button", { name: "Save changes" }).click();
    await admin.getByText("Changes saved.").waitFor();
    const old = await get("/blog/austin-summer-rv-storage");
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe("/blog/rv-storage-in-austin-heat");
    await admin.setViewportSize({ width: 390, height: 900 });
    await screenshot(admin, { path: path.join(shots, "blog-editor-390.png"), fullPage: true });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("refuses a body over the limit before reading it, and tells a second editor their save lost", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/blog?status=draft`);
    await admin.goto(`${base()}/admin/blog/new`);
    await admin.getByLabel("Title").fill("Two editors");
    await admin.getByRole("button", { name: "Create draft" }).click();
    await admin.waitForURL(/\/admin\/blog\/edit\//);
    const editor = admin.url();
    const cookie = (await admin.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const form = { cookie, contentType: "application/x-www-form-urlencoded", start: "intent=save&version=1&body=" };
    expect(await announce(base(), new URL(editor).pathname, 5 * 1024 * 1024, form)).toBe(413);

    // A second tab saves first; the first one's save is refused and its text stays.
    const second = await admin.context().newPage();
    await second.goto(editor);
    await second.getByLabel("Body (Markdown)").fill("The second editor's text.");
    await second.getByRole("button", { name: "Save draft" }).click();
    await second.getByText(/^Saved at /).waitFor();
    await admin.getByLabel("Body (Markdown)").fill("The first editor's text.");
    await admin.getByRole("button", { name: "Save draft" }).click();
    const alert = admin.getByRole("alert").filter({ hasText: "after you opened it" });
    await alert.waitFor();
    expect(await admin.getByLabel("Body (Markdown)").inputValue()).toBe("The first editor's text.");
    await admin.reload();
    expect(await admin.getByLabel("Body (Markdown)").inputValue()).toBe("The second editor's text.");
  });
});
