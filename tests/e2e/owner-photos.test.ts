import fs from "node:fs";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { PHOTO_TEXT } from "../../domain/listing-photos";
import { ACCOUNTS, type Persona } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { exclusiveForThisFile } from "./exclusive";
import { screenshot } from "./screenshot";

/**
 * An owner manages their listing's photos (docs/product.md section 10 "Photos") on the shared
 * site: two uploads, a reorder by drag, the facility page's main photo follows; a 50 MB file and
 * a file that is not an image are refused with a message and change nothing; someone else's
 * listing is refused.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
// These three files edit the fixture listing: one at a time.
exclusiveForThisFile("owned-listing");
const browser = browserForThisFile();
const shots = ".tmp/screenshots";

const signedIn = (persona: Exclude<Persona, "visitor" | "anonymous">, javaScriptEnabled = true): Promise<Page> =>
  signedInPage(browser(), baseUrl, ACCOUNTS[persona].email, { loginPath: "/business/login", javaScriptEnabled });

const jpeg = async (r: number, g: number, b: number) =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

const photoUrls = (page: Page) =>
  page.locator("li[data-photo-url]").evaluateAll((items) => items.map((li) => li.getAttribute("data-photo-url")!));

/** The photo number of the first place photo the facility page shows (its main photo). */
async function mainPhotoNumber(page: Page, slug: string): Promise<number> {
  await page.goto(`${baseUrl}/location/${slug}`);
  const first = await page.evaluate(() => {
    for (const el of document.querySelectorAll("main img, main source")) {
      const ref = el.getAttribute("srcset") ?? el.getAttribute("src") ?? "";
      if (ref.includes("/place-images/")) return ref;
    }
    return "";
  });
  return Number(/n(\d+)\.\w+/.exec(first)?.[1]);
}
const numberOf = (url: string) => Number(/n(\d+)\.jpg$/.exec(url)?.[1]);

describe.skipIf(!fixtures)("listing photos", () => {
  const manager = () => `${baseUrl}/owner/locations/${encodeURIComponent(fixtures!.ownedLocationId)}/photos`;

  it("uploads two photos, reorders them by drag, and the facility page shows the new main photo", async () => {
    const page = await signedIn("listing_owner");
    await page.goto(`${baseUrl}/owner/locations/${encodeURIComponent(fixtures!.ownedLocationId)}/update`);
    await page.getByRole("link", { name: /^Photos \(\d+\)$/ }).click();
    await page.waitForURL(manager());
    // The URL changes as the client navigation commits; wait for the manager's own list.
    await page.getByRole("heading", { level: 1, name: /^Photos of / }).waitFor();
    await page.locator("li[data-photo-url]").or(page.getByText("No photos yet")).first().waitFor();
    const before = await photoUrls(page);

    await page.getByLabel(/Drop photos here/).setInputFiles([
      { name: "red.jpg", mimeType: "image/jpeg", buffer: await jpeg(200, 30, 30) },
      { name: "blue.jpg", mimeType: "image/jpeg", buffer: await jpeg(30, 30, 200) },
    ]);
    await page.locator('[data-upload-status="done"]').nth(1).waitFor();
    await expect.poll(() => photoUrls(page).then((u) => u.length)).toBe(before.length + 2);
    const afterUpload = await photoUrls(page);
    const [red, blue] = afterUpload.slice(-2) as [string, string];
    expect(afterUpload.slice(0, before.length)).toEqual(before);
    expect(numberOf(blue)).toBe(numberOf(red) + 1);

    // Drag the blue photo onto the first place.
    await page.locator(`li[data-photo-url="${blue}"]`).dragTo(page.locator("li[data-photo-url]").first());
    await page.getByText(PHOTO_TEXT.reordered).first().waitFor();
    await page.reload();
    expect((await photoUrls(page))[0]).toBe(blue);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, { path: `${shots}/owner-photos.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${shots}/owner-photos-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The keyboard way: "Make main photo" on the red one.
    await page.locator(`li[data-photo-url="${red}"]`).getByRole("button", { name: "Make main photo" }).press("Enter");
    await expect.poll(() => photoUrls(page).then((u) => u[0])).toBe(red);
    await page.getByText(PHOTO_TEXT.reordered).first().waitFor();

    const slug = await page
      .getByRole("link", { name: "View the public page" })
      .getAttribute("href")
      .then((href) => href!.split("/").pop()!);
    expect(await mainPhotoNumber(page, slug)).toBe(numberOf(red));
    const image = await page.request.get(
      `${baseUrl}/place-images/${fixtures!.ownedLocationId}/w640n${numberOf(red)}.jpg`,
    );
    expect(image.status()).toBe(200);

    // Delete the red one, with confirmation: the main photo is the blue one again.
    await page.goto(manager());
    await page
      .locator(`li[data-photo-url="${red}"]`)
      .getByRole("button", { name: /^Delete photo/ })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete photo" }).click();
    await page.getByText(PHOTO_TEXT.deleted).first().waitFor();
    await expect.poll(() => photoUrls(page)).not.toContain(red);
    expect(await mainPhotoNumber(page, slug)).toBe(numberOf(blue));

    // Undo: the deleted photo waits under Recently deleted and comes back at the end of the list.
    await page.goto(manager());
    await page
      .getByRole("region", { name: "Recently deleted" })
      .getByRole("button", { name: /^Restore/ })
      .first()
      .click();
    await page.getByText(PHOTO_TEXT.restored).first().waitFor();
    await expect.poll(async () => (await photoUrls(page)).at(-1)).toBe(red);
    await screenshot(page, { path: `${shots}/photos-restored.png`, fullPage: true });
    await page.context().close();
  });

  it("refuses a 50 MB file and a file that is not an image, changing nothing", async () => {
    const page = await signedIn("listing_owner");
    await page.goto(manager());
    const before = await photoUrls(page);
    // Playwright passes files over 50 MB only by path.
    const bigSize = 50 * 1024 * 1024;
    fs.mkdirSync(".tmp", { recursive: true });
    const bigPath = ".tmp/huge.jpg";
    fs.writeFileSync(bigPath, Buffer.alloc(bigSize, 1));
    await page.getByLabel(/Drop photos here/).setInputFiles(bigPath);
    await page.getByText(PHOTO_TEXT.tooLarge("huge.jpg", bigSize)).waitFor();
    await page
      .getByLabel(/Drop photos here/)
      .setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("These are not pixels.") });
    await page.getByText(/^notes\.jpg is not a photo/).waitFor();
    expect(await page.locator('[data-upload-status="error"]').count()).toBe(2);

    // The server refuses the same without the page's own check.
    const upload = (name: string, buffer: Buffer) =>
      page.request.post(`${manager()}/upload`, {
        headers: { Accept: "application/json" },
        multipart: { photos: { name, mimeType: "image/jpeg", buffer } },
      });
    const tooBig = await page.request.post(`${manager()}/upload`, {
      headers: { Accept: "application/json" },
      multipart: { photos: fs.createReadStream(bigPath) },
    });
    expect(tooBig.status()).toBe(413);
    expect((await tooBig.json()).error).toBe(PHOTO_TEXT.requestTooLarge);
    const text = await upload("notes.jpg", Buffer.from("These are not pixels."));
    expect(text.status()).toBe(422);
    expect((await text.json()).rejected[0].message).toMatch(/^notes\.jpg is not a photo/);

    await page.reload();
    expect(await photoUrls(page)).toEqual(before);
    await page.context().close();
  });

  it("uploads and moves photos without JavaScript, as plain form posts", async () => {
    const page = await signedIn("listing_owner", false);
    await page.goto(manager());
    const before = await photoUrls(page);
    await page.getByLabel(/Drop photos here/).setInputFiles([
      {
        name: "green.png",
        mimeType: "image/png",
        buffer: await sharp(await jpeg(30, 200, 30))
          .png()
          .toBuffer(),
      },
      { name: "readme.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
    ]);
    await page.getByRole("button", { name: "Upload photos" }).click();
    await page
      .getByText(/^Photo added\. readme\.txt is not a photo/)
      .first()
      .waitFor();
    const after = await photoUrls(page);
    expect(after).toHaveLength(before.length + 1);
    const green = after.at(-1)!;
    await page.locator(`li[data-photo-url="${green}"]`).getByRole("button", { name: "Make main photo" }).click();
    await page.getByText(PHOTO_TEXT.reordered).first().waitFor();
    expect((await photoUrls(page))[0]).toBe(green);
    await page
      .locator(`li[data-photo-url="${green}"]`)
      .getByRole("button", { name: /later$/ })
      .click();
    await page.getByText(PHOTO_TEXT.reordered).first().waitFor();
    expect((await photoUrls(page))[1]).toBe(green);
    await page.context().close();
  });

  it("refuses someone else's listing", async () => {
    const page = await signedIn("business_owner");
    expect((await page.goto(manager()))!.status()).toBe(403);
    const upload = await page.request.post(`${manager()}/upload`, {
      headers: { Accept: "application/json" },
      multipart: { photos: { name: "x.jpg", mimeType: "image/jpeg", buffer: await jpeg(1, 2, 3) } },
    });
    expect(upload.status()).toBe(403);
    const reorder = await page.request.post(manager(), { form: { intent: "reorder", order: "x" } });
    expect(reorder.status()).toBe(403);
    await page.context().close();
  });
});
