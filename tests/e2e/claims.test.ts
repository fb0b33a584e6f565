import path from "node:path";
import { asc } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { exeBytes, PDF_BYTES } from "../../server/claims/test-support";
import { cookieFrom } from "../setup/auth";
import { ACCOUNTS, PASSWORD, prepareAccounts } from "./accounts";
import { browserForThisFile, HUMAN_USER_AGENT, newHumanContext, signInAfterSignUp } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * The claim lifecycle in a real browser against the built site (docs/product.md section 10),
 * with mail delivered over SMTP to a server this file starts: a visitor claims a listing, signs
 * up on the way, an admin approves (or rejects) it, the claimant gets the email and the listing.
 * This file runs its own site, because the shared one sends no mail anywhere a test can read.
 */
const browser = browserForThisFile();
let listings: { placeId: string; slug: string; name: string }[] = [];
const shots = path.resolve(".tmp/screenshots");

const { base, mailTo: mailFor } = mailingSiteForThisFile(async (dataDir) => {
  await prepareAccounts(dataDir);
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    listings = await handle.db
      .select({ placeId: locations.placeId, slug: locations.slug, name: locations.name })
      .from(locations)
      .orderBy(asc(locations.placeId))
      .limit(5)
      .offset(10);
  } finally {
    await handle.close();
  }
});

async function freshPage(options: Parameters<typeof newHumanContext>[1] = {}) {
  const context = await newHumanContext(browser(), options);
  return { context, page: await context.newPage() };
}

async function signInAs(page: Page, email: string) {
  await page.goto(`${base()}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/**
 * From the facility page's Claim This Business through sign-up, signed in on the claim page that
 * waits for a confirmed email; returns the page, the claim's address and the confirmation link.
 */
async function signUpOnTheWayToClaim(
  listing: { slug: string; name: string },
  person: { name: string; email: string },
): Promise<{ context: BrowserContext; page: Page; claimUrl: string; link: string }> {
  const { context, page } = await freshPage();
  await page.goto(`${base()}/location/${listing.slug}`);
  await page.getByRole("link", { name: "Claim This Business" }).click();
  await page.waitForURL(/\/business\/login\?redirectTo=/);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // Sign-up answers "check your email" and signs nobody in; its sign-in link keeps the claim as
  // the destination, and an unconfirmed account may sign in.
  await signInAfterSignUp(page, person.email);
  await page.waitForURL(/\/owner\/claim\/[^/]+$/);
  await page.getByRole("heading", { level: 1, name: `Claim ${listing.name}` }).waitFor();
  const claimUrl = page.url();

  // docs/product.md section 10: a claim needs a confirmed email. Until the link is opened the page
  // says so instead of showing the form, and every owner page carries the banner.
  await page.getByText("Confirm your email address before you claim a listing.").waitFor();
  await page.getByText(`Confirm your email address: we sent a link to ${person.email}`).waitFor();
  expect(await page.getByRole("button", { name: "Send claim" }).count()).toBe(0);
  await expect.poll(() => Boolean(mailFor(person.email, /Confirm your email/)), { timeout: 15_000 }).toBe(true);
  const link = mailFor(person.email, /Confirm your email/)!
    .mail.text!.split("\n")
    .find((line) => line.includes("/verify-email?token="))!
    .trim();
  return { context, page, claimUrl, link };
}

/** From the facility page through sign-up to a filed claim; returns the claimant's context. */
async function claimAsNewVisitor(
  listing: { slug: string; name: string },
  person: { name: string; email: string },
  { withPdf }: { withPdf: boolean },
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page, claimUrl, link } = await signUpOnTheWayToClaim(listing, person);
  // The link carries the destination: it lands on the claim the person started.
  await page.goto(link);
  await page.waitForURL(claimUrl);
  await page.getByText("Thank you: your email address is confirmed.").waitFor();
  await page.getByRole("heading", { level: 1, name: `Claim ${listing.name}` }).waitFor();
  expect(await page.getByText("Send the link again").count()).toBe(0);

  expect(await page.getByLabel("Your name").inputValue()).toBe(person.name);
  await page.getByLabel("Your role at the business").selectOption("Owner");
  await page.getByLabel("Business phone").fill("(512) 555-0142");
  await page.getByLabel("Business email").fill(person.email);
  await page.getByLabel("Message (optional)").fill("I have run this facility since 2019.");
  if (withPdf)
    await page
      .getByLabel(/Evidence/)
      .setInputFiles({ name: "business-licence.pdf", mimeType: "application/pdf", buffer: Buffer.from(PDF_BYTES) });
  await page.getByLabel(/I am authorised to manage/).check();
  await page.getByRole("button", { name: "Send claim" }).click();
  await page.waitForURL(`${base()}/owner/claims`);
  await page.getByRole("status").getByText("Your claim was sent").waitFor();
  await page.getByText("Pending review").first().waitFor();
  return { context, page };
}

async function decideAsAdmin(listingName: string, decision: "Approve" | "Reject", reason: string, shot?: string) {
  const { context, page } = await freshPage();
  await signInAs(page, ACCOUNTS.admin.email);
  await page.goto(`${base()}/admin/claims`);
  await page
    .getByRole("link", { name: new RegExp(listingName) })
    .first()
    .click();
  await page.getByRole("heading", { level: 1, name: `Claim for ${listingName}` }).waitFor();
  if (shot) await screenshot(page, { path: path.join(shots, shot), fullPage: true });
  await page.getByLabel("Reason").fill(reason);
  await page.getByRole("button", { name: new RegExp(`^${decision}`) }).click();
  await page.waitForURL(`${base()}/admin/claims`);
  await page
    .getByRole("status")
    .getByText(decision === "Approve" ? "Claim approved" : "Claim rejected")
    .waitFor();
  await context.close();
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("claiming a listing", () => {
  it("runs the whole lifecycle: claim with a PDF, sign up on the way, approval, email, owner dashboard, badge", async () => {
    const listing = listings[0]!;
    const claimant = { name: "Pat Lakeside", email: "pat.claimant@e2e.test" };
    const { context, page } = await claimAsNewVisitor(listing, claimant, { withPdf: true });
    await page.getByRole("link", { name: "business-licence.pdf" }).waitFor();
    await expect.poll(() => Boolean(mailFor(claimant.email, /We received your claim/)), { timeout: 15_000 }).toBe(true);

    await decideAsAdmin(
      listing.name,
      "Approve",
      "Phone matches and the licence shows the address.",
      "claim-review.png",
    );
    await expect.poll(() => Boolean(mailFor(claimant.email, /was approved/)), { timeout: 15_000 }).toBe(true);
    expect(mailFor(claimant.email, /was approved/)!.mail.text).toContain("/owner");

    await page.goto(`${base()}/owner`);
    await page.getByRole("link", { name: listing.name, exact: true }).waitFor();
    await screenshot(page, { path: path.join(shots, "owner-dashboard.png"), fullPage: true });
    await page.goto(`${base()}/location/${listing.slug}`);
    await page.getByText("Verified owner").waitFor();
    // 'Claim This Business' stays for anyone.
    expect(await page.getByRole("link", { name: "Claim This Business" }).count()).toBe(1);
    await context.close();
  });

  it("keeps the claim as the destination when the confirmation link opens in another browser", async () => {
    const listing = listings[4]!;
    const person = { name: "Kim Elsewhere", email: "kim.elsewhere@e2e.test" };
    const { context, claimUrl, link } = await signUpOnTheWayToClaim(listing, person);
    await context.close();
    // Another browser (the phone's mail app, say): confirmed, then asked to sign in, then the claim.
    const other = await freshPage();
    await other.page.goto(link);
    await other.page.waitForURL((url) => url.pathname === "/login" && url.searchParams.has("redirectTo"));
    await other.page.getByText("Thank you: your email address is confirmed.").waitFor();
    await other.page.getByLabel("Email").fill(person.email);
    await other.page.getByLabel("Password").fill(PASSWORD);
    await other.page.getByRole("button", { name: "Sign in" }).click();
    await other.page.waitForURL(claimUrl);
    await other.page.getByRole("heading", { level: 1, name: `Claim ${listing.name}` }).waitFor();
    await other.page.getByRole("button", { name: "Send claim" }).waitFor();
    await other.context.close();
  });

  it("tells a rejected claimant why, by email and under My claims", async () => {
    const listing = listings[1]!;
    const claimant = { name: "Sam Rejected", email: "sam.rejected@e2e.test" };
    const { context, page } = await claimAsNewVisitor(listing, claimant, { withPdf: false });
    await decideAsAdmin(listing.name, "Reject", "No proof that you run this facility.");
    await expect.poll(() => Boolean(mailFor(claimant.email, /was not approved/)), { timeout: 15_000 }).toBe(true);
    expect(mailFor(claimant.email, /was not approved/)!.mail.text).toContain(
      "Reason: No proof that you run this facility.",
    );
    await page.goto(`${base()}/owner/claims`);
    await page.getByText("Rejected", { exact: true }).waitFor();
    await page.getByText("No proof that you run this facility.").waitFor();
    await context.close();
  });

  it("answers bad claims with a clear message and keeps the answers", async () => {
    const login = await fetch(`${base()}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base(), "content-type": "application/x-www-form-urlencoded", "user-agent": HUMAN_USER_AGENT },
      body: new URLSearchParams({ email: ACCOUNTS.user.email, password: PASSWORD }),
    });
    const cookie = cookieFrom(login.headers);
    const post = (
      locationId: string,
      fields: Record<string, string>,
      files: { name: string; bytes: Uint8Array }[] = [],
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      for (const f of files)
        form.append("evidence", new File([Buffer.from(f.bytes)], f.name, { type: "application/pdf" }));
      return fetch(`${base()}/owner/claim/${locationId}`, {
        method: "POST",
        headers: { origin: base(), cookie, "user-agent": HUMAN_USER_AGENT },
        body: form,
      });
    };
    const fields = {
      claimantName: "Una User",
      claimantRole: "Manager",
      businessPhone: "512-555-0100",
      businessEmail: "una@example.com",
      message: "",
      consent: "on",
    };
    const listing = listings[2]!;

    const exe = await post(listing.placeId, fields, [{ name: "proof.pdf", bytes: exeBytes() }]);
    expect(exe.status).toBe(400);
    const exeHtml = await exe.text();
    expect(exeHtml).toContain("is a Windows program, not a PDF, JPEG or PNG file.");
    expect(exeHtml).toContain('value="Una User"');

    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set(PDF_BYTES);
    const oversized = await post(listing.placeId, fields, [{ name: "scan.pdf", bytes: big }]);
    expect(oversized.status).toBe(400);
    expect(await oversized.text()).toContain("each file may be at most 10 MB");

    const { consent: _consent, ...withoutConsent } = fields;
    const noConsent = await post(listing.placeId, withoutConsent);
    expect(noConsent.status).toBe(400);
    expect(await noConsent.text()).toContain("Confirm that you are authorised to manage this business.");

    const unknown = await post("no_such_listing_id", fields);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("This listing does not exist or was removed.");

    const first = await post(listing.placeId, fields, [{ name: "licence.pdf", bytes: PDF_BYTES }]);
    expect(first.status).toBe(200); // the redirect to My claims, followed
    expect(new URL(first.url).pathname).toBe("/owner/claims");
    const second = await post(listing.placeId, fields);
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("You already have a pending claim for");
  });

  it("lays the claim form out for a phone", async () => {
    const { context, page } = await freshPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await signInAs(page, ACCOUNTS.business_owner.email);
    await page.goto(`${base()}/owner/claim?q=${encodeURIComponent(listings[3]!.name.split(" ")[0]!)}`);
    await screenshot(page, { path: path.join(shots, "claim-finder-phone.png"), fullPage: true });
    await page.goto(`${base()}/owner/claim/${listings[3]!.placeId}`);
    await page.getByRole("button", { name: "Send claim" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, { path: path.join(shots, "claim-form-phone.png"), fullPage: true });
    await context.close();
  });
});
