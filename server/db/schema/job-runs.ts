import { date, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per daily job and UTC day: the instance that inserts it runs the job, so with any number
 * of instances on one database each job runs once a day (server/jobs.ts, docs/operations.md
 * "Scaling"). A run that never finished (its instance died) can be taken over once its lease ends.
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    name: text("name").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    /** The instance running or having run it (server/search/channel.ts INSTANCE_ID). */
    instance: text("instance").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Until then no other instance takes the run over. */
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    /** "done" or "failed" once finished. */
    outcome: text("outcome"),
  },
  (t) => [primaryKey({ columns: [t.name, t.day] })],
);
