import path from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Reviews end to end (docs/product.md section 16), as people take them: an RV owner writes a
 * review from the facility page, edits it, and the listing's owner is emailed, finds it under
 * "Reviews" in the console and replies; a visitor reports it; an administrator removes it from the
 * work queue, and the rating and count go back on the result card, the facility page and its
 * JSON-LD while the author is emailed why. A review with a link is held, not public until approved,
 * and its author deletes it. Its own site: it reads the mail.
 */
const browser = browserForThisFile();

interface Listing {
  placeId: string;
  slug: string;
  name: string;
  lat: number;
  lng: number;
}
let owned: Listing;
let moved: Listing;

const { base, mailTo } = mailingSiteForThisFile(async (dataDir) => {
  const fixtures = await prepareAccounts(dataDir);
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    const columns = {
      placeId: locations.placeId,
      slug: locations.slug,
      name: locations.name,
      lat: locations.latitude,
      lng: locations.longitude,
    };
    const read = async (id: string) =>
      (await handle.db.select(columns).from(locations).where(eq(locations.placeId, id)))[0] as Listing;
    owned = await read(fixtures.ownedLocationId);
    moved = await read(fixtures.movedLocationId);
  } finally {
    await handle.close();
  }
});

/** The facility page's SelfStorage JSON-LD. */
async function jsonLd(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const business = blocks
    .map((b) => JSON.parse(b) as Record<string, unknown>)
    .find((b) => b["@type"] === "SelfStorage");
  return business as {
    aggregateRating?: { ratingValue: number; reviewCount: number };
    review?: { name: string; reviewRating: { ratingValue: number } }[];
  };
}

/** The review count on the listing's result card, searching at the listing itself (it comes first). */
async function cardCount(page: Page, listing: Listing): Promise<string> {
  await page.goto(`${base()}/rv-storage?lat=${listing.lat}&lng=${listing.lng}`);
  const card = page
    .locator("article")
    .filter({ has: page.getByRole("link", { name: listing.name }) })
    .first();
  return (
    (await card
      .getByText(/\(\d[\d,]* reviews?\)/)
      .first()
      .textContent()) ?? ""
  );
}

async function writeReview(
  page: Page,
  fields: { stars: number; title: string; body: string; kind?: string; length?: string },
): Promise<void> {
  await page.getByRole("radio", { name: `${fields.stars} star` }).check();
  await page.getByLabel("Title").fill(fields.title);
  await page.getByLabel("Your review").fill(fields.body);
  await page.getByLabel("What you stored").selectOption(fields.kind ?? "fifth_wheel");
  await page.getByLabel("Its length (feet)").fill(fields.length ?? "34");
}

describe("reviews", () => {
  it("are written, edited, answered, reported and removed, and the rating follows on every page", async () => {
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${owned.slug}`);
    const before = (await jsonLd(visitor)).aggregateRating!;
    const cardBefore = await cardCount(visitor, owned);

    // The author starts from the facility page, signed in as an RV owner with a confirmed email.
    const author = await signedInPage(browser(), base(), ACCOUNTS.business_owner.email);
    await author.goto(`${base()}/location/${owned.slug}`);
    await hydrated(author);
    await author.getByRole("link", { name: "Write a review" }).click();
    await author.getByRole("heading", { level: 1, name: `Review ${owned.name}` }).waitFor();
    // A mistake is named beside its field and loses nothing typed.
    await writeReview(author, { stars: 5, title: "Great covered spots", body: "Too short" });
    await author.getByRole("button", { name: "Publish review" }).click();
    await author.getByText("Write at least 20 characters about your stay.").waitFor();
    expect(await author.getByLabel("Title").inputValue()).toBe("Great covered spots");
    await author.getByLabel("Your review").fill("Covered spot fit our 34 ft fifth wheel, gate opens early.");
    await author.getByRole("button", { name: "Publish review" }).click();
    await author.getByText("Thank you: your review is published.").waitFor();
    const item = author
      .getByRole("listitem")
      .filter({ has: author.getByRole("heading", { name: "Great covered spots" }) });
    await item.waitFor();
    const written = await jsonLd(author);
    expect(written.aggregateRating!.reviewCount).toBe(before.reviewCount + 1);
    expect(written.review?.map((r) => r.name)).toContain("Great covered spots");
    await screenshot(author.locator("#reviews"), { path: path.resolve(".tmp/screenshots/reviews-1280.png") });

    // Editing keeps one review, marked edited, with the new stars in the rating.
    await author.getByRole("link", { name: "Write a review" }).click();
    await author.getByRole("heading", { level: 1, name: `Your review of ${owned.name}` }).waitFor();
    await author.getByRole("radio", { name: "3 stars" }).check();
    await author.getByLabel("Title").fill("Good covered spots, slow gate");
    await author.getByRole("button", { name: "Save changes" }).click();
    await author.getByText("Thank you: your review is published.").waitFor();
    const edited = author.getByRole("listitem").filter({
      has: author.getByRole("heading", { name: "Good covered spots, slow gate" }),
    });
    await expect.poll(() => edited.textContent()).toContain("edited");
    expect((await jsonLd(author)).aggregateRating!.reviewCount).toBe(before.reviewCount + 1);

    // The listing's owner was emailed, finds the review from the console's menu and answers it.
    await expect
      .poll(() => mailTo(ACCOUNTS.listing_owner.email, /New 5-star review of/)?.mail.text ?? "", { timeout: 15_000 })
      .toContain("/owner/reviews");
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
    });
    await owner.goto(`${base()}/owner`);
    await hydrated(owner);
    await owner.getByRole("link", { name: "Reviews" }).first().click();
    await owner.getByRole("heading", { level: 1, name: "Reviews" }).waitFor();
    const card = owner
      .getByRole("article")
      .filter({ has: owner.getByRole("heading", { name: "Good covered spots, slow gate" }) });
    await card.getByLabel("Reply publicly").fill("Thanks! We now open the gate at 6 AM.");
    await card.getByRole("button", { name: "Publish reply" }).click();
    await owner.getByRole("status").filter({ hasText: "Your reply is published" }).first().waitFor();
    await screenshot(owner, { path: path.resolve(".tmp/screenshots/owner-reviews-1280.png"), fullPage: true });
    await visitor.goto(`${base()}/location/${owned.slug}#reviews`);
    const shown = visitor.getByRole("listitem").filter({
      has: visitor.getByRole("heading", { name: "Good covered spots, slow gate" }),
    });
    await shown.getByText("Thanks! We now open the gate at 6 AM.").waitFor();
    expect(await shown.textContent()).toContain("Response from the owner");

    // A visitor (signed out) reports it.
    await hydrated(visitor);
    await shown.getByText("Report", { exact: true }).click();
    await shown.getByLabel("Spam or advertising").check();
    await shown.getByRole("button", { name: "Send report" }).click();
    await shown.getByText("Thank you: our team reads the review and decides.").waitFor();

    // An administrator removes it from the work queue's Reviews tab, with a reason.
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/manage`);
    await hydrated(admin);
    await admin.getByRole("link", { name: /^Reviews/ }).click();
    await admin.getByRole("heading", { name: "Reviews to check" }).waitFor();
    const queued = admin.getByRole("article").filter({ hasText: "Good covered spots, slow gate" });
    expect(await queued.textContent()).toContain("Spam or advertising");
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, { path: path.resolve(".tmp/screenshots/admin-review-queue-390.png"), fullPage: true });
    await admin.setViewportSize({ width: 1280, height: 800 });
    await queued.getByLabel(/^Reason/).fill("Reads like an advert for another facility.");
    await queued.getByRole("button", { name: /^Remove/ }).click();
    await admin.getByRole("status").filter({ hasText: "Removed: the review is gone" }).first().waitFor();

    // The rating and count are back where they were: facility page, JSON-LD and the result card.
    await visitor.goto(`${base()}/location/${owned.slug}`);
    expect(await visitor.getByRole("heading", { name: "Good covered spots, slow gate" }).count()).toBe(0);
    const after = (await jsonLd(visitor)).aggregateRating!;
    expect(after.reviewCount).toBe(before.reviewCount);
    expect(after.ratingValue).toBeCloseTo(before.ratingValue, 6);
    expect(await cardCount(visitor, owned)).toBe(cardBefore);
    await expect
      .poll(() => mailTo(ACCOUNTS.business_owner.email, /was removed/)?.mail.text ?? "", { timeout: 15_000 })
      .toContain("Reads like an advert for another facility.");
  });

  it("holds a review with a link until an administrator approves it, and its author deletes it", async () => {
    const author = await signedInPage(browser(), base(), ACCOUNTS.user.email);
    await author.goto(`${base()}/location/${moved.slug}/review`);
    await writeReview(author, {
      stars: 1,
      title: "Go elsewhere",
      body: "Much better prices at www.cheaper-rv-lot.example.com, do not store here.",
    });
    await author.getByRole("button", { name: "Publish review" }).click();
    await author.getByText("your review waits for a check by our team").waitFor();
    expect(await author.getByRole("heading", { name: "Go elsewhere" }).count()).toBe(0);
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${moved.slug}`);
    const before = (await jsonLd(visitor)).aggregateRating;
    expect(await visitor.getByRole("heading", { name: "Go elsewhere" }).count()).toBe(0);

    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/manage?section=reviews`);
    const queued = admin.getByRole("article").filter({ hasText: "Go elsewhere" });
    expect(await queued.textContent()).toContain("Has a link");
    await queued.getByRole("button", { name: /^Approve/ }).click();
    await admin.getByRole("status").filter({ hasText: "Approved: the review is published" }).first().waitFor();

    await visitor.reload();
    await visitor.getByRole("heading", { name: "Go elsewhere" }).waitFor();
    expect((await jsonLd(visitor)).aggregateRating!.reviewCount).toBe((before?.reviewCount ?? 0) + 1);

    // Its author deletes it, after confirming.
    await author.goto(`${base()}/location/${moved.slug}/review`);
    await hydrated(author);
    await author.getByRole("button", { name: "Delete my review" }).click();
    await author.getByRole("dialog").getByRole("button", { name: "Delete review" }).click();
    await author.getByText("Your review is deleted.").waitFor();
    await visitor.reload();
    expect(await visitor.getByRole("heading", { name: "Go elsewhere" }).count()).toBe(0);
    expect((await jsonLd(visitor)).aggregateRating?.reviewCount).toBe(before?.reviewCount);
  });
});
