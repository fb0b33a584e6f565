import { z } from "zod";
import type { Database } from "../db/client";
import { emailOutbox } from "../db/schema";
import { badRequest } from "../errors";

/** Caps on what one email may hold: a subject fits a mail client's list, a body a screen or a hundred. */
export const SUBJECT_MAX_CHARS = 300;
export const BODY_MAX_BYTES = 100_000;

const withinBodyCap = (value: string) => Buffer.byteLength(value, "utf8") <= BODY_MAX_BYTES;
const bodyTooLarge = `must be at most ${BODY_MAX_BYTES / 1000} kB`;

const messageSchema = z.object({
  kind: z
    .string()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .regex(/^[a-z0-9_.-]+$/i, "must be letters, digits, '.', '_' or '-' (e.g. claim.approved)"),
  to: z.email("must be an email address"),
  subject: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(SUBJECT_MAX_CHARS, `must be at most ${SUBJECT_MAX_CHARS} characters`)
    .refine((value) => !/[\r\n]/.test(value), "must be one line"),
  text: z.string().min(1, "must not be empty").refine(withinBodyCap, bodyTooLarge),
  html: z.string().refine(withinBodyCap, bodyTooLarge).optional(),
  replyTo: z.email("must be an email address").optional(),
});

export type EmailMessage = z.input<typeof messageSchema>;

/**
 * Puts one email in the outbox and returns its id. Pass the transaction that makes the change
 * the email tells about: the row, and so the email, exists if and only if that change commits.
 * Sending happens later in the worker (server/email/worker.ts); call `kickEmail()` after the
 * commit to have it go out at once instead of at the next poll.
 *
 * @throws AppError (400) naming the field when the address is not one or a cap is exceeded.
 */
export async function enqueueEmail(db: Database, message: EmailMessage): Promise<number> {
  const parsed = messageSchema.safeParse(message);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message }));
    throw badRequest(`Invalid email: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`, { issues });
  }
  const { kind, to, subject, text, html, replyTo } = parsed.data;
  const [row] = await db
    .insert(emailOutbox)
    .values({ kind, toAddress: to, subject, textBody: text, htmlBody: html ?? null, replyTo: replyTo ?? null })
    .returning({ id: emailOutbox.id });
  return row!.id;
}
