import { data } from "react-router";
import { z } from "zod";
import { normalizeUsPhone } from "../../domain/claim-form";
import { COVER_WANTS, LEAD_KINDS, LEAD_LIMITS, LEAD_MESSAGES, RV_TYPES } from "../../domain/leads";
import { lastMoveInDay, RESERVATION_MESSAGES } from "../../domain/reservations";
import { resolveAuthSecret } from "../auth/secret";
import { getViewer, isSignedIn } from "../auth/viewer";
import { serverNow } from "../clock";
import { getConfig } from "../config";
import { getDatabase } from "../db";
import { parseFormSubmission } from "../http/form-action";
import { clientIp } from "../http/rate-limit";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { isRefusal } from "../http/refusal";
import { logger } from "../logger";
import { formStamp, linkCount, NOT_TEXT, stampAgeSeconds, submitLead } from "./service";

/**
 * The facility page's POST `intent=lead` (docs/product.md section 14): validated, then checked
 * against bots (a hidden field people leave empty, a signed time the form was served) and limits
 * per address and per email, then stored and mailed. A bot is answered as if it succeeded.
 */
export const LEAD_RATE_LIMITS = {
  perIp: { name: "lead-ip", windowMs: 10 * 60_000, max: 5 },
  perEmail: { name: "lead-email", windowMs: 24 * 60 * 60_000, max: 5 },
} as const;

/** The hidden field people never see; a bot fills it. */
export const HONEYPOT_FIELD = "company_website";

export function leadFormStamp(): string {
  return formStamp(resolveAuthSecret(getConfig()), serverNow().getTime());
}

// On the server's clock, like the form's stamp and the reservation's expiry (server/clock.ts).
const today = () => serverNow().toISOString().slice(0, 10);

// Control characters, DEL and the Unicode line separators: a one-line field (a name or phone that
// ends up in an email's subject or a spreadsheet cell) holds none of them, and PostgreSQL refuses
// NUL outright, so each is a field error rather than a failed insert or a refused email.
// eslint-disable-next-line no-control-regex -- these very characters are what must be refused
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A text field: `missing` when it is absent or not text (a file, say), as any other mistake. */
const text = (missing: string) => z.string({ error: missing });

const NO_MESSAGE = "Write a short message: what you need and when.";

const schema = z.object({
  // A question, or a reservation request (docs/product.md section 17); a form without the choice asks.
  kind: z.enum(LEAD_KINDS, { error: RESERVATION_MESSAGES.kind }).default("question"),
  rvType: z.enum(RV_TYPES, { error: "Choose the type of your RV." }),
  rvLengthFeet: z.coerce
    .number({ error: "Enter your RV's length in feet." })
    .int("Enter a whole number of feet.")
    .min(
      LEAD_LIMITS.lengthMinFeet,
      `Enter a length from ${LEAD_LIMITS.lengthMinFeet} to ${LEAD_LIMITS.lengthMaxFeet} feet.`,
    )
    .max(
      LEAD_LIMITS.lengthMaxFeet,
      `Enter a length from ${LEAD_LIMITS.lengthMinFeet} to ${LEAD_LIMITS.lengthMaxFeet} feet.`,
    ),
  cover: z.enum(COVER_WANTS, { error: "Choose the kind of space." }),
  moveIn: text("Enter the move-in date as a date.")
    .max(10, "Enter the move-in date as a date.")
    .optional()
    .transform((v) => v?.trim() || null)
    .refine(
      (v) => v === null || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))),
      "Enter the move-in date as a date.",
    )
    .refine((v) => v === null || v >= today(), "Choose a move-in date from today on."),
  name: text("Enter your name.")
    .trim()
    .min(1, "Enter your name.")
    .max(LEAD_LIMITS.nameMax, `Keep your name under ${LEAD_LIMITS.nameMax} characters.`)
    .refine((v) => !NOT_ONE_LINE.test(v), "Write your name on one line, without special characters."),
  email: z
    .email({ error: "Enter a valid email address, like name@example.com." })
    .max(LEAD_LIMITS.emailMax, `Keep the email address under ${LEAD_LIMITS.emailMax} characters.`),
  phone: text("Enter a US phone number, like (512) 555-0100.")
    .max(LEAD_LIMITS.phoneMax, "Enter a US phone number, like (512) 555-0100.")
    .optional()
    .transform((v) => v?.trim() || null)
    .refine(
      (v) => v === null || (!NOT_ONE_LINE.test(v) && normalizeUsPhone(v) !== null),
      "Enter a US phone number, like (512) 555-0100.",
    ),
  message: text(NO_MESSAGE)
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    // The form pipeline reads a message that trims to nothing as a missing one: said the same way.
    .pipe(
      text(NO_MESSAGE)
        .min(1, NO_MESSAGE)
        .max(
          LEAD_LIMITS.messageMax,
          `Keep the message under ${LEAD_LIMITS.messageMax.toLocaleString("en-US")} characters.`,
        )
        .refine((v) => !NOT_TEXT.test(v), "Write the message as plain text, without special characters."),
    ),
});

export type LeadActionResult =
  | { lead: "sent"; text: string }
  | { lead: "error"; message: string; fieldErrors: Record<string, string[]>; values: Record<string, string> };

const FIELDS = ["kind", "rvType", "rvLengthFeet", "cover", "moveIn", "name", "email", "phone", "message"] as const;

export async function leadAction(request: Request, form: FormData, locationId: string) {
  const values: Record<string, string> = {};
  for (const name of FIELDS) {
    const v = form.get(name);
    values[name] = typeof v === "string" ? v.slice(0, name === "message" ? LEAD_LIMITS.messageMax + 100 : 300) : "";
  }
  const fail = (status: number, message: string, fieldErrors: Record<string, string[]> = {}, headers?: HeadersInit) =>
    data<LeadActionResult>({ lead: "error", message, fieldErrors, values }, { status, headers });
  const botAnswer = () => data<LeadActionResult>({ lead: "sent", text: LEAD_MESSAGES.sent });

  // Bots: a filled hidden field, or a form sent faster than a person types. Silently dropped.
  const honeypot = form.get(HONEYPOT_FIELD);
  // On the server's clock (server/clock.ts), so a browser test moves it past the minimum instead of waiting.
  const age = stampAgeSeconds(resolveAuthSecret(getConfig()), String(form.get("stamp") ?? ""), serverNow().getTime());
  if ((typeof honeypot === "string" && honeypot !== "") || (age !== null && age < LEAD_LIMITS.minFillSeconds)) {
    logger.info({ locationId, reason: honeypot ? "honeypot" : "too fast" }, "lead dropped as a bot's");
    return botAnswer();
  }
  if (age === null || age > LEAD_LIMITS.maxFillHours * 3600) return fail(400, LEAD_MESSAGES.stale);

  // The console's form pipeline (server/http/form-action.ts): the schema's messages, per field;
  // the answer keeps its own shape and the values cut as above.
  const parsed = parseFormSubmission(schema, form);
  if (!parsed.ok) return fail(400, parsed.formError ?? "Check the fields marked below.", parsed.fieldErrors);
  const input = parsed.data;
  if (linkCount(input.message) > LEAD_LIMITS.linksMax)
    return fail(400, LEAD_MESSAGES.tooManyLinks, { message: [LEAD_MESSAGES.tooManyLinks] });
  // A reservation names the day it starts, within a year (docs/product.md section 17).
  if (input.kind === "reservation" && input.moveIn === null)
    return fail(400, RESERVATION_MESSAGES.moveInMissing, { moveIn: [RESERVATION_MESSAGES.moveInMissing] });
  if (input.kind === "reservation" && input.moveIn !== null && input.moveIn > lastMoveInDay(today()))
    return fail(400, RESERVATION_MESSAGES.moveInTooFar, { moveIn: [RESERVATION_MESSAGES.moveInTooFar] });

  const db = getDatabase();
  for (const [limit, key] of [
    [LEAD_RATE_LIMITS.perIp, clientIp(request)],
    [LEAD_RATE_LIMITS.perEmail, input.email.toLowerCase()],
  ] as const) {
    const hit = await createSharedRateLimiter(db, limit).hit(key);
    if (!hit.ok) return fail(429, LEAD_MESSAGES.tooMany, {}, { "Retry-After": String(hit.retryAfterSeconds) });
  }
  // A listing hidden or deleted since the page was served is refused (not_found, gone) and
  // answered like the page would be, by the server's wrapper (server/http/app-errors.ts).
  // A signed-in visitor's lead names their account: once the owner answers it, their review of
  // the facility shows "Stored here" (docs/product.md section 16).
  const viewer = await getViewer(request);
  let lead;
  try {
    lead = await submitLead(db, {
      locationId,
      input: { ...input, phone: input.phone ? normalizeUsPhone(input.phone) : null },
      visitorUserId: isSignedIn(viewer) ? viewer.userId : null,
      // The reservation's 72 hours run on the server's clock, which tests move (server/clock.ts).
      now: serverNow(),
    });
  } catch (error) {
    // A listing nobody owns takes no reservation request: said beside the choice, nothing stored.
    if (isRefusal(error, ["bad_request"]) && error.details?.field === "kind")
      return fail(400, error.message, { kind: [error.message] });
    throw error;
  }
  return data<LeadActionResult>({
    lead: "sent",
    text:
      input.kind === "reservation"
        ? RESERVATION_MESSAGES.sent
        : lead.routedTo === "owner"
          ? LEAD_MESSAGES.sent
          : LEAD_MESSAGES.sentUnowned(lead.listingPhone),
  });
}
