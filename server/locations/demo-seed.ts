import { count, eq } from "drizzle-orm";
import { serverNow } from "../clock";
import type { Database } from "../db/client";
import { locations, type NewLocationRow } from "../db/schema";
import { getGazetteer } from "../geo";
import { DEMO_SEED, generateDemoCatalogue } from "./demo";

const CHUNK = 500;

/** Dated from the server's clock (server/clock.ts): demo update dates lie in the months before it. */
export function buildDemoCatalogue(size: number, seed = DEMO_SEED, now = serverNow()): NewLocationRow[] {
  return generateDemoCatalogue(getGazetteer(), size, seed, now);
}

async function insertAll(db: Database, rows: NewLocationRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insert(locations).values(rows.slice(i, i + CHUNK));
}

/**
 * Loads the demo catalogue when the database holds no location at all (mode "auto").
 * Returns the number of demo rows written.
 */
export async function ensureDemoData(
  db: Database,
  { mode, count: size }: { mode: "auto" | "off"; count: number },
): Promise<number> {
  if (mode === "off" || size === 0) return 0;
  const [row] = await db.select({ n: count() }).from(locations);
  if ((row?.n ?? 0) > 0) return 0;
  const rows = buildDemoCatalogue(size);
  await db.transaction(async (tx) => insertAll(tx as unknown as Database, rows));
  return rows.length;
}

/** Replaces every demo row with a fresh catalogue; real (non-demo) listings are left alone. */
export async function resetDemoData(db: Database, size: number): Promise<{ removed: number; inserted: number }> {
  const rows = buildDemoCatalogue(size);
  return db.transaction(async (tx) => {
    const removed = await tx.delete(locations).where(eq(locations.isDemo, true)).returning({ id: locations.placeId });
    await insertAll(tx as unknown as Database, rows);
    return { removed: removed.length, inserted: rows.length };
  });
}
