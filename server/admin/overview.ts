import { and, count, eq, gte, isNotNull, lte, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { promotions, users } from "../db/schema";
import { addDays } from "../analytics/owner-report";
import { platformDays, visitorCount } from "../analytics/admin-report";

/** How far ahead the overview looks for promotions that end (docs/product.md section 12). */
export const PROMOTIONS_DUE_DAYS = 7;
/** "This week": the last seven UTC days, today included, the same as the analytics screen's 7-day preset. */
export const OVERVIEW_WEEK_DAYS = 7;

export interface WeekFigures {
  /** Accounts created in the week (anonymous visitors' accounts left out). */
  signUps: number;
  pageViews: number;
  visitors: number;
  /** Promotions past due, or active and ending or renewing within PROMOTIONS_DUE_DAYS. */
  promotionsDue: number;
}

/** The overview's figures for the week that ends today (UTC day of `now`). */
export async function weekFigures(db: Database, now = new Date()): Promise<WeekFigures> {
  const today = now.toISOString().slice(0, 10);
  const from = addDays(today, -(OVERVIEW_WEEK_DAYS - 1));
  const dueBy = new Date(now.getTime() + PROMOTIONS_DUE_DAYS * 86_400_000);
  const [[signUps], days, visitors, [due]] = await Promise.all([
    db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.isAnonymous, false), gte(users.createdAt, new Date(`${from}T00:00:00Z`)))),
    platformDays(db, from, today),
    visitorCount(db, from, today),
    db
      .select({ n: count() })
      .from(promotions)
      .where(
        or(
          eq(promotions.status, "past_due"),
          and(eq(promotions.status, "active"), isNotNull(promotions.periodEnd), lte(promotions.periodEnd, dueBy)),
        ),
      ),
  ]);
  let pageViews = 0;
  for (const day of days.values()) pageViews += day.pageViews;
  return { signUps: signUps?.n ?? 0, pageViews, visitors, promotionsDue: due?.n ?? 0 };
}
