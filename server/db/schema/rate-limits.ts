import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window counters shared by every app instance (server/http/shared-rate-limit.ts), for the
 * limits that must hold across a load balancer: sign-in, sign-up and new anonymous sessions.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    /** The limiter's name and the limited key, e.g. `sign-in-account:dana@example.com`. */
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [index("rate_limits_window_idx").on(t.windowStart)],
);
