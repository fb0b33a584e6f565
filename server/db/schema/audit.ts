import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The audit trail (docs/product.md section 10): one row per console write, written in the same
 * transaction as the write (server/audit). `actor_id` is kept as text without a foreign key, and
 * the actor's email copied beside it, so the trail outlives a deleted account.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    requestId: text("request_id"),
  },
  (t) => [
    index("audit_log_subject_idx").on(t.subjectType, t.subjectId, t.at),
    index("audit_log_actor_idx").on(t.actorId, t.at),
    index("audit_log_at_idx").on(t.at),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
