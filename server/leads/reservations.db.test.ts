/**
 * Reservation requests against the database (docs/product.md section 17, "Reservation requests"):
 * the facility page's form (only a listing with an owner takes one; a move-in date within a year),
 * the owner's accept and decline (both sides emailed, audited, refused with 409 when not pending
 * or out of time, a 404 for another owner), the daily expiry (once, on several runs, both sides
 * emailed), the "Stored here" mark of an accepted request, and the analytics' counts.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { RESERVATION_MESSAGES } from "../../domain/reservations";
import { buildOwnerReport } from "../analytics/owner-report";
import { conversionTotals } from "../analytics/admin-report";
import { grantListing } from "../auth/ownership";
import { resolveAuthSecret } from "../auth/secret";
import type { SignedInViewer } from "../auth/viewer";
import { insertListing, insertPerson } from "../claims/test-support";
import { getConfig } from "../config";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, leadMessages, leads, rateLimits } from "../db/schema";
import { createFlash, replaceFlash } from "../http/flash";
import { publishedReviews } from "../reviews/queries";
import { writeReview } from "../reviews/service";
import { leadAction, type LeadActionResult } from "./action";
import { ownerLeadsAction, ownerLeadsPage } from "./pages";
import { answerReservation, expireReservationRequests, reservationsPerDay } from "./reservations";
import { formStamp, submitLead, type LeadInput, type LeadViewer } from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
let owned: string;
let unowned: string;
let owner: LeadViewer;
let ownerViewer: SignedInViewer;
let stranger: LeadViewer;
let admin: LeadViewer;

const HOUR = 3_600_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const FORM = {
  kind: "reservation",
  rvType: "fifth_wheel",
  rvLengthFeet: "36",
  cover: "covered",
  moveIn: day(20),
  name: "Rae Reserver",
  email: "rae@example.com",
  phone: "",
  message: "I would like a covered space from next month.",
};

const input = (over: Partial<LeadInput> = {}): LeadInput => ({
  kind: "reservation",
  rvType: "fifth_wheel",
  rvLengthFeet: 36,
  cover: "covered",
  moveIn: day(20),
  name: "Rae Reserver",
  email: "rae@example.com",
  phone: "+15125550100",
  message: "I would like a covered space from next month.",
  ...over,
});

/** What leadAction answered: its data and status. */
async function sendForm(fields: Record<string, string>, locationId = owned) {
  const form = new FormData();
  form.set("intent", "lead");
  form.set("stamp", formStamp(resolveAuthSecret(getConfig()), Date.now() - 60_000));
  for (const [name, value] of Object.entries({ ...FORM, ...fields })) form.set(name, value);
  const request = new Request("http://localhost/location/x", {
    method: "POST",
    headers: { "x-client-ip": "203.0.113.9" },
  });
  const answer = (await leadAction(request, form, locationId)) as unknown as {
    data: LeadActionResult;
    init: ResponseInit | null;
  };
  return { status: answer.init?.status ?? 200, result: answer.data };
}

const mailTo = (to: string, kind?: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(kind ? and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, kind)) : eq(emailOutbox.toAddress, to));
const leadRow = async (id: string) => (await db().select().from(leads).where(eq(leads.id, id)))[0]!;
const auditOf = (id: string) => db().select().from(auditLog).where(eq(auditLog.subjectId, id));

/** A pending request by a fresh email, sent at `at` (now by default). */
async function request(over: Partial<LeadInput> = {}, at = new Date(), visitorUserId: string | null = null) {
  const email = over.email ?? `r-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const lead = await submitLead(db(), { locationId: owned, input: input({ ...over, email }), visitorUserId, now: at });
  return { id: lead.id, email };
}

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  replaceFlash(createFlash({ secret: "a-test-flash-secret-of-32-characters!", secure: false }));
  owned = (await insertListing(db(), { name: "Reserve RV Storage" })).placeId;
  unowned = (await insertListing(db(), { name: "Unclaimed Reserve Storage" })).placeId;
  const person = await insertPerson(db(), { role: "business_owner", email: "res-owner@example.com", name: "Olive" });
  await grantListing(db(), person.userId, owned);
  owner = { userId: person.userId, email: person.email, name: "Olive", isAdmin: false };
  ownerViewer = {
    sessionId: "s",
    userId: person.userId,
    role: "business_owner",
    email: person.email,
    name: "Olive",
    isAnonymous: false,
    isAdmin: false,
    isOwner: true,
  };
  const other = await insertPerson(db(), { role: "business_owner", email: "res-other@example.com" });
  stranger = { userId: other.userId, email: other.email, name: "Other", isAdmin: false };
  const boss = await insertPerson(db(), { role: "admin", email: "res-admin@example.com" });
  admin = { userId: boss.userId, email: boss.email, name: "Admin", isAdmin: true };
});
beforeEach(async () => {
  await db().delete(rateLimits);
});
afterAll(async () => {
  replaceFlash(undefined);
  await disconnectDatabase().catch(() => {});
});

describe(`reservation requests (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  describe("the facility page's form", () => {
    it("stores a pending request expiring in 72 hours, mails the owner (reply-to the visitor) and a receipt without the visitor's words", async () => {
      const before = Date.now();
      const answer = await sendForm({ email: "rae-form@example.com" });
      expect(answer).toMatchObject({ status: 200, result: { lead: "sent", text: RESERVATION_MESSAGES.sent } });
      const [row] = await db().select().from(leads).where(eq(leads.email, "rae-form@example.com"));
      expect(row).toMatchObject({
        kind: "reservation",
        reservationStatus: "pending",
        routedTo: "owner",
        answeredAt: null,
      });
      const hours = (row!.expiresAt!.getTime() - row!.createdAt.getTime()) / HOUR;
      expect(hours).toBe(72);
      expect(row!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      const [toOwner] = await mailTo("res-owner@example.com", "reservation.new");
      expect(toOwner).toMatchObject({ replyTo: "rae-form@example.com" });
      expect(toOwner!.subject).toBe("Rae Reserver asks to reserve a space at Reserve RV Storage");
      expect(toOwner!.textBody).toContain("within 72 hours");
      expect(toOwner!.textBody).toContain("/owner/leads?kind=reservation");
      const [receipt] = await mailTo("rae-form@example.com", "reservation.receipt");
      expect(receipt!.subject).toBe("Your reservation request to Reserve RV Storage");
      expect(receipt!.textBody).toContain("72 hours");
      expect(receipt!.textBody).toContain("/leads/withdraw?token=");
      expect(receipt!.textBody).not.toContain("Rae");
      expect(receipt!.textBody).not.toContain("next month");
      expect(await mailTo("rae-form@example.com", "lead.receipt")).toHaveLength(0);
    });

    it("refuses a request to a listing without an owner beside the choice, and stores and mails nothing", async () => {
      const answer = await sendForm({ email: "nobody-owns@example.com" }, unowned);
      expect(answer.status).toBe(400);
      expect(answer.result).toMatchObject({
        lead: "error",
        message: RESERVATION_MESSAGES.unowned,
        fieldErrors: { kind: [RESERVATION_MESSAGES.unowned] },
      });
      expect(await db().select().from(leads).where(eq(leads.email, "nobody-owns@example.com"))).toHaveLength(0);
      expect(await mailTo("nobody-owns@example.com")).toHaveLength(0);
      // The same form as a question goes to the admins, as before.
      expect((await sendForm({ kind: "question", email: "nobody-owns@example.com" }, unowned)).status).toBe(200);
    });

    it("needs a move-in date, from today and within a year, and a known kind", async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ moveIn: "" }, "moveIn", RESERVATION_MESSAGES.moveInMissing],
        [{ moveIn: day(400) }, "moveIn", RESERVATION_MESSAGES.moveInTooFar],
        [{ moveIn: day(-2) }, "moveIn", "Choose a move-in date from today on."],
        [{ moveIn: "soon" }, "moveIn", "Enter the move-in date as a date."],
        [{ kind: "booking" }, "kind", RESERVATION_MESSAGES.kind],
        [{ kind: "reservation\n" }, "kind", RESERVATION_MESSAGES.kind],
      ];
      for (const [fields, field, message] of cases) {
        const answer = await sendForm({ ...fields, email: "bad-move-in@example.com" });
        expect(answer.status, JSON.stringify(fields)).toBe(400);
        expect(answer.result.lead === "error" && answer.result.fieldErrors[field], JSON.stringify(fields)).toEqual([
          message,
        ]);
      }
      expect(await db().select().from(leads).where(eq(leads.email, "bad-move-in@example.com"))).toHaveLength(0);
      // A question still needs no move-in date, and a form without the choice (the facility page of
      // a listing nobody owns) asks a question.
      expect((await sendForm({ kind: "", moveIn: "", email: "no-kind@example.com" })).status).toBe(200);
      const [question] = await db().select().from(leads).where(eq(leads.email, "no-kind@example.com"));
      expect(question).toMatchObject({ kind: "question", reservationStatus: null, expiresAt: null });
    });
  });

  describe("the owner's answer", () => {
    it("accepts: the lead is Won, the visitor and the owner are emailed, the audit has it, once", async () => {
      const { id, email } = await request();
      expect(await answerReservation(db(), { viewer: owner, leadId: id, answer: "accept", requestId: "req-1" })).toBe(
        "accepted",
      );
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "accepted", status: "won" });
      expect((await leadRow(id)).answeredAt).toBeInstanceOf(Date);
      const [toVisitor] = await mailTo(email, "reservation.accepted");
      expect(toVisitor).toMatchObject({ replyTo: "res-owner@example.com" });
      expect(toVisitor!.subject).toBe("Reserve RV Storage accepted your reservation request");
      const copies = await mailTo("res-owner@example.com", "reservation.answered");
      expect(copies.filter((m) => m.replyTo === email)).toHaveLength(1);
      const [audit] = await auditOf(id);
      expect(audit).toMatchObject({
        action: "lead.reservation.accept",
        actorId: owner.userId,
        before: { reservationStatus: "pending", status: "new" },
        after: { reservationStatus: "accepted", status: "won" },
        requestId: "req-1",
      });
      // Answered: a second answer, either way, is refused and changes nothing.
      for (const answer of ["accept", "decline"] as const)
        await expect(answerReservation(db(), { viewer: owner, leadId: id, answer })).rejects.toMatchObject({
          status: 409,
          message: "This request was already accepted: it cannot be answered again.",
        });
      expect(await mailTo(email)).toHaveLength(2); // the receipt and the acceptance
      expect(await auditOf(id)).toHaveLength(1);
    });

    it("declines with a note: the note reaches the visitor and the thread, the lead is Lost", async () => {
      const { id, email } = await request();
      await answerReservation(db(), {
        viewer: owner,
        leadId: id,
        answer: "decline",
        note: "  Sorry, we are full until spring.\r\n  ",
      });
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "declined", status: "lost" });
      const [toVisitor] = await mailTo(email, "reservation.declined");
      expect(toVisitor!.textBody).toContain("Sorry, we are full until spring.");
      expect((await mailTo("res-owner@example.com", "reservation.answered")).some((m) => m.replyTo === email)).toBe(
        true,
      );
      const thread = await db().select().from(leadMessages).where(eq(leadMessages.leadId, id));
      expect(thread.map((m) => m.body)).toEqual(["Sorry, we are full until spring."]);
      expect((await auditOf(id)).map((a) => a.action)).toEqual(["lead.reservation.decline"]);
    });

    it("refuses a note too long or with control characters, another owner (404), a question and a withdrawn request", async () => {
      const { id } = await request();
      await expect(
        answerReservation(db(), { viewer: owner, leadId: id, answer: "decline", note: "x".repeat(501) }),
      ).rejects.toMatchObject({ status: 400, message: RESERVATION_MESSAGES.noteTooLong });
      await expect(
        answerReservation(db(), { viewer: owner, leadId: id, answer: "decline", note: "no\u0000thanks" }),
      ).rejects.toMatchObject({ status: 400 });
      await expect(answerReservation(db(), { viewer: stranger, leadId: id, answer: "accept" })).rejects.toMatchObject({
        status: 404,
      });
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "pending", status: "new" });
      // An admin may answer for the owner; the owner gets the copy.
      await answerReservation(db(), { viewer: admin, leadId: id, answer: "accept" });
      expect((await auditOf(id)).map((a) => a.actorId)).toEqual([admin.userId]);

      const question = await submitLead(db(), {
        locationId: owned,
        input: input({ kind: "question", email: "asks@example.com" }),
        visitorUserId: null,
      });
      await expect(
        answerReservation(db(), { viewer: owner, leadId: question.id, answer: "accept" }),
      ).rejects.toMatchObject({ status: 409, message: RESERVATION_MESSAGES.notReservation });
      const withdrawn = await request();
      await db().update(leads).set({ status: "withdrawn", email: null }).where(eq(leads.id, withdrawn.id));
      await expect(
        answerReservation(db(), { viewer: owner, leadId: withdrawn.id, answer: "accept" }),
      ).rejects.toMatchObject({ status: 409, message: RESERVATION_MESSAGES.withdrawn });
    });

    it("refuses a request past its 72 hours before the job ran, and the console already shows it expired", async () => {
      const { id, email } = await request({}, new Date(Date.now() - 73 * HOUR));
      await expect(answerReservation(db(), { viewer: owner, leadId: id, answer: "accept" })).rejects.toMatchObject({
        status: 409,
        message: RESERVATION_MESSAGES.expired,
      });
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "pending", status: "new", answeredAt: null });
      expect(await mailTo(email, "reservation.accepted")).toHaveLength(0);
      const page = await ownerLeadsPage(ownerViewer, new Request("http://localhost/owner/leads?kind=reservation"));
      const shown = page.leads.find((l) => l.id === id)!;
      expect(shown.reservation).toMatchObject({ status: "expired" });
      expect(page.leads.every((l) => l.kind === "reservation")).toBe(true);
    });

    it("answers through the console's form: accept and decline intents redirect back, a refusal too", async () => {
      const post = (fields: Record<string, string>) =>
        ownerLeadsAction(
          new Request("http://localhost/owner/leads", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(fields),
          }),
          ownerViewer,
          "req-form",
        );
      const { id } = await request({}, new Date(Date.now() - 31 * HOUR));
      const page = await ownerLeadsPage(ownerViewer, new Request("http://localhost/owner/leads?kind=reservation"));
      expect(page.leads.find((l) => l.id === id)!.reservation).toMatchObject({
        status: "pending",
        timeLeft: "Answer within 41 hours",
      });
      expect(page.pendingReservations).toBeGreaterThanOrEqual(1);
      const accepted = await post({ intent: "accept", leadId: id, back: "/owner/leads?kind=reservation" });
      expect(accepted.status).toBe(303);
      expect(accepted.headers.get("Location")).toBe("/owner/leads?kind=reservation");
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "accepted" });
      // Answered already: a message on the same screen, nothing changed.
      const again = await post({ intent: "decline", leadId: id, note: "No", back: "/owner/leads" });
      expect(again.status).toBe(303);
      expect(await leadRow(id)).toMatchObject({ reservationStatus: "accepted" });
      const declined = await request();
      expect((await post({ intent: "decline", leadId: declined.id, note: "" })).status).toBe(303);
      expect(await leadRow(declined.id)).toMatchObject({ reservationStatus: "declined" });
    });
  });

  describe("the daily expiry", () => {
    it("expires pending requests past their time once, emailing both sides once, and leaves the rest", async () => {
      const now = new Date(Date.now() + 200 * HOUR);
      // Every pending request of earlier tests is due by `now`: start from a clean slate.
      await expireReservationRequests(db(), now);
      const late = await request({}, new Date(now.getTime() - 72 * HOUR));
      const fresh = await request({}, new Date(now.getTime() - 71 * HOUR));
      const gone = await request({}, new Date(now.getTime() - 80 * HOUR));
      await db().update(leads).set({ status: "withdrawn", email: null }).where(eq(leads.id, gone.id));
      const ownerMail = async () => (await mailTo("res-owner@example.com", "reservation.expired.owner")).length;
      const ownerBefore = await ownerMail();

      const [first, second] = await Promise.all([
        expireReservationRequests(db(), now),
        expireReservationRequests(db(), now),
      ]);
      expect(first + second).toBe(2);
      expect(await expireReservationRequests(db(), now)).toBe(0);
      expect(await leadRow(late.id)).toMatchObject({ reservationStatus: "expired", answeredAt: now });
      expect(await leadRow(gone.id)).toMatchObject({ reservationStatus: "expired" });
      expect(await leadRow(fresh.id)).toMatchObject({ reservationStatus: "pending", answeredAt: null });
      expect(await mailTo(late.email, "reservation.expired")).toHaveLength(1);
      expect(await mailTo(fresh.email, "reservation.expired")).toHaveLength(0);
      // The owner hears of the one still wanted, not of the one the visitor withdrew.
      expect((await ownerMail()) - ownerBefore).toBe(1);
      expect((await auditOf(late.id)).map((a) => [a.action, a.actorId])).toEqual([["lead.reservation.expire", null]]);
      await expect(
        answerReservation(db(), { viewer: owner, leadId: late.id, answer: "accept", now }),
      ).rejects.toMatchObject({ status: 409, message: RESERVATION_MESSAGES.expired });
    });
  });

  describe("what it counts for", () => {
    it("shows 'Stored here' on a review only once the owner accepted the author's request", async () => {
      const listing = (await insertListing(db(), { name: "Stored Here Storage" })).placeId;
      await grantListing(db(), owner.userId, listing);
      const shownFor = async (authorEmail: string, answer: "accept" | "decline" | null) => {
        const author = await insertPerson(db(), { email: authorEmail, createdAt: new Date("2025-01-01T00:00:00Z") });
        const lead = await submitLead(db(), {
          locationId: listing,
          input: input({ email: authorEmail }),
          visitorUserId: author.userId,
        });
        if (answer) await answerReservation(db(), { viewer: owner, leadId: lead.id, answer, note: "A note to them." });
        const { id } = await writeReview(db(), {
          author,
          locationId: listing,
          review: {
            stars: 4,
            title: "Safe and easy to reach",
            body: "Gate code worked every time and the lot is well lit at night.",
            stayMonth: "2026-06",
            storedKind: "class_a",
            lengthFeet: 38,
            subRatings: {},
          },
          ipHash: null,
        });
        const rows = await publishedReviews(db(), listing, { sort: "newest", page: 1 });
        return rows.find((r) => r.id === id)!;
      };
      expect((await shownFor("pending-author@example.com", null)).storedHere).toBe(false);
      expect((await shownFor("declined-author@example.com", "decline")).storedHere).toBe(false);
      expect((await shownFor("accepted-author@example.com", "accept")).storedHere).toBe(true);
    });

    it("counts requests (by the day sent) and accepted ones (by the day answered) for owners and admins", async () => {
      const listing = (await insertListing(db(), { name: "Counted Storage" })).placeId;
      await grantListing(db(), owner.userId, listing);
      const sent = new Date("2030-03-10T12:00:00Z");
      const ask = (email: string, kind: "question" | "reservation", at = sent) =>
        submitLead(db(), {
          locationId: listing,
          input: input({ kind, email, moveIn: "2030-04-01" }),
          visitorUserId: null,
          now: at,
        });
      const a = await ask("count-a@example.com", "reservation");
      await ask("count-b@example.com", "reservation");
      await ask("count-q@example.com", "question");
      await ask("count-before@example.com", "reservation", new Date("2030-03-05T12:00:00Z"));
      await answerReservation(db(), {
        viewer: owner,
        leadId: a.id,
        answer: "accept",
        now: new Date("2030-03-11T09:00:00Z"),
      });
      const perDay = await reservationsPerDay(db(), [listing], "2030-03-10", "2030-03-11");
      expect([...perDay.requests]).toEqual([["2030-03-10", 2]]);
      expect([...perDay.accepted]).toEqual([["2030-03-11", 1]]);
      const report = await buildOwnerReport(db(), [listing], { from: "2030-03-08", to: "2030-03-14", days: 7 });
      expect(report.totals).toMatchObject({ leads: 3, reservations: 2, reservationsAccepted: 1 });
      expect(report.previousTotals).toMatchObject({ leads: 1, reservations: 1, reservationsAccepted: 0 });
      expect(report.daily.find((d) => d.date === "2030-03-11")).toMatchObject({ reservationsAccepted: 1 });
      expect(await conversionTotals(db(), "2030-03-08", "2030-03-14")).toEqual({
        leads: 3,
        reservations: 2,
        reservationsAccepted: 1,
      });
    });
  });
});
