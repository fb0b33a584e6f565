import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { notificationPreferences } from "../db/schema";

/**
 * The optional emails a person can turn off in /owner/settings (docs/product.md section 10). Emails that answer a
 * person's own request (a reset link, a confirmation) are not optional and never ask.
 */
export const NOTIFICATION_KINDS = [
  "claim-results",
  "moderation-results",
  "monthly-performance",
  "new-reviews",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationPreferences = Record<NotificationKind, boolean>;

export const DEFAULT_PREFERENCES: NotificationPreferences = {
  "claim-results": true,
  "moderation-results": true,
  "monthly-performance": true,
  "new-reviews": true,
};

export async function notificationPreferencesOf(db: Database, userId: string): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  if (!row) return { ...DEFAULT_PREFERENCES };
  return {
    "claim-results": row.claimResults,
    "moderation-results": row.moderationResults,
    "monthly-performance": row.monthlyPerformance,
    "new-reviews": row.newReviews,
  };
}

/**
 * Whether to send `userId` an optional email of `kind`: services call it before queueing one
 * (pass the transaction they queue in). Someone who never chose gets everything.
 */
export async function wantsEmail(db: Database, userId: string, kind: NotificationKind): Promise<boolean> {
  return (await notificationPreferencesOf(db, userId))[kind];
}

/** Stores every choice at once (the settings form sends them all). */
export async function saveNotificationPreferences(
  db: Database,
  userId: string,
  preferences: NotificationPreferences,
): Promise<void> {
  const values = {
    claimResults: preferences["claim-results"],
    moderationResults: preferences["moderation-results"],
    monthlyPerformance: preferences["monthly-performance"],
    newReviews: preferences["new-reviews"],
  };
  await db
    .insert(notificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...values, updatedAt: new Date() } });
}
