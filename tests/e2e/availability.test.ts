import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { sendAvailabilityReminders } from "../../server/listings/availability-reminders";
import { resolveAuthSecret } from "../../server/auth/secret";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Availability the owner keeps fresh (docs/product.md section 17): from the console's Listings,
 * the owner opens a listing's Availability, marks a size full and another few left with a count;
 * the facility page says so, "updated today"; "Still correct" confirms them; when the site's clock
 * moves 31 days on (TEST_CLOCK_FILE, no waiting), the page says the availability was not
 * confirmed recently.
 */
const browser = browserForThisFile();
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rv-clock-")), "offset");
fs.writeFileSync(clockFile, "0");
let owned: { placeId: string; slug: string; name: string };

const { base, mailTo } = mailingSiteForThisFile(
  async (dataDir) => {
    const fixtures = await prepareAccounts(dataDir);
    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      // Two sizes to work with, whatever the demo catalogue gave the listing.
      await handle.db
        .update(locations)
        .set({
          dimensions: [
            { width: 12, length: 40 },
            { width: 10, length: 20 },
          ],
          sizeOffers: [
            {
              width: 12,
              length: 40,
              monthlyPrice: 190,
              availability: "available",
              statusAt: new Date(Date.now() - 20 * 24 * 60 * 60_000).toISOString(),
            },
            { width: 10, length: 20, monthlyPrice: 90, availability: null },
          ],
        })
        .where(eq(locations.placeId, fixtures.ownedLocationId));
      // The daily job, as the site would run it: the owner is due a reminder (20 days).
      await sendAvailabilityReminders(
        handle.db,
        new Date(),
        resolveAuthSecret({ dataDir, AUTH_SECRET: process.env.AUTH_SECRET, DATABASE_URL: undefined }),
      );
      owned = (
        await handle.db
          .select({ placeId: locations.placeId, slug: locations.slug, name: locations.name })
          .from(locations)
          .where(eq(locations.placeId, fixtures.ownedLocationId))
      )[0]!;
    } finally {
      await handle.close();
    }
  },
  { TEST_CLOCK_FILE: clockFile },
);

describe("availability", () => {
  it("is set per size in a few taps, shown with its date, confirmed, and goes stale after 30 days", async () => {
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
      viewport: { width: 390, height: 844 },
    });
    await owner.goto(`${base()}/owner/locations`);
    await hydrated(owner);
    await owner.getByRole("link", { name: `Availability of ${owned.name}` }).click();
    await owner.getByRole("heading", { level: 1, name: `Availability of ${owned.name}` }).waitFor();
    const big = owner.getByRole("group", { name: /12' x 40'/ });
    await big.getByRole("radio", { name: "Full" }).check();
    const small = owner.getByRole("listitem").filter({ has: owner.getByRole("group", { name: /10' x 20'/ }) });
    await small.getByRole("radio", { name: "Few left" }).check();
    await small.getByLabel("Open spaces (optional)").fill("2");
    await screenshot(owner, { path: path.resolve(".tmp/screenshots/owner-availability-390.png"), fullPage: true });
    await owner.getByRole("button", { name: "Save availability" }).click();
    await owner.getByRole("status").filter({ hasText: "Availability saved" }).first().waitFor();

    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${owned.slug}`);
    const sizes = visitor.getByRole("heading", { name: "Sizes" }).locator("..");
    await expect.poll(() => sizes.textContent()).toContain("12' x 40' · $190/mo · Full");
    expect(await sizes.textContent()).toContain("10' x 20' · $90/mo · Few left · 2 open");
    expect(await sizes.textContent()).toContain("Spaces available · updated today");

    // A month without updates: the page stops claiming anything.
    fs.writeFileSync(clockFile, String(31 * 24 * 60 * 60_000));
    await visitor.reload();
    await expect.poll(() => sizes.textContent()).toContain("Availability not confirmed recently");
    expect(await sizes.textContent()).toContain("Full (not confirmed recently)");

    // "Still correct" dates every status today, with the same words.
    await owner.reload();
    await owner.getByRole("button", { name: "Still correct" }).click();
    await owner.getByRole("status").filter({ hasText: "Confirmed" }).first().waitFor();
    await visitor.reload();
    await expect.poll(() => sizes.textContent()).toContain("Spaces available · updated today");
    fs.writeFileSync(clockFile, "0");
  });

  it("refuses a count that is not a whole number, beside its size, and changes nothing", async () => {
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
    });
    await owner.goto(`${base()}/owner/locations/${encodeURIComponent(owned.placeId)}/availability`);
    const small = owner.getByRole("listitem").filter({ has: owner.getByRole("group", { name: /10' x 20'/ }) });
    await small.getByLabel("Open spaces (optional)").fill("-3");
    await owner.getByRole("button", { name: "Save availability" }).click();
    await small.getByText("Enter the open spaces as a whole number.").waitFor();
  });

  it("asks the owner by email after 14 days, and the link confirms without signing in", async () => {
    let text = "";
    await expect
      .poll(
        () =>
          (text = mailTo(ACCOUNTS.listing_owner.email, /Is the availability of .* still correct\?/)?.mail.text ?? ""),
        {
          timeout: 15_000,
        },
      )
      .toContain("/availability/confirm?token=");
    const link = new URL(/(\S+\/availability\/confirm\?token=\S+)/.exec(text)![1]!);
    const page = await (await newHumanContext(browser())).newPage();
    // Opening the link changes nothing (a mail scanner may follow it); the button confirms.
    await page.goto(`${base()}${link.pathname}${link.search}`);
    await page.getByText(`Is the availability of ${owned.name} still correct?`).waitFor();
    await page.getByRole("button", { name: "Yes, it is still correct" }).click();
    await page.getByText(`Thank you: ${owned.name} shows its availability as updated today.`).waitFor();
    // An altered link is refused, and says what to do.
    await page.goto(`${base()}${link.pathname}?token=${link.searchParams.get("token")!.slice(0, -3)}abc`);
    await page.getByText("This link does not work").waitFor();
  });
});
