/**
 * A lead belongs to the owner it was sent to (docs/product.md section 14, docs/operations.md
 * "Leads"): after an admin moves a listing to another owner, the new owner sees none of the
 * visitors' names, emails and phones sent to the old one (list, CSV, reply, status), the old
 * owner keeps them, admins see all, and a deleted recipient's leads are the admins' alone.
 */
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { SYSTEM_ACTOR } from "../audit/record";
import { grantListing } from "../auth/ownership";
import type { SignedInViewer } from "../auth/viewer";
import { changeListingOwner } from "../catalogue/service";
import { insertListing, insertPerson } from "../claims/test-support";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, leads, users } from "../db/schema";
import { removeAccountInTransaction } from "../users/remove";
import { ownerLeadsCsv, ownerLeadsPage } from "./pages";
import {
  leadsOf,
  replyToLead,
  setLeadStatus,
  submitLead,
  unownedLeads,
  type LeadInput,
  type LeadViewer,
} from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
let listing: string;
let before: SignedInViewer;
let after: SignedInViewer;
let admin: LeadViewer;
const asLeadViewer = (v: SignedInViewer): LeadViewer => ({
  userId: v.userId,
  email: v.email,
  name: v.name ?? v.email,
  isAdmin: false,
});
const input = (over: Partial<LeadInput> = {}): LeadInput => ({
  rvType: "fifth_wheel",
  rvLengthFeet: 35,
  cover: "enclosed",
  moveIn: null,
  name: "Vera Visitor",
  email: "vera@example.com",
  phone: "+15125550123",
  message: "Is an enclosed space free in spring?",
  ...over,
});
const ownerViewer = async (email: string): Promise<SignedInViewer> => {
  const person = await insertPerson(db(), { role: "business_owner", email, name: email.split("@")[0] });
  return {
    sessionId: "s",
    userId: person.userId,
    role: "business_owner",
    email,
    name: person.name ?? null,
    isAnonymous: false,
    isAdmin: false,
    isOwner: true,
  };
};
const page = async (viewer: SignedInViewer, query = "") =>
  ownerLeadsPage(viewer, new Request(`http://localhost/owner/leads${query}`));
const csvOf = async (viewer: SignedInViewer) =>
  (await ownerLeadsCsv(viewer, new Request("http://localhost/owner/leads.csv"))).text();

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  listing = (await insertListing(db(), { name: "Changing Hands RV Storage" })).placeId;
  before = await ownerViewer("old-owner@example.com");
  after = await ownerViewer("new-owner@example.com");
  await grantListing(db(), before.userId, listing);
  const boss = await insertPerson(db(), { role: "admin", email: "admin@example.com", name: "Admin" });
  admin = { userId: boss.userId, email: boss.email, name: "Admin", isAdmin: true };
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

describe(`leads across a listing transfer (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  let first: string;
  let untouched: string;
  let second: string;

  it("leaves the old owner's leads with the old owner when an admin moves the listing", async () => {
    first = (await submitLead(db(), { locationId: listing, input: input(), visitorUserId: null })).id;
    untouched = (
      await submitLead(db(), {
        locationId: listing,
        input: input({ email: "quiet@example.com", name: "Quinn Quiet" }),
        visitorUserId: null,
      })
    ).id;
    const [row] = await db().select().from(leads).where(eq(leads.id, first));
    expect(row).toMatchObject({ routedTo: "owner", recipientUserId: before.userId });

    expect(
      await changeListingOwner(db(), { actor: SYSTEM_ACTOR, locationId: listing, email: after.email }),
    ).toMatchObject({ kind: "transferred" });

    // The new owner: nothing on the screen, in the CSV, or by id.
    const theirs = await page(after);
    expect(theirs.total).toBe(0);
    expect(theirs.leads).toEqual([]);
    expect(theirs.listings.map((l) => l.id)).toEqual([listing]);
    expect((await page(after, `?listing=${listing}`)).total).toBe(0);
    const csv = await csvOf(after);
    expect(csv).not.toContain("vera@example.com");
    expect(csv).not.toContain("Vera Visitor");
    expect(csv.trim().split("\n")).toHaveLength(1);
    await expect(replyToLead(db(), { viewer: asLeadViewer(after), leadId: first, body: "Hi" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      setLeadStatus(db(), { viewer: asLeadViewer(after), leadId: first, status: "lost" }),
    ).rejects.toMatchObject({ status: 404 });

    // The old owner keeps the conversation, and the listing in the filter, though it is no longer theirs.
    const mine = await page(before, `?listing=${listing}`);
    expect(mine.listing).toBe(listing);
    expect(mine.leads.map((l) => l.id).sort()).toEqual([first, untouched].sort());
    expect(await csvOf(before)).toContain("vera@example.com");
    await replyToLead(db(), { viewer: asLeadViewer(before), leadId: first, body: "Yes, from March." });
    const replies = await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "lead.reply"));
    expect(replies).toMatchObject([{ toAddress: "vera@example.com", replyTo: before.email }]);
  });

  it("sends a question asked after the transfer to the new owner only", async () => {
    second = (
      await submitLead(db(), {
        locationId: listing,
        input: input({ email: "later@example.com", name: "Lee Later" }),
        visitorUserId: null,
      })
    ).id;
    const notices = await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "lead.new"));
    expect(notices.map((m) => m.toAddress)).toEqual([before.email, before.email, after.email]);
    expect((await page(after)).leads.map((l) => l.id)).toEqual([second]);
    expect((await page(before)).leads.map((l) => l.id)).not.toContain(second);
    await setLeadStatus(db(), { viewer: asLeadViewer(after), leadId: second, status: "won" });
  });

  it("lets admins read and set any lead, and gives them the leads of a deleted recipient", async () => {
    await setLeadStatus(db(), { viewer: admin, leadId: first, status: "handled" });
    expect(await unownedLeads(db(), { page: 1, pageSize: 50 })).toEqual([]);

    const [account] = await db().select().from(users).where(eq(users.id, before.userId));
    await db().transaction(async (t) =>
      removeAccountInTransaction(t as unknown as typeof handle.db, {
        actor: SYSTEM_ACTOR,
        account: account!,
        action: "user.delete",
        reason: "test",
      }),
    );
    const [orphan] = await db().select().from(leads).where(eq(leads.id, untouched));
    expect(orphan).toMatchObject({ routedTo: "owner", recipientUserId: null, email: "quiet@example.com" });
    // Nobody but the admins can answer it now: it waits in their queue, and the new owner still sees nothing.
    expect((await unownedLeads(db(), { page: 1, pageSize: 50 })).map((l) => l.id)).toEqual([untouched]);
    expect((await page(after)).leads.map((l) => l.id)).toEqual([second]);
    expect(
      (await leadsOf(db(), { recipientUserId: after.userId }, { status: "all", page: 1, pageSize: 50 })).total,
    ).toBe(1);
    await replyToLead(db(), { viewer: admin, leadId: untouched, body: "Our team passes this on." });
  });

  it("gives leads stored before the recipient was recorded to the listing's owner at migration time", async () => {
    // Migration 0023's backfill, run again on rows as they were before it.
    const migration = fs.readFileSync(path.resolve("server/db/migrations/0023_lead-recipient.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((s) => s.includes('UPDATE "leads"'))!;
    const unowned = (await insertListing(db(), { name: "Nobody's RV Storage" })).placeId;
    const old = (
      await submitLead(db(), { locationId: listing, input: input({ email: "o@example.com" }), visitorUserId: null })
    ).id;
    const toAdmins = (
      await submitLead(db(), { locationId: unowned, input: input({ email: "a@example.com" }), visitorUserId: null })
    ).id;
    await db().update(leads).set({ recipientUserId: null }).where(eq(leads.id, old));
    await db().execute(sql.raw(backfill));
    const rows = await db().select().from(leads);
    expect(rows.find((r) => r.id === old)!.recipientUserId).toBe(after.userId);
    expect(rows.find((r) => r.id === toAdmins)).toMatchObject({ routedTo: "admins", recipientUserId: null });
  });
});
