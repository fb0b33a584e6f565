/**
 * The admin overview's week (docs/product.md section 12, "Overview"): sign-ups leave out older and
 * anonymous accounts, traffic adds up the last seven days of the platform roll-up, and promotions
 * due are the past-due ones and those ending within the week.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { insertListing, insertPerson } from "../claims/test-support";
import type { DatabaseHandle } from "../db/client";
import { locationMetricsDaily, promotions, users } from "../db/schema";
import { weekFigures } from "./overview";

let handle: DatabaseHandle;
const db = () => handle.db;
const now = new Date("2026-03-10T15:00:00Z");
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);

beforeAll(async () => {
  handle = await createTestDatabase();
  await insertPerson(db(), { createdAt: daysAgo(1) });
  await insertPerson(db(), { createdAt: new Date("2026-03-04T00:30:00Z") }); // the first day of the week
  await insertPerson(db(), { createdAt: new Date("2026-03-03T23:30:00Z") }); // the day before it
  await db()
    .insert(users)
    .values({
      id: randomUUID(),
      email: "anon@example.com",
      name: "Anonymous",
      isAnonymous: true,
      createdAt: daysAgo(1),
    });

  const listings = await Promise.all([1, 2, 3, 4, 5].map(() => insertListing(db())));
  const [a, b] = listings;
  await db()
    .insert(locationMetricsDaily)
    .values([
      { locationId: a!.placeId, date: "2026-03-10", pageViews: 5, uniqueVisitors: 3 },
      { locationId: b!.placeId, date: "2026-03-04", pageViews: 7, uniqueVisitors: 2 },
      { locationId: a!.placeId, date: "2026-03-03", pageViews: 100, uniqueVisitors: 50 },
    ]);

  const promotion = (i: number, status: string, periodEnd: Date | null) => ({
    id: randomUUID(),
    locationId: listings[i]!.placeId,
    tier: "Pro" as const,
    interval: "month",
    provider: "invoice",
    status,
    periodEnd,
    idempotencyKey: randomUUID(),
  });
  await db()
    .insert(promotions)
    .values([
      promotion(0, "past_due", daysAgo(2)),
      promotion(1, "active", daysAgo(-6)),
      promotion(2, "active", daysAgo(-30)),
      promotion(3, "pending", null),
      promotion(4, "ended", daysAgo(1)),
    ]);
});
afterAll(async () => {
  await handle?.close();
});

describe(`admin overview (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("counts the week's sign-ups, page views and promotions due", async () => {
    const week = await weekFigures(db(), now);
    expect(week).toMatchObject({ signUps: 2, pageViews: 12, promotionsDue: 2 });
    // No analytics sessions were recorded: visitors come from those only.
    expect(week.visitors).toBe(0);
  });
});
