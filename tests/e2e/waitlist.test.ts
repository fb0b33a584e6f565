import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, hydrated, newHumanContext, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * The waitlist and "Available now" (docs/product.md section 17), as the issue tells it: the owner
 * marks 12x40 full; a visitor joins its waitlist from the facility page and confirms by the link
 * emailed to them; the owner sees one person waiting, then marks the size available; the visitor
 * gets exactly one email about it, with a link to leave; and the results page's Available now
 * filter, which could not be pressed before, finds the facility. Then a visitor asks to reserve a
 * space; the owner accepts it in the console's Reservation requests, and both are emailed.
 */
const browser = browserForThisFile();
const VISITOR = "waiting.visitor@example.com";
const REQUESTER = "reserving.visitor@example.com";
/** The site's clock: the question form needs a person's pause, which the test makes by moving it. */
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rv-clock-")), "offset");
fs.writeFileSync(clockFile, "0");
let owned: { placeId: string; slug: string; name: string; latitude: number; longitude: number };

const { base, mailTo, mailsTo } = mailingSiteForThisFile(
  async (dataDir) => {
    const fixtures = await prepareAccounts(dataDir);
    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      const now = new Date().toISOString();
      await handle.db
        .update(locations)
        .set({
          dimensions: [
            { width: 12, length: 40 },
            { width: 10, length: 20 },
          ],
          hasCoveredParking: true,
          sizeOffers: [
            { width: 12, length: 40, monthlyPrice: 210, availability: "available", statusAt: now },
            { width: 10, length: 20, monthlyPrice: 90, availability: null },
          ],
        })
        .where(eq(locations.placeId, fixtures.ownedLocationId));
      owned = (
        await handle.db
          .select({
            placeId: locations.placeId,
            slug: locations.slug,
            name: locations.name,
            latitude: locations.latitude,
            longitude: locations.longitude,
          })
          .from(locations)
          .where(eq(locations.placeId, fixtures.ownedLocationId))
      )[0]! as typeof owned;
    } finally {
      await handle.close();
    }
  },
  { TEST_CLOCK_FILE: clockFile },
);

/** The listing's own results: around its point, narrowed to its name. */
const resultsPath = () =>
  `/rv-storage?lat=${owned.latitude}&lng=${owned.longitude}&radius=5&q=${encodeURIComponent(owned.name)}`;

async function ownerSets(owner: Page, status: string) {
  await owner.goto(`${base()}/owner/locations/${encodeURIComponent(owned.placeId)}/availability`);
  await hydrated(owner);
  await owner
    .getByRole("group", { name: /12' x 40'/ })
    .getByRole("radio", { name: status })
    .check();
  await owner.getByRole("button", { name: "Save availability" }).click();
  await owner.getByRole("status").filter({ hasText: "Availability saved" }).first().waitFor();
}

describe("the waitlist", () => {
  it("takes a confirmed visitor, emails them once when the size opens, and Available now finds the place", async () => {
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
      viewport: { width: 390, height: 844 },
    });
    await ownerSets(owner, "Full");

    // Full: the results' Available now finds nothing here, and says so by its count.
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}${resultsPath()}`);
    await hydrated(visitor);
    const availableNow = visitor.getByRole("button", { name: /Available now/ });
    await expect.poll(() => availableNow.textContent()).toContain("(0)");
    expect(await availableNow.isDisabled()).toBe(true);

    // From the card to the facility page, and from its full size to the waitlist.
    await visitor.getByRole("link", { name: owned.name, exact: true }).first().click();
    await visitor.getByRole("heading", { level: 1, name: owned.name }).waitFor();
    await visitor.getByRole("link", { name: "Join the waitlist for 12' x 40'" }).click();
    await visitor.getByRole("heading", { level: 1, name: `Join the waitlist at ${owned.name}` }).waitFor();
    expect(await visitor.getByLabel("Size").inputValue()).toBe("12x40");
    await visitor.getByLabel("Your email").fill(VISITOR);
    await visitor.getByLabel("Your RV's length (feet)").fill("38");
    await screenshot(visitor, { path: path.resolve(".tmp/screenshots/waitlist-join.png"), fullPage: true });
    await visitor.getByRole("button", { name: "Join the waitlist" }).click();
    await visitor.getByRole("status").filter({ hasText: "Check your email" }).waitFor();

    // Double opt-in: the emailed link asks, the button confirms.
    let confirmText = "";
    await expect
      .poll(() => (confirmText = mailTo(VISITOR, /^Confirm your place on the waitlist/)?.mail.text ?? ""), {
        timeout: 15_000,
      })
      .toContain("/waitlist/confirm?token=");
    const confirmLink = new URL(/(\S+\/waitlist\/confirm\?token=\S+)/.exec(confirmText)![1]!);
    await visitor.goto(`${base()}${confirmLink.pathname}${confirmLink.search}`);
    await visitor.getByRole("button", { name: "Confirm my place" }).click();
    await visitor.getByRole("status").filter({ hasText: "You are on the waitlist for 12x40 ft" }).waitFor();

    // The owner sees a count, never an address.
    await owner.goto(`${base()}/owner/locations/${encodeURIComponent(owned.placeId)}/availability`);
    await owner.getByText("1 person waits").waitFor();
    expect(await owner.content()).not.toContain(VISITOR);

    // The size opens: one email to the visitor, with a way to leave.
    await ownerSets(owner, "Available");
    let opening = "";
    await expect
      .poll(() => (opening = mailTo(VISITOR, /^12x40 ft has space at /)?.mail.text ?? ""), { timeout: 15_000 })
      .toContain("/waitlist/leave?token=");
    expect(mailsTo(VISITOR, /has space at/)).toHaveLength(1);

    // Available now finds the facility, from the results page's own button.
    await visitor.goto(`${base()}${resultsPath()}`);
    await hydrated(visitor);
    await expect.poll(() => availableNow.textContent()).toContain("(1)");
    await availableNow.click();
    await visitor.waitForURL(/[?&]available=1/);
    await expect.poll(() => availableNow.getAttribute("aria-pressed")).toBe("true");
    await visitor.getByRole("link", { name: owned.name, exact: true }).first().waitFor();
    await visitor
      .getByText(/Spaces available · updated today/)
      .first()
      .waitFor();

    // Leaving takes one button on the emailed link's page.
    const leaveLink = new URL(/(\S+\/waitlist\/leave\?token=\S+)/.exec(opening)![1]!);
    await visitor.goto(`${base()}${leaveLink.pathname}${leaveLink.search}`);
    await visitor.getByRole("button", { name: "Leave the waitlist" }).click();
    await visitor.getByRole("status").filter({ hasText: "You left the waitlist for 12x40 ft" }).waitFor();
    await owner.goto(`${base()}/owner/locations/${encodeURIComponent(owned.placeId)}/availability`);
    await owner.getByRole("heading", { level: 1 }).waitFor();
    expect(await owner.getByText(/person waits|people wait/).count()).toBe(0);
  });

  it("takes a reservation request the owner accepts in the console, and emails both sides", async () => {
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${owned.slug}`);
    await hydrated(visitor);
    const form = visitor.locator("#ask");
    await form.getByLabel("Request to reserve").check();
    await form.getByLabel("RV type").selectOption("fifth_wheel");
    await form.getByLabel("Length (feet)").fill("38");
    const moveIn = new Date(Date.now() + 10 * 24 * 60 * 60_000).toISOString().slice(0, 10);
    await form.getByLabel("Move-in date", { exact: true }).fill(moveIn);
    await form.getByLabel("Your name").fill("Robin Reserver");
    await form.getByLabel("Email").fill(REQUESTER);
    await form.getByLabel("Message").fill("A covered space from the 10th for the winter, please.");
    // A person's pause since the page was served, on the site's clock.
    fs.writeFileSync(clockFile, String(Number(fs.readFileSync(clockFile, "utf8")) + 5_000));
    await form.getByRole("button", { name: "Send my request" }).click();
    await visitor.getByRole("status").filter({ hasText: "Your reservation request is on its way" }).waitFor();

    // The owner answers from the console's tab of reservation requests.
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
    });
    await owner.goto(`${base()}/owner/leads`);
    await hydrated(owner);
    await owner.getByRole("link", { name: /Reservation requests/ }).click();
    await owner.waitForURL(/[?&]kind=reservation/);
    const request = owner.getByRole("region", { name: "Reservation request" }).first();
    await request.getByText("Waiting for your answer").waitFor();
    await screenshot(owner, { path: path.resolve(".tmp/screenshots/owner-reservation-requests.png"), fullPage: true });
    await request.getByRole("button", { name: "Accept" }).click();
    await owner.getByRole("region", { name: "Reservation request" }).first().getByText("Accepted").waitFor();

    // Both sides hear of it.
    await expect
      .poll(() => mailTo(REQUESTER, new RegExp(`^${escape(owned.name)} accepted your reservation request`)), {
        timeout: 15_000,
      })
      .toBeDefined();
    await expect
      .poll(() => mailTo(ACCOUNTS.listing_owner.email, /^You accepted Robin Reserver's reservation request/), {
        timeout: 15_000,
      })
      .toBeDefined();
  });
});

/** A name as a literal inside a pattern. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
