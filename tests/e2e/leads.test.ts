import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull, notInArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { listingOwners, locations } from "../../server/db/schema";
import { ACCOUNTS, prepareAccounts } from "./accounts";
import { announce } from "./announce";
import { browserForThisFile, HUMAN_USER_AGENT, newHumanContext, signedInPage } from "./browser";
import { mailingSiteForThisFile } from "./mail-site";
import { screenshot } from "./screenshot";

/**
 * Leads end to end (docs/product.md section 14): a visitor asks about a 40 ft covered space at an
 * owned listing; the owner gets the email over SMTP (reply-to the visitor), finds the lead under
 * /owner/leads and replies; the visitor receives the reply; the listing's analytics count one lead
 * today. A lead to an unclaimed listing lands in the admins' work queue. Bad input and abuse are
 * refused (or silently dropped for bots) and nothing is sent twice. Its own site: it reads mail,
 * and it moves that site's clock (TEST_CLOCK_FILE) past the form's 3-second minimum instead of
 * waiting.
 */
const browser = browserForThisFile();
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rv-clock-")), "offset");
fs.writeFileSync(clockFile, "0");
let offset = 0;

/** Moves the site's clock 5 seconds on: a form served before now was open longer than a person needs. */
function fiveSecondsLater(): void {
  offset += 5_000;
  fs.writeFileSync(clockFile, String(offset));
}
const shots = path.resolve(".tmp/screenshots");
let owned: { placeId: string; slug: string; name: string };
let unclaimed: { placeId: string; slug: string; name: string };

const { base, mailTo, mailsTo } = mailingSiteForThisFile(
  async (dataDir) => {
    const fixtures = await prepareAccounts(dataDir);
    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      const columns = { placeId: locations.placeId, slug: locations.slug, name: locations.name };
      owned = (
        await handle.db.select(columns).from(locations).where(eq(locations.placeId, fixtures.ownedLocationId))
      )[0]!;
      const ownedIds = (await handle.db.select({ id: listingOwners.locationId }).from(listingOwners)).map((r) => r.id);
      unclaimed = (
        await handle.db
          .select(columns)
          .from(locations)
          .where(and(notInArray(locations.placeId, ownedIds), isNotNull(locations.phoneNumber)))
          .limit(1)
      )[0]!;
    } finally {
      await handle.close();
    }
  },
  { TEST_CLOCK_FILE: clockFile },
);

/** The form's signed time from a page served now. */
async function stampOf(slug: string): Promise<string> {
  const html = await (
    await fetch(`${base()}/location/${slug}`, { headers: { "user-agent": HUMAN_USER_AGENT } })
  ).text();
  return /name="stamp" value="([^"]+)"/.exec(html)![1]!;
}

function post(slug: string, fields: Record<string, string>) {
  return fetch(`${base()}/location/${slug}`, {
    method: "POST",
    headers: { origin: base(), "content-type": "application/x-www-form-urlencoded", "user-agent": HUMAN_USER_AGENT },
    body: new URLSearchParams({ intent: "lead", ...fields }).toString(),
    redirect: "manual",
  });
}

const VALID = {
  rvType: "fifth_wheel",
  rvLengthFeet: "32",
  cover: "any",
  name: "Bot Tester",
  email: "tester@example.com",
  message: "Is there room?",
};

describe.skipIf(Boolean(process.env.E2E_BASE_URL))("leads", () => {
  it("carries a visitor's question to the owner and the owner's reply back, counted in the analytics", async () => {
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${owned.slug}`);
    await visitor.waitForLoadState("load");
    await visitor.getByRole("link", { name: "Ask about a space", exact: true }).click();
    const form = visitor.locator("#ask");
    await form.getByLabel("RV type").selectOption("class_a");
    await form.getByLabel("Length (feet)").fill("40");
    await form.getByLabel("Covered", { exact: true }).check();
    await form.getByLabel("Your name").fill("Robin Camper");
    await form.getByLabel("Email").fill("robin@example.com");
    await form.getByLabel("Message").fill("Do you have a covered 40 ft space from December?");
    await screenshot(visitor, { path: path.join(shots, "lead-form-1280.png"), fullPage: false });
    // A person takes more than 3 seconds; a bot that does not is ignored.
    fiveSecondsLater();
    await form.getByRole("button", { name: "Send my question" }).click();
    await visitor.getByText("Your question is on its way.").waitFor();

    await expect
      .poll(() => Boolean(mailTo(ACCOUNTS.listing_owner.email, /Robin Camper asks about a space/)), { timeout: 15_000 })
      .toBe(true);
    const toOwner = mailTo(ACCOUNTS.listing_owner.email, /Robin Camper asks about a space/)!;
    expect(toOwner.mail.replyTo?.text).toBe("robin@example.com");
    expect(toOwner.mail.text).toContain("Class A motorhome, 40 ft");
    expect(toOwner.mail.text).toContain("Space: Covered");
    await expect.poll(() => Boolean(mailTo("robin@example.com", /Your question to/)), { timeout: 15_000 }).toBe(true);
    expect(mailTo("robin@example.com", /Your question to/)!.mail.text).toContain("/leads/withdraw?token=");

    const owner = await signedInPage(browser(), base(), ACCOUNTS.listing_owner.email, { loginPath: "/business/login" });
    await owner.goto(`${base()}/owner/leads`);
    const lead = owner.getByRole("article").filter({ hasText: "Robin Camper" });
    expect(await lead.textContent()).toContain("Do you have a covered 40 ft space from December?");
    await screenshot(owner, { path: path.join(shots, "owner-leads-1280.png"), fullPage: true });
    await lead.getByLabel(/Reply to Robin Camper/).fill("Yes: space C12 is free from December 1.");
    await lead.getByRole("button", { name: "Send reply" }).click();
    await owner.getByText("Reply sent by email").first().waitFor();
    expect(await owner.getByRole("article").filter({ hasText: "Robin Camper" }).textContent()).toContain("Replied");
    await expect
      .poll(() => Boolean(mailTo("robin@example.com", /Re: your question to/)), { timeout: 15_000 })
      .toBe(true);
    expect(mailTo("robin@example.com", /Re: your question to/)!.mail.text).toContain("space C12");
    await owner.setViewportSize({ width: 390, height: 844 });
    await screenshot(owner, { path: path.join(shots, "owner-leads-390.png"), fullPage: true });
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await owner.setViewportSize({ width: 1280, height: 900 });

    // The CSV has the lead; the analytics count it today.
    const cookie = (await owner.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const csv = await (await fetch(`${base()}/owner/leads.csv`, { headers: { cookie } })).text();
    expect(csv.split("\r\n")[0]).toContain("rv_length_feet");
    expect(csv).toContain("robin@example.com");
    await owner.goto(`${base()}/owner/locations/analytics?listing=${encodeURIComponent(owned.placeId)}&days=7`);
    const stat = owner.locator("dl div").filter({ has: owner.getByText("Leads", { exact: true }) });
    // Robin's lead, and the one the fixtures filed on this listing today (tests/e2e/accounts.ts).
    expect(await stat.textContent()).toMatch(/^Leads\s*2was 0$/);
  });

  it("sends a question to an unclaimed listing to the admins' work queue", async () => {
    const visitor = await (await newHumanContext(browser())).newPage();
    await visitor.goto(`${base()}/location/${unclaimed.slug}`);
    await visitor.waitForLoadState("load");
    const form = visitor.locator("#ask");
    await form.getByLabel("RV type").selectOption("travel_trailer");
    await form.getByLabel("Length (feet)").fill("28");
    await form.getByLabel("Your name").fill("Sam Roads");
    await form.getByLabel("Email").fill("sam@example.com");
    await form.getByLabel("Message").fill("Any open spaces this winter?");
    fiveSecondsLater();
    await form.getByRole("button", { name: "Send my question" }).click();
    await visitor.getByText(/has not claimed its listing yet/).waitFor();

    const admin = await signedInPage(browser(), base(), ACCOUNTS.admin.email);
    await admin.goto(`${base()}/admin/manage?section=leads`);
    const item = admin.getByRole("listitem").filter({ hasText: "Sam Roads" });
    expect(await item.textContent()).toContain(unclaimed.name);
    await item.getByRole("button", { name: "Mark handled" }).click();
    await admin.getByText("Lead marked handled.").first().waitFor();
    expect(await admin.getByRole("listitem").filter({ hasText: "Sam Roads" }).count()).toBe(0);
  });

  it("refuses bad input clearly, drops bots silently, limits one address and sends nothing twice", async () => {
    const stamp = await stampOf(owned.slug);
    fiveSecondsLater();
    const before = () => mailTo("tester@example.com", /Your question to/);
    const answer = async (fields: Record<string, string>) => {
      const response = await post(owned.slug, { stamp, ...VALID, ...fields });
      return { status: response.status, text: await response.text() };
    };
    // An empty message, a bad email, a length out of range: 400 naming the field.
    expect(await answer({ message: "" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("Write a short message"),
    });
    expect(await answer({ email: "not-an-email" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("valid email address"),
    });
    expect(await answer({ rvLengthFeet: "400" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("from 10 to 65 feet"),
    });
    // A 100 kB message is refused before it is read.
    const form = { contentType: "application/x-www-form-urlencoded", start: "intent=lead&message=" };
    expect(await announce(base(), `/location/${owned.slug}`, 100_000, form)).toBe(413);
    // Too many links reads as spam.
    expect(await answer({ message: "http://a.example http://b.example http://c.example" })).toMatchObject({
      status: 400,
    });
    // A filled honeypot, or a form sent at once: answered as sent, nothing stored or mailed.
    const fresh = await stampOf(owned.slug);
    expect((await answer({ company_website: "http://spam.example", email: "bot1@example.com" })).status).toBe(200);
    expect((await post(owned.slug, { ...VALID, stamp: fresh, email: "bot2@example.com" })).status).toBe(200);
    // A forged stamp is stale.
    expect(await answer({ stamp: "abc.def" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("open for a long time"),
    });
    // The same request twice: one lead, one receipt.
    expect((await answer({})).status).toBe(200);
    expect((await answer({})).status).toBe(200);
    // 20 requests a minute from one address: the limit answers 429 with Retry-After.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await answer({ email: `burst${i}@example.com`, message: `Question ${i}` })).status);
    expect(statuses).toContain(429);
    // The outbox sends in the order mail was queued (server/email/worker.ts): once the receipt of
    // the last lead accepted has arrived, a receipt the bots or the repeat had queued would have too.
    const lastAccepted = statuses.lastIndexOf(200);
    expect(lastAccepted).toBeGreaterThanOrEqual(0);
    await expect
      .poll(() => Boolean(mailTo(`burst${lastAccepted}@example.com`, /Your question to/)), { timeout: 15_000 })
      .toBe(true);
    expect(mailTo("bot1@example.com", /./)).toBeUndefined();
    expect(mailTo("bot2@example.com", /./)).toBeUndefined();
    expect(before()).toBeDefined();
    // Only one receipt for the repeated request.
    expect(mailsTo("tester@example.com", /Your question to/)).toHaveLength(1);
  });
});
