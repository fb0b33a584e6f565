import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * Which owners were sent which month's performance email (docs/product.md section 10). Inserted in
 * the same transaction that queues the email, so each owner gets one per month however many
 * instances run the daily job.
 */
export const monthlyReportRuns = pgTable(
  "monthly_report_runs",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** YYYY-MM, the month reported on. */
    month: text("month").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);
