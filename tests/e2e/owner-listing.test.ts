import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { browserForThisFile, newHumanContext } from "./browser";
import { exclusiveForThisFile } from "./exclusive";
import { screenshot } from "./screenshot";

/**
 * An owner updates their listing (docs/product.md section 10) on the shared site: hours, amenities
 * and description publish at once and show on the facility page; a new name waits for review; a
 * form opened before another save is refused instead of overwriting it.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
// These three files edit the fixture listing: one at a time.
exclusiveForThisFile("owned-listing");
const browser = browserForThisFile();
const shots = ".tmp/screenshots";

async function signedInOwner(): Promise<Page> {
  const context = await newHumanContext(browser());
  const page = await context.newPage();
  await page.goto(`${baseUrl}/business/login`);
  await page.getByLabel("Email").fill(ACCOUNTS.listing_owner.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${baseUrl}/owner`);
  return page;
}

describe.skipIf(!fixtures)("updating a listing", () => {
  it("publishes hours, amenities and description at once, and keeps a new name pending", async () => {
    const page = await signedInOwner();
    await page.goto(`${baseUrl}/owner/locations`);
    await page
      .getByRole("link", { name: /^Update/ })
      .first()
      .click();
    await page.waitForURL(/\/owner\/locations\/.+\/update$/);
    const oldName = (await page.getByLabel("Name", { exact: true }).inputValue()).trim();

    await page.getByLabel("Name", { exact: true }).fill(`${oldName} and Boat`);
    await page.getByLabel("Description").fill("Paved, gated and lit.\n\nAsk about our wash bay.");
    await page.getByRole("combobox", { name: "Monday opening" }).selectOption("hours");
    await page.getByLabel("Monday opens", { exact: true }).fill("07:30");
    await page.getByLabel("Monday closes", { exact: true }).fill("12:00");
    await page.getByLabel("Monday opens again").fill("13:00");
    await page.getByLabel("Monday closes again").fill("18:00");
    await page.getByRole("combobox", { name: "Sunday opening" }).selectOption("closed");
    // The search filter below proves the change only if the listing lacked the flag before.
    expect(await page.getByLabel("RV wash bay").isChecked()).toBe(false);
    await page.getByLabel("Propane").check();
    await page.getByLabel("RV wash bay").check();
    await page.getByRole("checkbox", { name: "12' x 30'" }).check();
    await page.getByLabel("Monthly price of 12' x 30'").fill("165");
    await page.getByLabel("Availability of 12' x 30'").selectOption("waitlist");
    await page.getByRole("button", { name: "Save changes" }).click();

    await page
      .getByText("Saved. Changes to the name, address or map position wait for an administrator.")
      .first()
      .waitFor();
    const notice = page.getByRole("status").filter({ hasText: "Pending review" });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`${oldName} and Boat`);
    expect(await page.getByRole("heading", { name: "History" }).isVisible()).toBe(true);
    expect(await page.locator("ol li").filter({ hasText: "Sent for review" }).count()).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, { path: `${shots}/owner-listing-update.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${shots}/owner-listing-update-phone.png`, fullPage: true });

    await page.getByRole("link", { name: "View the public page" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/location/"));
    // The editor's textarea holds the same words: wait for what only the facility page shows.
    await page.getByText(/Prices confirmed \w+ \d+, \d{4}/).waitFor();
    await page.getByText("Ask about our wash bay.").waitFor();
    const body = await page.locator("main").textContent();
    expect(body).toContain("Paved, gated and lit.");
    expect(body).toMatch(/7:30 AM – 12:00 PM, 1:00 PM – 6:00 PM/);
    expect(body).toContain("Propane");
    expect(body).toContain("RV wash bay");
    expect(body).toMatch(/12' x 30' · \$165\/mo · Waitlist/);
    expect(body).toMatch(/Prices confirmed \w+ \d+, \d{4}/);
    // The name waits for an administrator.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(oldName);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, { path: `${shots}/owner-listing-public.png`, fullPage: true });

    // Search filters see the new amenities at once (the index refresh, no restart).
    const directions = await page.locator('a[href*="/maps/dir/"]').first().getAttribute("href");
    const [lat, lng] = new URL(directions!).searchParams.get("destination")!.split(",");
    await page.goto(`${baseUrl}/rv-storage?lat=${lat}&lng=${lng}&amenity=rv_washbay&amenity=propane_station`);
    await page.locator("main").getByText(oldName, { exact: true }).first().waitFor();

    await page.goto(`${baseUrl}/owner/locations`);
    await page.getByText("Changes pending review").waitFor();
    await page.context().close();
  });

  it("refuses bad input and a stale form with the field named, changing nothing", async () => {
    const page = await signedInOwner();
    const path = `${baseUrl}/owner/locations/${encodeURIComponent(fixtures!.ownedLocationId)}/update`;
    await page.goto(path);
    const other = await page.context().newPage();
    await other.goto(path);

    await page.getByLabel("Website").fill("javascript:alert(1)");
    await page.getByLabel("Phone").fill("+44 20 7946 0958");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText(/^Website: enter a web address/).waitFor();
    await page.getByText(/^Phone: enter a US phone number/).waitFor();

    await page.getByLabel("Website").fill("https://example.com/");
    await page.getByLabel("Phone").fill("(512) 555-0199");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.", { exact: true }).first().waitFor();
    expect(await page.getByText(/^Website: /).count()).toBe(0);

    // The second tab still holds the version it opened with.
    await other.getByLabel("Description").fill("Written in another tab.");
    await other.getByRole("button", { name: "Save changes" }).click();
    await other.getByText(/Someone saved this listing after you opened this form/).waitFor();
    await other.reload();
    expect(await other.getByLabel("Description").inputValue()).not.toBe("Written in another tab.");
    expect(await other.getByLabel("Phone").inputValue()).toBe("(512) 555-0199");
    await page.context().close();
  });
});
