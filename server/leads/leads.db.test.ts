/**
 * Leads against the database (docs/product.md section 14): a question stored with its two emails
 * in one go (the owner's with reply-to set to the visitor, the visitor's receipt with a withdraw
 * link), never twice for the same request, routed to the admins when nobody owns the listing;
 * replies through the outbox; other owners see nothing; withdrawal and retention delete the contact.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { LEAD_RETENTION_DAYS } from "../../domain/leads";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, leadMessages, leads } from "../db/schema";
import {
  formStamp,
  leadsOf,
  leadsPerDay,
  linkCount,
  purgeLeadContacts,
  replyToLead,
  setLeadStatus,
  stampAgeSeconds,
  submitLead,
  unownedLeadCount,
  unownedLeads,
  withdrawLead,
  type LeadInput,
  type LeadViewer,
} from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
let owned: string;
let unowned: string;
let owner: LeadViewer;
let stranger: LeadViewer;
const input = (over: Partial<LeadInput> = {}): LeadInput => ({
  rvType: "class_a",
  rvLengthFeet: 40,
  cover: "covered",
  moveIn: "2026-12-01",
  name: "Robin Camper",
  email: "robin@example.com",
  phone: "+15125550100",
  message: "Do you have a covered 40 ft space from December?",
  ...over,
});
const mail = async (kind: string) => db().select().from(emailOutbox).where(eq(emailOutbox.kind, kind));

beforeAll(async () => {
  handle = await createTestDatabase();
  owned = (await insertListing(db(), { name: "Owned RV Storage" })).placeId;
  unowned = (await insertListing(db(), { name: "Unclaimed RV Storage", phoneNumber: "(512) 555-0199" })).placeId;
  const person = await insertPerson(db(), { role: "business_owner", email: "owner@example.com", name: "Olive" });
  await grantListing(db(), person.userId, owned);
  owner = { userId: person.userId, email: person.email, name: "Olive", isAdmin: false };
  const other = await insertPerson(db(), { role: "business_owner", email: "other@example.com" });
  stranger = { userId: other.userId, email: other.email, name: "Other", isAdmin: false };
});
afterAll(async () => {
  await handle?.close();
});

describe(`leads (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  let leadId: string;
  let token: string;

  it("stores a question with the owner's email (reply-to the visitor) and the visitor's receipt, once", async () => {
    const lead = await submitLead(db(), { locationId: owned, input: input(), visitorUserId: null });
    leadId = lead.id;
    expect(lead).toMatchObject({ routedTo: "owner", duplicate: false });
    const [toOwner] = await mail("lead.new");
    expect(toOwner).toMatchObject({ toAddress: "owner@example.com", replyTo: "robin@example.com" });
    expect(toOwner!.textBody).toContain("Class A motorhome, 40 ft");
    const [receipt] = await mail("lead.receipt");
    expect(receipt!.toAddress).toBe("robin@example.com");
    expect(receipt!.textBody).toContain("Owned RV Storage");
    token = /withdraw\?token=([A-Za-z0-9_-]+)/.exec(receipt!.textBody)![1]!;
    // The same request again (a double click, a reload): answered as sent, nothing new.
    const again = await submitLead(db(), { locationId: owned, input: input(), visitorUserId: null });
    expect(again).toMatchObject({ id: leadId, duplicate: true });
    expect(await mail("lead.new")).toHaveLength(1);
    expect(await mail("lead.receipt")).toHaveLength(1);
  });

  it("sends a lead to an unclaimed listing to the admins' queue and tells the visitor its phone", async () => {
    const lead = await submitLead(db(), {
      locationId: unowned,
      input: input({ email: "sam@example.com" }),
      visitorUserId: null,
    });
    expect(lead).toMatchObject({ routedTo: "admins", listingPhone: "(512) 555-0199" });
    expect((await unownedLeads(db(), { page: 1, pageSize: 50 })).map((r) => r.id)).toEqual([lead.id]);
    expect(await unownedLeadCount(db())).toBe(1);
    const admin: LeadViewer = { userId: owner.userId, email: "boss@example.com", name: "Boss", isAdmin: true };
    await setLeadStatus(db(), { viewer: admin, leadId: lead.id, status: "handled" });
    expect(await unownedLeadCount(db())).toBe(0);
  });

  it("sends the owner's reply through the outbox and keeps it; another owner sees nothing", async () => {
    await expect(replyToLead(db(), { viewer: stranger, leadId, body: "Hi" })).rejects.toMatchObject({ status: 404 });
    await expect(setLeadStatus(db(), { viewer: stranger, leadId, status: "won" })).rejects.toMatchObject({
      status: 404,
    });
    expect(
      (await leadsOf(db(), { recipientUserId: stranger.userId }, { status: "all", page: 1, pageSize: 20 })).total,
    ).toBe(0);
    await replyToLead(db(), { viewer: owner, leadId, body: "Yes: space C12 is free from December 1." });
    const [reply] = await mail("lead.reply");
    expect(reply).toMatchObject({ toAddress: "robin@example.com", replyTo: "owner@example.com" });
    expect(reply!.textBody).toContain("space C12");
    const { rows } = await leadsOf(db(), { recipientUserId: owner.userId }, { status: "all", page: 1, pageSize: 20 });
    expect(rows[0]).toMatchObject({ id: leadId, status: "replied" });
    expect(rows[0]!.replies.map((r) => r.body)).toEqual(["Yes: space C12 is free from December 1."]);
    await expect(replyToLead(db(), { viewer: owner, leadId, body: "   " })).rejects.toMatchObject({ status: 400 });
    expect(await db().select().from(leadMessages)).toHaveLength(1);
  });

  it("counts leads per day for the analytics", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await leadsPerDay(db(), [owned], today, today)).get(today)).toBe(1);
    expect((await leadsPerDay(db(), [owned], "2020-01-01", "2020-01-02")).size).toBe(0);
  });

  it("withdraws from the receipt's link, deleting the contact details, and refuses a made-up token", async () => {
    expect(await withdrawLead(db(), "x".repeat(32))).toBe(false);
    expect(await withdrawLead(db(), token)).toBe(true);
    const [row] = await db().select().from(leads).where(eq(leads.id, leadId));
    expect(row).toMatchObject({ status: "withdrawn", name: null, email: null, phone: null });
    await expect(replyToLead(db(), { viewer: owner, leadId, body: "Still there?" })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("deletes contact details after the retention period and keeps the lead for counts", async () => {
    const later = new Date(Date.now() + (LEAD_RETENTION_DAYS + 1) * 86_400_000);
    expect(await purgeLeadContacts(db(), later)).toBe(1);
    const rows = await db().select().from(leads);
    expect(rows.every((r) => r.email === null && r.name === null)).toBe(true);
    expect(rows).toHaveLength(2);
  });

  it("signs the form's time and counts links", () => {
    const now = Date.now();
    const stamp = formStamp("secret", now - 10_000);
    expect(stampAgeSeconds("secret", stamp, now)).toBeCloseTo(10, 0);
    expect(stampAgeSeconds("other", stamp, now)).toBeNull();
    expect(stampAgeSeconds("secret", "garbage", now)).toBeNull();
    expect(linkCount("see https://a.example and www.b.example and http://c.example")).toBe(3);
    expect(linkCount("no links here")).toBe(0);
  });
});
