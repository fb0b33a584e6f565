import { describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { BODY_MAX_BYTES, enqueueEmail, type EmailMessage } from "./outbox";

/** Rejected input never reaches the database, so none is needed here. */
const noDatabase = {} as Database;
const valid: EmailMessage = { kind: "claim.approved", to: "owner@example.com", subject: "Approved", text: "Hello" };

describe("enqueueEmail input", () => {
  it.each([
    ["to", { to: "not an address" }],
    ["to", { to: "a@example.com, b@example.com" }],
    ["replyTo", { replyTo: "nobody" }],
    ["subject", { subject: "x".repeat(301) }],
    ["subject", { subject: "Approved\r\nBcc: everyone@example.com" }],
    ["subject", { subject: "   " }],
    ["text", { text: "é".repeat(BODY_MAX_BYTES / 2 + 1) }],
    ["html", { html: `<p>${"x".repeat(BODY_MAX_BYTES)}</p>` }],
    ["kind", { kind: "claim approved/../../x" }],
  ])("refuses a bad %s with a 400 naming the field", async (field, change) => {
    const error = await enqueueEmail(noDatabase, { ...valid, ...change }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).message).toMatch(new RegExp(`${field}: `));
  });
});
