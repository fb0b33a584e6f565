import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts, type Fixtures } from "./accounts";
import { browserForThisFile, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Invoice mode end to end (docs/product.md section 11): an owner promotes their listing to
 * Preferred and receives the invoice; an admin marks it paid; the listing then carries the
 * 'Preferred Partner' badge and comes before nearer free listings in distance order.
 */
const browser = browserForThisFile();
const shots = ".tmp/screenshots";
let fixtures: Fixtures | undefined;
const { base, mailTo } = mailingSiteForThisFile(async (dataDir) => {
  fixtures = await prepareAccounts(dataDir);
  // The owned listing starts on the free plan, whatever the demo catalogue gave it.
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    await handle.db.update(locations).set({ tier: "Free" }).where(eq(locations.placeId, fixtures.ownedLocationId));
  } finally {
    await handle.close();
  }
});

const signedIn = (email: string, loginPath: string, viewport = { width: 1280, height: 900 }) =>
  signedInPage(browser(), base(), email, { loginPath, viewport });

interface Card {
  href: string;
  tier: string;
  miles: number;
  badge: boolean;
}

/** The result cards of one page, in order. */
async function cards(page: Page): Promise<Card[]> {
  return page.locator("section[aria-label=Results] article").evaluateAll((articles) =>
    articles.map((a) => ({
      href: a.querySelector("h2 a")?.getAttribute("href")?.split("?")[0] ?? "",
      tier: a.getAttribute("data-tier") ?? "",
      miles: Number.parseFloat(/([\d.]+) mi/.exec(a.textContent ?? "")?.[1] ?? "NaN"),
      badge: (a.textContent ?? "").includes("Preferred Partner"),
    })),
  );
}

/** A facility page's coordinates, from its JSON-LD. */
async function coordinatesOf(page: Page, href: string): Promise<{ lat: number; lng: number }> {
  await page.goto(`${base()}${href}`);
  const json = await page.locator('script[type="application/ld+json"]').allTextContents();
  for (const text of json) {
    const data = JSON.parse(text) as { geo?: { latitude: number; longitude: number } };
    if (data.geo) return { lat: data.geo.latitude, lng: data.geo.longitude };
  }
  throw new Error(`No coordinates on ${href}`);
}

// One long journey through two consoles and two mails: 30 s alone, twice that beside the axe scans.
describe("promotion by invoice", { timeout: 150_000 }, () => {
  it("promotes a listing to Preferred, and once the invoice is paid it shows the badge ahead of nearer free listings", async () => {
    if (!fixtures) return;
    const owner = await signedIn(ACCOUNTS.listing_owner.email, "/business/login");
    await owner.goto(`${base()}/owner`);
    const slugLink = owner.locator('a[href^="/location/"]').first();
    const ours = (await slugLink.getAttribute("href"))!;

    // A free listing next to ours; at its position it is nearer than ours (distance 0).
    const here = await coordinatesOf(owner, ours);
    await owner.goto(`${base()}/rv-storage?lat=${here.lat}&lng=${here.lng}`);
    const around = await cards(owner);
    expect(around.find((c) => c.href === ours)?.tier).toBe("Free");
    const neighbour = around.find((c) => c.href !== ours && c.tier === "Free");
    expect(neighbour, "a free listing near the owner's").toBeDefined();
    const there = await coordinatesOf(owner, neighbour!.href);
    const resultsPage = `${base()}/rv-storage?lat=${there.lat}&lng=${there.lng}`;
    await owner.goto(resultsPage);
    const before = await cards(owner);
    const neighbourAt = before.findIndex((c) => c.href === neighbour!.href);
    const oursBefore = before.findIndex((c) => c.href === ours);
    expect(neighbourAt).toBeGreaterThanOrEqual(0);
    // Ours is after the nearer free neighbour (or not even on the first page).
    expect(oursBefore === -1 || oursBefore > neighbourAt).toBe(true);

    // The owner chooses Preferred, monthly.
    await owner.goto(`${base()}/owner/promote?listing=${encodeURIComponent(fixtures.ownedLocationId)}`);
    await owner.getByRole("heading", { name: "Choose a plan" }).waitFor();
    await screenshot(owner, { path: `${shots}/promote.png`, fullPage: true });
    await owner.getByRole("button", { name: "Choose Preferred" }).click();
    await owner.waitForURL(/\/owner\/checkout\?promotion=/);
    await owner.getByText("$49.00 per month", { exact: true }).waitFor();
    await screenshot(owner, { path: `${shots}/checkout.png`, fullPage: true });
    await owner.getByRole("button", { name: "Request invoice" }).click();
    await owner.waitForURL(/\/owner\/checkout\/success\?promotion=/);
    const number = (await owner
      .locator("strong")
      .filter({ hasText: /^RVS-\d{4}-\d{6}$/ })
      .first()
      .textContent())!;
    expect(number).toMatch(/^RVS-/);
    await screenshot(owner, { path: `${shots}/checkout-success.png`, fullPage: true });
    // Reloading the page changes nothing: still one invoice, the same one.
    await owner.reload();
    await owner.getByText(number, { exact: true }).waitFor();

    // The invoice arrives by email; the printable page shows it.
    await expect
      .poll(() => mailTo(ACCOUNTS.listing_owner.email, new RegExp(`Invoice ${number}`))?.mail.text ?? "", {
        timeout: 15_000,
      })
      .toContain("$49.00");
    await owner.getByRole("link", { name: "View and print the invoice" }).click();
    await owner.getByRole("heading", { name: `Invoice ${number}` }).waitFor();
    // A proper invoice: the issuer and how to reach them, the buyer, a tax line, the total due and
    // how to pay with the number as the reference; nothing that only makes sense in an email.
    const invoice = owner.getByRole("article");
    await invoice.getByText("RV Storage Directory", { exact: true }).waitFor();
    const contact = invoice.getByRole("link", { name: /^billing@/ }).first();
    expect(await contact.getAttribute("href")).toMatch(/^mailto:billing@/);
    await invoice.getByText(ACCOUNTS.listing_owner.email).waitFor();
    expect(await invoice.getByRole("rowheader", { name: "Sales tax (not charged)" }).count()).toBe(1);
    expect(await invoice.getByRole("rowheader", { name: "Total due" }).count()).toBe(1);
    await invoice.getByText(`Payment reference: ${number}`).waitFor();
    await invoice.getByRole("button", { name: "Print or save as PDF" }).waitFor();
    expect(await invoice.textContent()).not.toContain("Reply to this email");
    expect(mailTo(ACCOUNTS.listing_owner.email, new RegExp(`Invoice ${number}`))!.mail.text).toContain(
      "Billing contact: billing@",
    );
    await owner.emulateMedia({ media: "print" });
    await screenshot(owner, { path: `${shots}/invoice-print.png`, fullPage: true });
    await owner.emulateMedia({ media: "screen" });
    await screenshot(owner, { path: `${shots}/invoice.png`, fullPage: true });

    // Nothing changes until the payment is recorded.
    await owner.goto(resultsPage);
    expect((await cards(owner)).find((c) => c.href === ours)?.badge ?? false).toBe(false);

    // The admin marks the invoice paid.
    const admin = await signedIn(ACCOUNTS.admin.email, "/login");
    await admin.goto(`${base()}/admin/promotions`);
    await admin.getByRole("link", { name: number }).waitFor();
    await screenshot(admin, { path: `${shots}/admin-promotions.png`, fullPage: true });
    await admin.getByRole("button", { name: `Mark ${number} paid` }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Mark paid" }).click();
    await admin.getByText(`Invoice ${number} is paid`).first().waitFor();

    // The listing now shows the badge and comes before every nearer free listing.
    await owner.goto(resultsPage);
    const after = await cards(owner);
    const oursAfter = after.findIndex((c) => c.href === ours);
    expect(oursAfter).toBeGreaterThanOrEqual(0);
    expect(after[oursAfter]!.tier).toBe("Preferred");
    expect(after[oursAfter]!.badge).toBe(true);
    expect(oursAfter).toBeLessThan(after.findIndex((c) => c.href === neighbour!.href));
    for (const card of after.slice(oursAfter + 1)) expect(["Free", "Basic", "Preferred"]).toContain(card.tier);
    for (const card of after.slice(0, oursAfter)) expect(["Pro", "Preferred"]).toContain(card.tier);
    await screenshot(owner, { path: `${shots}/results-after-promotion.png` });
    await owner.goto(`${base()}${ours}`);
    await owner.getByText("Preferred Partner").first().waitFor();

    // The owner's dashboard shows the plan and the receipt; the receipt email went out.
    await owner.goto(`${base()}/owner`);
    await owner
      .getByText(/^Active until /)
      .first()
      .waitFor();
    await owner.getByRole("link", { name: number }).waitFor();
    await expect
      .poll(() => mailTo(ACCOUNTS.listing_owner.email, /Payment received/)?.mail.subject ?? "", { timeout: 15_000 })
      .toContain("Preferred");

    // Renewal: the owner asks for the next period's invoice; it starts where this period ends.
    await owner.goto(`${base()}/owner/promote?listing=${encodeURIComponent(fixtures.ownedLocationId)}`);
    const activeUntil = (await owner
      .getByText(/Active until /)
      .first()
      .textContent())!;
    const periodEnd = /Active until ([A-Z][a-z]{2} \d{1,2}, \d{4})/.exec(activeUntil)![1]!;
    await owner.getByRole("button", { name: "Renew: send the next invoice" }).click();
    const renewal = owner.getByRole("heading", { name: /^Invoice RVS-\d{4}-\d{6}$/ });
    await renewal.waitFor();
    expect(await renewal.textContent()).not.toContain(number);
    await owner.getByRole("cell", { name: new RegExp(`^${periodEnd} to `) }).waitFor();
    await owner.goto(`${base()}/owner/promote?listing=${encodeURIComponent(fixtures.ownedLocationId)}`);
    expect(await owner.getByRole("button", { name: "Renew: send the next invoice" }).count()).toBe(0);

    // Changing to Pro is scheduled for the next period; the open renewal invoice is voided.
    await owner.getByRole("button", { name: "Switch to Pro" }).click();
    await owner.getByText(`From ${periodEnd} the plan is Pro, monthly`).first().waitFor();
    await owner.getByText(`Scheduled change: Pro, monthly, from ${periodEnd}.`).waitFor();
    await owner.getByRole("button", { name: "Renew: send the next invoice" }).waitFor();

    // On a phone the promote screen stacks its plans.
    const phone = await signedIn(ACCOUNTS.listing_owner.email, "/business/login", { width: 390, height: 844 });
    await phone.goto(`${base()}/owner/promote?listing=${encodeURIComponent(fixtures.ownedLocationId)}`);
    await phone.getByRole("heading", { name: "Change plan" }).waitFor();
    await screenshot(phone, { path: `${shots}/promote-phone.png`, fullPage: true });
  });
});
