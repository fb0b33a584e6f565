import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { LISTING_CONFLICT_TEXT } from "../../domain/listings";
import { announce } from "./announce";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * The admin catalogue end to end (docs/product.md section 12): an administrator imports a file with
 * a bad row, reads the report and applies the good rows; hides one of two near-duplicates; finds a
 * listing by name, fixes its phone and drags its pin, and the facility page and search show it; and
 * bad input (a wrong header, an oversized upload, a latitude past 90, a bulk action on nothing, a
 * save over another admin's) gets a clear answer with nothing lost. Its own site, since it changes
 * the catalogue.
 */
const browser = browserForThisFile();
const shots = path.resolve(".tmp/screenshots");
const { base } = mailingSiteForThisFile(async (dataDir) => {
  await prepareAccounts(dataDir);
});

const admin = (): Promise<Page> => signedInPage(browser(), base(), ACCOUNTS.admin.email);
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text }).first();

const TWIN_A = { id: "e2e_twin_pines_a", name: "Twin Pines RV Storage", lat: 44.0521, lng: -123.0868 };
const TWIN_B = { id: "e2e_twin_pines_b", name: "Twin Pines R.V. Storage", lat: 44.0524, lng: -123.0871 };
const IMPORT = [
  "place_id,name,address,city,state,latitude,longitude,phone_number",
  `${TWIN_A.id},${TWIN_A.name},"1 Pine Rd, Eugene, OR",Eugene,OR,${TWIN_A.lat},${TWIN_A.lng},(541) 555-0100`,
  `e2e_bad_row,Broken Row,"2 Pine Rd, Eugene, OR",Eugene,OR,95,-123.08,`,
  `${TWIN_B.id},${TWIN_B.name},"1 Pine Road, Eugene, OR",Eugene,OR,${TWIN_B.lat},${TWIN_B.lng},`,
].join("\n");

async function importFile(page: Page, name: string, text: string) {
  await page.goto(`${base()}/admin/locations/import`);
  await page.getByLabel("File").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await page.getByRole("button", { name: "Upload and check" }).click();
  await page.waitForURL(/\/admin\/locations\/import\/[0-9a-f-]{36}$/);
}

async function searchApi(lat: number, lng: number) {
  const answer = await fetch(`${base()}/api/search?lat=${lat}&lng=${lng}&radius=5`);
  return (await answer.json()) as { items: { id: string; lat: number; lng: number }[] };
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("the admin catalogue", () => {
  it("imports a file with a bad row, applies the good rows, and hides one of two duplicates", async () => {
    const page = await admin();
    await importFile(page, "twins.csv", IMPORT);
    await page.getByText("Checked, not applied").first().waitFor();
    const problems = page.getByRole("table", { name: "Rows with problems" });
    expect(await problems.getByRole("row").filter({ hasText: "e2e_bad_row" }).textContent()).toMatch(/3.*latitude/);
    expect(await page.getByText("The check found 2 rows to write and 1 row with problems").count()).toBe(1);
    await screenshot(page, { path: path.join(shots, "admin-import-checked.png"), fullPage: true });
    // Nothing is written before the administrator applies.
    expect((await searchApi(TWIN_A.lat, TWIN_A.lng)).items.map((i) => i.id)).not.toContain(TWIN_A.id);

    await page.getByRole("button", { name: "Apply 2 rows" }).click();
    const dialog = page.getByRole("dialog", { name: "Write 2 rows to the catalogue?" });
    await dialog.getByRole("button", { name: "Apply 2 rows" }).click();
    await page.getByText("Applied", { exact: true }).first().waitFor();
    // The search index takes the change in the background after the write: wait for it.
    await expect
      .poll(async () => (await searchApi(TWIN_A.lat, TWIN_A.lng)).items.map((i) => i.id), { timeout: 15_000 })
      .toEqual(expect.arrayContaining([TWIN_A.id, TWIN_B.id]));

    // Two listings with nearly one name a few yards apart: hide the second.
    await page.goto(`${base()}/admin/locations`);
    await page.getByLabel("Search").fill("Twin Pines");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=Twin/);
    await page.getByText("2 listings match these filters").waitFor();
    await page.getByLabel(`Select ${TWIN_B.name}`).check();
    await page.getByRole("button", { name: "Hide (1)" }).click();
    const confirm = page.getByRole("dialog", { name: "Hide 1 listing?" });
    expect(await confirm.textContent()).toContain("Visitors will no longer find it");
    await screenshot(page, { path: path.join(shots, "admin-locations-bulk-confirm.png") });
    await confirm.getByRole("button", { name: "Hide 1 listing" }).click();
    await toast(page, "Hid 1 listing.").waitFor();
    const row = page.getByRole("row").filter({ hasText: TWIN_B.name });
    expect(await row.textContent()).toContain("Hidden");
    await screenshot(page, { path: path.join(shots, "admin-locations.png"), fullPage: true });

    expect((await searchApi(TWIN_A.lat, TWIN_A.lng)).items.map((i) => i.id)).not.toContain(TWIN_B.id);
    await page.goto(`${base()}/admin/manage/${TWIN_B.id}`);
    const hiddenHref = (await page.getByRole("link", { name: "Facility page" }).getAttribute("href"))!;
    expect((await fetch(`${base()}${hiddenHref}`)).status).toBe(404);
    // Deleted, the page says it is gone for good; the owner's console no longer has it either.
    const deleted = await page.request.post(`${base()}/admin/manage/${TWIN_B.id}`, {
      form: { intent: "visibility", action: "delete" },
      headers: { Origin: base() },
      maxRedirects: 0,
    });
    expect(deleted.status()).toBe(303);
    const gone = await fetch(`${base()}${hiddenHref}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("This listing was removed");

    // The export of the current filter carries the listings it shows.
    const exported = await page.request.get(`${base()}/admin/locations/export?format=csv&q=Twin+Pines`);
    expect(exported.status()).toBe(200);
    expect(exported.headers()["content-disposition"]).toMatch(/attachment; filename="locations-.*\.csv"/);
    const csv = await exported.text();
    expect(csv.split("\n")[0]).toContain("place_id");
    expect(csv).toContain(TWIN_A.id);
    const geo = await page.request.get(
      `${base()}/admin/locations/export?format=geojson&q=Twin+Pines&visibility=listed`,
    );
    const features = ((await geo.json()) as { features: { properties: { place_id: string } }[] }).features;
    expect(features.map((f) => f.properties.place_id)).toEqual([TWIN_A.id]);
  });

  it("finds a listing by name, fixes its phone and drags its pin; the facility page and search show it", async () => {
    const page = await admin();
    await page.goto(`${base()}/admin/locations`);
    await page.getByLabel("Search").fill(TWIN_A.name);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByRole("link", { name: TWIN_A.name, exact: true }).click();
    await page.waitForURL(`${base()}/admin/manage/${TWIN_A.id}`);
    await page.getByRole("link", { name: "Edit listing" }).click();
    await page.waitForURL(`${base()}/admin/manage/${TWIN_A.id}/edit`);

    await page.getByLabel("Phone").fill("(541) 555-0199");
    const pin = page.locator('[data-testid="pin-picker"] .rv-map-pin');
    await pin.waitFor();
    const box = (await pin.boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height - 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 30, { steps: 8 });
    await page.mouse.up();
    const lat = Number(await page.getByLabel("Latitude").inputValue());
    const lng = Number(await page.getByLabel("Longitude").inputValue());
    expect(lat).toBeLessThan(TWIN_A.lat);
    expect(lng).toBeGreaterThan(TWIN_A.lng);
    await screenshot(page, { path: path.join(shots, "admin-listing-editor.png") });
    await page.getByRole("button", { name: "Save changes" }).click();
    await toast(page, "Saved.").waitFor();

    await page.goto(`${base()}/admin/manage/${TWIN_A.id}`);
    const facility = (await page.getByRole("link", { name: "Facility page" }).getAttribute("href"))!;
    await page.goto(`${base()}${facility}`);
    expect(await page.getByText("(541) 555-0199").count()).toBeGreaterThan(0);
    const found = (await searchApi(lat, lng)).items.find((i) => i.id === TWIN_A.id)!;
    expect(found.lat).toBeCloseTo(lat, 5);
    expect(found.lng).toBeCloseTo(lng, 5);
  });

  it("takes a visitor's report to the work queue, where an administrator resolves it", async () => {
    const admin1 = await admin();
    await admin1.goto(`${base()}/admin/manage/${TWIN_A.id}`);
    const facility = (await admin1.getByRole("link", { name: "Facility page" }).getAttribute("href"))!;
    const visitor = await (await browser().newContext()).newPage();
    await visitor.goto(`${base()}${facility}`);
    await visitor.getByText("Suggest an edit").click();
    await visitor.getByLabel("The phone number is wrong").check();
    await visitor.getByLabel("Details (optional)").fill("It rings a pizza place.");
    await visitor.getByRole("button", { name: "Send report" }).click();
    await visitor.getByText("Thank you: your report reached our team").waitFor();

    await admin1.goto(`${base()}/admin`);
    await admin1.getByRole("link", { name: /1\s*visitor report waits/ }).click();
    await admin1.waitForURL(`${base()}/admin/manage?section=reports`);
    const item = admin1.getByRole("listitem").filter({ hasText: "It rings a pizza place." });
    expect(await item.textContent()).toContain("The phone number is wrong");
    await screenshot(admin1, { path: path.join(shots, "admin-queue-reports.png"), fullPage: true });
    await item.getByRole("button", { name: "Resolved" }).click();
    await toast(admin1, "Report resolved.").waitFor();
    await admin1.getByText("No open reports").waitFor();
  });

  it("answers bad input clearly and loses nothing", async () => {
    const page = await admin();
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

    // A latitude past 90 is refused by name; what was typed stays in the form.
    await page.goto(`${base()}/admin/manage/${TWIN_A.id}/edit`);
    await page.getByLabel("Latitude").fill("-91");
    await page.getByLabel("Description").fill("Typed before the refusal");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Latitude must be between -90 and 90.").first().waitFor();
    expect(await page.getByLabel("Description").inputValue()).toBe("Typed before the refusal");

    // Another admin saves first: this save is refused with a message, its text kept.
    const other = await admin();
    await page.goto(`${base()}/admin/manage/${TWIN_A.id}/edit`);
    await other.goto(`${base()}/admin/manage/${TWIN_A.id}/edit`);
    await other.getByLabel("Website").fill("https://twinpines.example/");
    await other.getByRole("button", { name: "Save changes" }).click();
    await toast(other, "Saved.").waitFor();
    await page.getByLabel("Description").fill("My late edit");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText(LISTING_CONFLICT_TEXT).first().waitFor();
    expect(await page.getByLabel("Description").inputValue()).toBe("My late edit");

    // A bulk action on no listing.
    const none = await page.request.post(`${base()}/admin/locations`, {
      form: { intent: "bulk", action: "hide" },
      headers: { Origin: base() },
    });
    expect(none.status()).toBe(400);
    expect(await none.text()).toContain("Select at least one listing first.");

    // A 200 MB upload is refused before it is read.
    expect(await announce(base(), "/admin/locations/import/upload", 200 * 1024 * 1024, { cookie })).toBe(413);

    // A file with a wrong header fails with a message naming the file and the column.
    await importFile(page, "wrong-header.csv", "id,title\n1,Nope\n");
    await page.getByText("The file could not be imported. Nothing was written.").waitFor();
    expect(await page.getByRole("alert").filter({ hasText: "wrong-header.csv" }).textContent()).toContain("place_id");
  });
});
