import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * Which optional emails a person wants (docs/product.md section 10, /owner/settings). No row means the defaults:
 * everything on. Read through `wantsEmail` (server/account/notifications.ts), never directly.
 */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  claimResults: boolean("claim_results").notNull().default(true),
  moderationResults: boolean("moderation_results").notNull().default(true),
  monthlyPerformance: boolean("monthly_performance").notNull().default(true),
  newReviews: boolean("new_reviews").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export type NotificationPreferencesRow = typeof notificationPreferences.$inferSelect;
