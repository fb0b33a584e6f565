import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNTS } from "./accounts";
import { browserForThisFile, hydrated, signedInPage } from "./browser";
import { exclusiveForThisFile } from "./exclusive";
import { screenshot } from "./screenshot";

/**
 * The owner's hours editor (docs/product.md section 10) on the shared site: time boxes wide enough
 * for "08:00 AM" at 1366 px, Monday's hours copied to the weekdays and to the whole week, gate
 * access hours apart from the office hours (a refused range named, then saved), shown on the
 * facility page beside the office hours; the administrator's editor, the same form, shows them
 * and can put the gate back on the office hours.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
// These three files edit the fixture listing: one at a time.
exclusiveForThisFile("owned-listing");
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const WEEKDAYS = ["Tuesday", "Wednesday", "Thursday", "Friday"];
/** The listing's facility page, found by the first test. */
let facilityPath = "";

/** Whether a time box shows "08:00 AM" and its picker icon whole, in its own font. */
async function showsWholeTime(input: Locator): Promise<boolean> {
  return input.evaluate((el) => {
    const style = getComputedStyle(el);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText("08:00 AM").width;
    const chrome = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
      .map((p) => parseFloat(style[p as "paddingLeft"]))
      .reduce((a, b) => a + b, 0);
    // The picker's icon and its margin take about 24 px in Chromium.
    return el.getBoundingClientRect().width >= text + chrome + 24;
  });
}

async function shot(page: Page, name: string, locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await screenshot(page, { path: `${shots}/${name}.png` });
}

describe.skipIf(!fixtures)("the owner's hours editor", () => {
  it("copies Monday's hours, keeps gate hours apart, refuses a bad range and shows both on the facility page", async () => {
    const page = await signedInPage(browser(), baseUrl, ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
      viewport: DESKTOP,
      locale: "en-US",
    });
    await hydrated(page);
    // Through the console's menu, as an owner goes.
    await page.getByRole("link", { name: "Listings", exact: true }).first().click();
    await page.waitForURL(`${baseUrl}/owner/locations`);
    await page
      .getByRole("link", { name: /^Update/ })
      .first()
      .click();
    await page.waitForURL(/\/owner\/locations\/.+\/update$/);
    await hydrated(page);

    const office = page.getByRole("region", { name: "Office hours" });
    const gate = page.getByRole("region", { name: "Gate access hours" });
    await office.getByRole("combobox", { name: "Monday opening" }).selectOption("hours");
    await page.getByLabel("Monday opens", { exact: true }).fill("07:00");
    await page.getByLabel("Monday closes", { exact: true }).fill("19:00");
    await page.getByLabel("Monday opens again", { exact: true }).fill("");
    await page.getByLabel("Monday closes again", { exact: true }).fill("");
    expect(await showsWholeTime(page.getByLabel("Monday opens", { exact: true }))).toBe(true);
    expect(await showsWholeTime(page.getByLabel("Monday closes again", { exact: true }))).toBe(true);
    const saturdayBefore = await office.getByRole("combobox", { name: "Saturday opening" }).inputValue();
    const saturdayOpens = await page.getByLabel("Saturday opens", { exact: true }).inputValue();

    await office.getByRole("button", { name: "Copy Monday to weekdays" }).click();
    await office.getByRole("status").filter({ hasText: "Monday's hours copied to Tuesday to Friday." }).waitFor();
    for (const day of WEEKDAYS) {
      expect(await office.getByRole("combobox", { name: `${day} opening` }).inputValue()).toBe("hours");
      expect(await page.getByLabel(`${day} opens`, { exact: true }).inputValue()).toBe("07:00");
      expect(await page.getByLabel(`${day} closes`, { exact: true }).inputValue()).toBe("19:00");
    }
    // The weekend is left alone.
    expect(await office.getByRole("combobox", { name: "Saturday opening" }).inputValue()).toBe(saturdayBefore);
    expect(await page.getByLabel("Saturday opens", { exact: true }).inputValue()).toBe(saturdayOpens);
    await shot(page, "owner-hours-office-1366", office);

    // The gate's week appears only for hours of its own; it starts from the office hours.
    const gateMonday = page.getByLabel("Monday gate opens", { exact: true });
    expect(await gateMonday.isVisible()).toBe(false);
    await gate.getByLabel("Different hours for the gate").check();
    await gateMonday.waitFor();
    await gate.getByRole("button", { name: "Copy the office hours" }).click();
    expect(await gateMonday.inputValue()).toBe("07:00");
    await gate.getByRole("combobox", { name: "Monday gate access" }).selectOption("hours");
    await gateMonday.fill("05:00");
    await page.getByLabel("Monday gate closes", { exact: true }).fill("04:00");
    await page.getByRole("button", { name: "Save changes" }).click();
    const refusal = gate.getByRole("alert").filter({
      hasText: "Gate access on Monday: the closing time must be after the opening time.",
    });
    await refusal.waitFor();
    await page.getByText("Some fields need a change: see the messages below.").first().waitFor();
    expect(await page.getByLabel("Monday gate closes", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await shot(page, "owner-hours-gate-error-1366", gate);

    await page.getByLabel("Monday gate closes", { exact: true }).fill("22:00");
    await gate.getByRole("button", { name: "Copy Monday to all days" }).click();
    expect(await page.getByLabel("Sunday gate opens", { exact: true }).inputValue()).toBe("05:00");
    expect(await gate.getByRole("combobox", { name: "Sunday gate access" }).inputValue()).toBe("hours");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.", { exact: true }).first().waitFor();
    expect(await gate.getByLabel("Different hours for the gate").isChecked()).toBe(true);
    expect(await page.getByLabel("Sunday gate closes", { exact: true }).inputValue()).toBe("22:00");
    await shot(page, "owner-hours-gate-1366", gate);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await showsWholeTime(page.getByLabel("Monday opens", { exact: true }))).toBe(true);
    await shot(page, "owner-hours-office-390", office);
    await shot(page, "owner-hours-gate-390", gate);
    await page.setViewportSize(DESKTOP);

    // The facility page: office and gate hours side by side, today marked in both.
    await page.getByRole("link", { name: "View the public page" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/location/"));
    facilityPath = new URL(page.url()).pathname;
    const hours = page.getByRole("region", { name: "Business hours" });
    const officeList = hours.getByRole("list", { name: "Office" });
    const gateList = hours.getByRole("list", { name: "Gate access" });
    await gateList.waitFor();
    expect(await officeList.getByRole("listitem").first().textContent()).toMatch(/^Monday: 7:00 AM – 7:00 PM/);
    expect(await gateList.getByRole("listitem").allTextContents()).toHaveLength(7);
    for (const line of await gateList.getByRole("listitem").allTextContents())
      expect(line).toMatch(/^\w+day: 5:00 AM – 10:00 PM(Today)?$/);
    await expect.poll(() => hours.locator('li[aria-current="date"]').count()).toBe(2);
    await shot(page, "facility-gate-hours-1366", hours);
    await page.setViewportSize(PHONE);
    await shot(page, "facility-gate-hours-390", hours);
    await page.context().close();
  });

  it("shows the gate hours in the administrator's editor, which can put the gate back on the office hours", async () => {
    const page = await signedInPage(browser(), baseUrl, ACCOUNTS.admin.email, { viewport: DESKTOP, locale: "en-US" });
    await page.goto(`${baseUrl}/admin/manage/${encodeURIComponent(fixtures!.ownedLocationId)}/edit`);
    await hydrated(page);
    const gate = page.getByRole("region", { name: "Gate access hours" });
    expect(await gate.getByLabel("Different hours for the gate").isChecked()).toBe(true);
    expect(await page.getByLabel("Monday gate opens", { exact: true }).inputValue()).toBe("05:00");
    await shot(page, "admin-hours-gate-1366", gate);
    await gate.getByLabel("Same as the office hours").check();
    expect(await page.getByLabel("Monday gate opens", { exact: true }).isVisible()).toBe(false);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.", { exact: true }).first().waitFor();
    expect(await gate.getByLabel("Same as the office hours").isChecked()).toBe(true);
    expect(await page.getByLabel("Monday gate opens", { exact: true }).isVisible()).toBe(false);
    await shot(page, "admin-hours-gate-same-1366", gate);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "admin-hours-gate-same-390", gate);

    await page.goto(`${baseUrl}${facilityPath}`);
    const hours = page.getByRole("region", { name: "Business hours" });
    await hours.getByRole("listitem").first().waitFor();
    expect(await hours.getByRole("heading", { name: "Gate access" }).count()).toBe(0);
    await page.context().close();
  });
});
