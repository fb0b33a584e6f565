import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";

/**
 * Email waiting to leave (server/email). A message is inserted in the same transaction as the
 * change that causes it, so it is sent if and only if the change committed; the worker claims
 * due rows with `FOR UPDATE SKIP LOCKED`, sends them and marks them `sent`, or schedules a retry
 * with back-off until `attempts` reaches the limit (`failed`).
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** What caused it, e.g. `claim.approved`: for logs and tests, not for sending. */
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    /** The transport's message id (SMTP) or the .eml file written (offline default). */
    deliveredAs: text("delivered_as"),
    sentAt: at("sent_at"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("email_outbox_status_check", sql.raw(`${t.status.name} in ('pending', 'sent', 'failed')`)),
    index("email_outbox_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
