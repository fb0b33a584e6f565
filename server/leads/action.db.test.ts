/**
 * The lead forms as React Router calls them, against the database (docs/product.md section 14):
 * the facility page's `intent=lead` and the owner console's reply and status forms. Every field
 * answers a field error, never a 500 or an internal message; a listing that left the site takes no
 * question; the limits per address and per email hold.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { SignedInViewer } from "../auth/viewer";
import { resolveAuthSecret } from "../auth/secret";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import { getConfig } from "../config";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { emailOutbox, leads, locations, rateLimits } from "../db/schema";
import { AppError } from "../errors";
import { createFlash, replaceFlash } from "../http/flash";
import { leadAction, LEAD_RATE_LIMITS, type LeadActionResult } from "./action";
import { ownerLeadsAction } from "./pages";
import { formStamp, submitLead } from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;
let listing: string;
let owner: SignedInViewer;

const FORM = {
  // The choice a listing with an owner offers (docs/product.md section 17); a question here.
  kind: "question" as const,
  rvType: "class_a",
  rvLengthFeet: "40",
  cover: "covered",
  moveIn: "",
  name: "Robin Camper",
  email: "robin@example.com",
  phone: "(512) 555-0100",
  message: "Do you have a covered 40 ft space?",
};

function leadRequest(fields: Record<string, string | Blob>, ip = "203.0.113.7") {
  const form = new FormData();
  form.set("stamp", formStamp(resolveAuthSecret(getConfig()), Date.now() - 60_000));
  for (const [name, value] of Object.entries({ ...FORM, ...fields })) form.set(name, value);
  return {
    request: new Request("http://localhost/location/x", { method: "POST", headers: { "x-client-ip": ip } }),
    form,
  };
}

/** What leadAction answered: the data it returned, or the status and text of what it threw. */
async function sendLead(fields: Record<string, string | Blob>, { ip, locationId = listing } = {} as Opts) {
  const { request, form } = leadRequest(fields, ip);
  try {
    const answer = (await leadAction(request, form, locationId)) as unknown as {
      data: LeadActionResult;
      init: ResponseInit | null;
    };
    return { status: answer.init?.status ?? 200, result: answer.data };
  } catch (thrown) {
    if (thrown instanceof AppError) return { status: thrown.status, thrown: thrown.message };
    const t = thrown as { data: unknown; init: ResponseInit | null };
    return { status: t.init?.status ?? 500, thrown: t.data };
  }
}
type Opts = { ip?: string; locationId?: string };

const fieldErrorsOf = (answer: Awaited<ReturnType<typeof sendLead>>) =>
  answer.result?.lead === "error" ? answer.result.fieldErrors : undefined;

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  replaceFlash(createFlash({ secret: "a-test-flash-secret-of-32-characters!", secure: false }));
  listing = (await insertListing(db(), { name: "Action RV Storage" })).placeId;
  const person = await insertPerson(db(), { role: "business_owner", email: "action-owner@example.com" });
  await grantListing(db(), person.userId, listing);
  owner = {
    sessionId: "s",
    userId: person.userId,
    role: "business_owner",
    email: person.email,
    name: "Olive",
    isAnonymous: false,
    isAdmin: false,
    isOwner: true,
  };
});
beforeEach(async () => {
  await db().delete(rateLimits);
});
afterAll(async () => {
  replaceFlash(undefined);
  await disconnectDatabase().catch(() => {});
});

describe(`lead forms (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("answers a field error, and stores and mails nothing, for a line break or control character in any field", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ name: "Robin\r\nBcc: victim@example.com" }, "name"],
      [{ name: "Robin\u0000Camper" }, "name"],
      [{ name: "Robin\u2028Camper" }, "name"],
      [{ email: "robin@example.com\r\nBcc: x@example.com" }, "email"],
      [{ email: `${"r".repeat(260)}@example.com` }, "email"],
      [{ phone: "512 555\n0100" }, "phone"],
      [{ message: "Hello\u0000there" }, "message"],
      [{ message: "Hello\u001bthere" }, "message"],
      [{ moveIn: "2099-01-01\nx" }, "moveIn"],
      [{ rvLengthFeet: "40\u0000" }, "rvLengthFeet"],
      [{ rvType: "class_a\n" }, "rvType"],
      [{ cover: "" }, "cover"],
    ];
    for (const [fields, field] of cases) {
      const answer = await sendLead(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const errors = fieldErrorsOf(answer)!;
      expect(Object.keys(errors), JSON.stringify(fields)).toEqual([field]);
      // The normal words of the form, never zod's or the mailer's.
      expect(errors[field]!.join(" ")).not.toMatch(/Invalid|expected|subject|must be one line/);
    }
    // A file where text belongs is one more mistake in that field.
    const file = await sendLead({ name: new Blob(["Robin"]) as unknown as string });
    expect(fieldErrorsOf(file)).toEqual({ name: ["Enter your name."] });
    expect(await db().select().from(leads)).toHaveLength(0);
    expect(await db().select().from(emailOutbox)).toHaveLength(0);
  });

  it("says in the form's own words what an empty field needs, keeping what was typed", async () => {
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ rvType: "" }, { rvType: ["Choose the type of your RV."] }],
      [{ rvLengthFeet: "" }, { rvLengthFeet: ["Enter your RV's length in feet."] }],
      [{ rvLengthFeet: "9" }, { rvLengthFeet: ["Enter a length from 10 to 65 feet."] }],
      [{ cover: "" }, { cover: ["Choose the kind of space."] }],
      [{ name: "   " }, { name: ["Enter your name."] }],
      [{ email: "" }, { email: ["Enter a valid email address, like name@example.com."] }],
      [{ message: "" }, { message: ["Write a short message: what you need and when."] }],
      [{ message: " \r\n " }, { message: ["Write a short message: what you need and when."] }],
    ];
    for (const [fields, fieldErrors] of cases) {
      const answer = await sendLead(fields);
      expect(answer, JSON.stringify(fields)).toEqual({
        status: 400,
        result: {
          lead: "error",
          message: "Check the fields marked below.",
          fieldErrors,
          values: { ...FORM, ...fields },
        },
      });
    }
    expect(await db().select().from(leads)).toHaveLength(0);
  });

  it("sends the receipt to the typed address without the visitor's words, and the owner their question", async () => {
    const bait = "URGENT: your account is locked, sign in at https://evil.example/login";
    const answer = await sendLead({ email: "victim@example.com", name: "Security Team evil.example", message: bait });
    expect(answer).toMatchObject({ status: 200, result: { lead: "sent" } });
    const [receipt] = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, "victim@example.com"));
    expect(receipt!.kind).toBe("lead.receipt");
    for (const part of [receipt!.subject, receipt!.textBody, receipt!.htmlBody ?? ""]) {
      expect(part).not.toMatch(/evil\.example|URGENT|Security Team|locked/);
    }
    expect(receipt!.subject).toBe("Your question to Action RV Storage");
    expect(receipt!.textBody).toMatch(/^Hello,$/m);
    expect(receipt!.textBody).toMatch(/\/leads\/withdraw\?token=[A-Za-z0-9_-]{20,}/);
    expect(receipt!.textBody).toContain("Class A motorhome, 40 ft");
    // The owner, who is asked, reads the question itself.
    const [notice] = await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "lead.new"));
    expect(notice!.textBody).toContain(bait);
  });

  it("keeps line breaks and tabs in the message", async () => {
    const answer = await sendLead({ email: "tabs@example.com", message: "First line\r\n\tSecond line" });
    expect(answer).toMatchObject({ status: 200, result: { lead: "sent" } });
    const [row] = await db().select().from(leads).where(eq(leads.email, "tabs@example.com"));
    expect(row!.message).toBe("First line\n\tSecond line");
  });

  it("limits questions per email address and per network address", async () => {
    for (let i = 0; i < LEAD_RATE_LIMITS.perEmail.max; i++)
      expect(
        (await sendLead({ email: "many@example.com", message: `Question ${i}` }, { ip: `198.51.100.${i}` })).status,
      ).toBe(200);
    const perEmail = await sendLead({ email: "Many@Example.com", message: "One more" }, { ip: "198.51.100.99" });
    expect(perEmail.status).toBe(429);
    expect(perEmail.result).toMatchObject({ lead: "error", message: expect.stringMatching(/several questions/) });

    for (let i = 0; i < LEAD_RATE_LIMITS.perIp.max; i++)
      expect((await sendLead({ email: `ip${i}@example.com` }, { ip: "192.0.2.1" })).status).toBe(200);
    expect((await sendLead({ email: "ip-last@example.com" }, { ip: "192.0.2.1" })).status).toBe(429);
    expect(await db().select().from(leads).where(eq(leads.email, "ip-last@example.com"))).toHaveLength(0);
  });

  it("refuses a question to a hidden listing (404) or a deleted one (410) and stores nothing", async () => {
    const hidden = (await insertListing(db(), { name: "Hidden RV Storage", hiddenAt: new Date() })).placeId;
    const deleted = (await insertListing(db(), { name: "Deleted RV Storage", deletedAt: new Date() })).placeId;
    expect(await sendLead({ email: "late@example.com" }, { locationId: hidden })).toMatchObject({
      status: 404,
      thrown: "This listing is not on the site right now, so your question was not sent.",
    });
    expect(await sendLead({ email: "late@example.com" }, { locationId: deleted })).toMatchObject({
      status: 410,
      thrown: "This listing was removed, so your question was not sent.",
    });
    // Hidden after the page was served, between the route's check and the service: the same.
    await db().update(locations).set({ deletedAt: new Date() }).where(eq(locations.placeId, hidden));
    await expect(
      submitLead(db(), {
        locationId: hidden,
        input: { ...FORM, rvType: "class_a", cover: "covered", rvLengthFeet: 40, moveIn: null, phone: null },
        visitorUserId: null,
      }),
    ).rejects.toMatchObject({ status: 410 });
    expect(await db().select().from(leads).where(eq(leads.email, "late@example.com"))).toHaveLength(0);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, "late@example.com"))).toHaveLength(0);
  });

  describe("the owner's forms", () => {
    let leadId: string;
    beforeAll(async () => {
      leadId = (
        await submitLead(db(), {
          locationId: listing,
          input: {
            ...FORM,
            email: "owner-forms@example.com",
            rvType: "class_a",
            cover: "covered",
            rvLengthFeet: 40,
            moveIn: null,
            phone: null,
          },
          visitorUserId: null,
        })
      ).id;
    });
    const post = (fields: Record<string, string>) => {
      const body = new URLSearchParams(fields);
      return ownerLeadsAction(
        new Request("http://localhost/owner/leads", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body,
        }),
        owner,
        "test",
      );
    };

    it("ignores a `back` that is not this screen on this site, a line break included, instead of a 500", async () => {
      for (const [back, expected] of [
        ["/owner/leads\r\nSet-Cookie: stolen=1", "/owner/leads"],
        ["/owner/leads?status=new\nx", "/owner/leads"],
        ["//evil.example/owner/leads", "/owner/leads"],
        ["https://evil.example/owner/leads", "/owner/leads"],
        ["/owner/leads/../../admin", "/owner/leads"],
        ["/owner/leadsx", "/owner/leads"],
        ["/owner/leads?status=new&page=2", "/owner/leads?status=new&page=2"],
      ] as const) {
        const response = await post({ intent: "status", leadId, status: "won", back });
        expect(response.status, back).toBe(303);
        expect(response.headers.get("Location"), back).toBe(expected);
      }
    });

    it("answers a reply with a control character with a message, and an id that is no lead's with a 404", async () => {
      const response = await post({ intent: "reply", leadId, body: "Yes\u0000 we do", back: "/owner/leads" });
      expect(response.status).toBe(303);
      expect(response.headers.get("Set-Cookie")).toBeTruthy();
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "lead.reply"))).toHaveLength(0);
      // PostgreSQL refuses a NUL in a query's text: the id names no lead, as any other unknown one.
      await expect(post({ intent: "status", leadId: `${leadId}\u0000`, status: "won" })).rejects.toMatchObject({
        status: 404,
      });
    });
  });
});
