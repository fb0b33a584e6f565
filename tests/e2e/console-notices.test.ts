import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ACCOUNTS, prepareAccounts, type Fixtures } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * The consoles' small words and notices (issue 32 item 15): a ban reason typed with its own full
 * stop reads with one; the notice after an action sits below the header, never over 'Sign out'
 * (desktop) or 'Menu' (phone); an import of one new listing says "1 new listing is added", and once
 * applied nothing on the page still says it is applying; an owner sets the map position by
 * dragging the pin. Its own site: it bans an account and writes to the catalogue.
 */
const browser = browserForThisFile();
const shots = process.env.SHOTS_DIR ?? ".tmp/screenshots";
let fixtures: Fixtures;
const { base } = mailingSiteForThisFile(async (dataDir) => {
  fixtures = await prepareAccounts(dataDir);
});

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text }).first();

/** Whether two elements' boxes share any pixel. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [(await a.boundingBox())!, (await b.boundingBox())!];
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("console notices", () => {
  it("reads a ban reason with one full stop, and its notice leaves Sign out and Menu uncovered", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { viewport: DESKTOP });
    await admin.goto(`${base()}/admin/users/${fixtures.userId}`);
    await admin.getByLabel("Reason for a ban").fill("Posts spam questions.");
    await admin.getByRole("button", { name: "Ban account" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Ban account" }).click();
    const banned = toast(admin, /^Account banned/);
    await banned.waitFor();
    await admin.getByText("This account is banned: it cannot sign in. Reason: Posts spam questions.").waitFor();
    expect(await admin.getByText("questions..").count()).toBe(0);
    const signOut = admin.locator("header").getByRole("button", { name: "Sign out" });
    expect(await signOut.isVisible()).toBe(true);
    expect(await overlap(banned, signOut)).toBe(false);
    // The button under where the notice used to be still takes the click.
    expect(
      await signOut.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
      }),
    ).toBe(true);
    await screenshot(admin, { path: `${shots}/console-notice-desktop.png` });

    // A phone: 'Sign out' is behind 'Menu', and the notice is at the bottom.
    await admin.setViewportSize(PHONE);
    await admin.getByRole("button", { name: "Lift the ban" }).click();
    const lifted = toast(admin, "Ban lifted");
    await lifted.waitFor();
    const menu = admin.locator("header summary").filter({ hasText: "Menu" });
    expect(await menu.isVisible()).toBe(true);
    expect(await overlap(lifted, menu)).toBe(false);
    expect((await lifted.boundingBox())!.y).toBeGreaterThan(PHONE.height / 2);
    await screenshot(admin, { path: `${shots}/console-notice-phone.png` });
    await admin.context().close();
  });

  it("says '1 new listing is added' and, once applied, nothing says it is still applying", async () => {
    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email, { viewport: DESKTOP });
    await admin.goto(`${base()}/admin/locations/import`);
    const csv = [
      "place_id,name,address,city,state,latitude,longitude,phone_number",
      `e2e_one_new_listing,One New RV Storage,"5 Oak Rd, Eugene, OR",Eugene,OR,44.06,-123.1,(541) 555-0142`,
    ].join("\n");
    await admin.getByLabel("File").setInputFiles({ name: "one.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await admin.getByRole("button", { name: "Upload and check" }).click();
    await admin.waitForURL(/\/admin\/locations\/import\/[0-9a-f-]{36}$/);
    await admin.getByRole("button", { name: "Apply 1 row" }).click();
    const dialog = admin.getByRole("dialog", { name: "Write 1 row to the catalogue?" });
    expect(await dialog.textContent()).toContain("1 new listing is added, all at once.");
    await screenshot(admin, { path: `${shots}/import-confirm-desktop.png` });
    await dialog.getByRole("button", { name: "Apply 1 row" }).click();
    await admin.getByText(/^Applied .*: 1 row written\. Search shows them now\.$/).waitFor();
    expect(await admin.getByText("Applying the import").count()).toBe(0);
    expect(await admin.getByText("Writing the good rows").count()).toBe(0);
    await screenshot(admin, { path: `${shots}/import-applied-desktop.png`, fullPage: true });
    await admin.setViewportSize(PHONE);
    await screenshot(admin, { path: `${shots}/import-applied-phone.png`, fullPage: true });
    await admin.context().close();
  });

  it("lets an owner set the map position by dragging the pin, checked by an administrator", async () => {
    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, {
      loginPath: "/business/login",
      viewport: DESKTOP,
    });
    await owner.goto(`${base()}/owner/locations/${encodeURIComponent(fixtures.ownedLocationId)}/update`);
    const before = {
      lat: Number(await owner.getByLabel("Latitude").inputValue()),
      lng: Number(await owner.getByLabel("Longitude").inputValue()),
    };
    const pin = owner.locator('[data-testid="pin-picker"] .rv-map-pin');
    await pin.scrollIntoViewIfNeeded();
    await pin.waitFor();
    const box = (await pin.boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height - 2 };
    await owner.mouse.move(from.x, from.y);
    await owner.mouse.down();
    await owner.mouse.move(from.x + 40, from.y + 30, { steps: 8 });
    await owner.mouse.up();
    // Dragged right and down: east and south of where it was.
    await expect.poll(async () => Number(await owner.getByLabel("Latitude").inputValue())).toBeLessThan(before.lat);
    expect(Number(await owner.getByLabel("Longitude").inputValue())).toBeGreaterThan(before.lng);
    await screenshot(owner, { path: `${shots}/owner-pin-desktop.png` });
    await owner.getByRole("button", { name: "Save changes" }).click();
    await toast(owner, "Changes to the name, address or map position wait for an administrator.").waitFor();
    await owner.setViewportSize(PHONE);
    await owner.locator('[data-testid="pin-picker"]').scrollIntoViewIfNeeded();
    await screenshot(owner, { path: `${shots}/owner-pin-phone.png` });
    await owner.context().close();
  });
});
