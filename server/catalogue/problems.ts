/**
 * The nightly data check (docs/product.md section 12, "Data problems"): reads the catalogue in
 * pages, finds each listing's problems, and writes them to `listing_problems` so the work queue
 * shows them. A problem found again keeps its row (a dismissed one stays dismissed); an open one
 * that no longer holds is marked resolved by the check.
 */
import { distance } from "fastest-levenshtein";
import ngeohash from "ngeohash";
import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import {
  DUPLICATE_MAX_MILES,
  DUPLICATE_NAME_SIMILARITY,
  STALE_AFTER_DAYS,
  type ListingProblemKind,
} from "../../domain/listing-problems";
import type { Database } from "../db/client";
import { listingProblems, locations } from "../db/schema";
import { getGazetteer, haversineMiles } from "../geo";
import { logger } from "../logger";

const PAGE = 1000;

interface Found {
  locationId: string;
  kind: ListingProblemKind;
  otherId: string;
  detail: Record<string, unknown>;
}

/** Words every facility's name carries, which say nothing about which facility it is. */
const GENERIC = new Set(["rv", "r", "v", "storage", "self", "the", "and", "llc", "inc", "co", "boat", "of", "at"]);

/** A name for comparing: lower case, letters and digits, generic words dropped. */
export function comparableName(name: string): string {
  const words = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9\s]/g, "")
    .split(/\s+/)
    .filter((w) => w && !GENERIC.has(w));
  return words.join(" ");
}

/** 1 for the same comparable name, falling towards 0 as the edit distance grows. */
export function nameSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - distance(a, b) / longest;
}

interface Point {
  id: string;
  name: string;
  lat: number;
  lng: number;
}

/**
 * Pairs of listings within DUPLICATE_MAX_MILES with similar names. Each listing is put in its
 * geohash-6 cell (about 1.2 × 0.6 km) and compared with the listings of its own and the eight
 * neighbouring cells, so the work grows with the number of listings, not its square.
 */
export function likelyDuplicates(points: readonly Point[]): [Point, Point, number][] {
  const cells = new Map<string, Point[]>();
  for (const p of points) {
    const cell = ngeohash.encode(p.lat, p.lng, 6);
    const list = cells.get(cell);
    if (list) list.push(p);
    else cells.set(cell, [p]);
  }
  const pairs: [Point, Point, number][] = [];
  for (const [cell, members] of cells) {
    const near = [cell, ...ngeohash.neighbors(cell)].flatMap((c) => cells.get(c) ?? []);
    for (const a of members) {
      for (const b of near) {
        if (a.id >= b.id) continue;
        const miles = haversineMiles(a, b);
        if (miles > DUPLICATE_MAX_MILES) continue;
        if (nameSimilarity(a.name, b.name) < DUPLICATE_NAME_SIMILARITY) continue;
        pairs.push([a, b, miles]);
      }
    }
  }
  return pairs;
}

type Row = {
  placeId: string;
  name: string;
  state: string | null;
  latitude: number | null;
  longitude: number | null;
  phoneNumber: string | null;
  internationalPhoneNumber: string | null;
  website: string | null;
  businessStatus: string | null;
  updatedAt: Date;
};

const blank = (v: string | null) => v === null || v.trim() === "";

/** The problems of one listing that need no other listing. */
export function problemsOf(row: Row, now: Date, stateAt: (lat: number, lng: number) => string | undefined): Found[] {
  const found: Found[] = [];
  const add = (kind: ListingProblemKind, detail: Record<string, unknown> = {}) =>
    found.push({ locationId: row.placeId, kind, otherId: "", detail });
  const { latitude: lat, longitude: lng } = row;
  if (lat === null || lng === null || (lat === 0 && lng === 0)) add("no_coordinates");
  else if (row.state) {
    const actual = stateAt(lat, lng);
    if (actual !== row.state) add("outside_state", { stated: row.state, found: actual ?? null });
  }
  if (blank(row.phoneNumber) && blank(row.internationalPhoneNumber) && blank(row.website)) add("no_contact");
  if (row.businessStatus === "CLOSED_PERMANENTLY" || row.businessStatus === "CLOSED_TEMPORARILY")
    add("closed", { status: row.businessStatus });
  const staleBefore = now.getTime() - STALE_AFTER_DAYS * 24 * 60 * 60 * 1000;
  if (row.updatedAt.getTime() < staleBefore) add("stale", { updatedAt: row.updatedAt.toISOString() });
  return found;
}

/**
 * An owner's or administrator's edit is the update the staleness check asks for: the listing's open
 * "Not updated for a year" problem is resolved with the edit, in its transaction, instead of
 * waiting for the next nightly check (docs/product.md section 12). Resolved, not dismissed: should
 * the listing go a year without an edit again, the check opens it again.
 */
export async function resolveStaleness(
  db: Database,
  request: { locationId: string; actor: { userId: string | null; email: string | null }; now: Date },
): Promise<number> {
  const resolved = await db
    .update(listingProblems)
    .set({
      status: "resolved",
      resolvedAt: request.now,
      resolvedBy: request.actor.userId,
      resolvedByEmail: request.actor.email,
    })
    .where(
      and(
        eq(listingProblems.locationId, request.locationId),
        eq(listingProblems.kind, "stale"),
        eq(listingProblems.status, "open"),
      ),
    )
    .returning({ id: listingProblems.id });
  return resolved.length;
}

export interface CheckResult {
  listings: number;
  found: number;
  opened: number;
  resolved: number;
}

/**
 * Runs the whole check: every listing that is not deleted, in pages of 1,000; then writes what it
 * found in one transaction, so the queue never shows half a run.
 */
export async function checkListingProblems(db: Database, now = new Date()): Promise<CheckResult> {
  const gazetteer = getGazetteer();
  const stateAt = (lat: number, lng: number) => gazetteer.stateAt(lat, lng);
  const found: Found[] = [];
  const points: Point[] = [];
  let listings = 0;
  let after: string | undefined;
  for (;;) {
    const rows: (Row & { hidden: boolean })[] = await db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        state: locations.state,
        latitude: locations.latitude,
        longitude: locations.longitude,
        phoneNumber: locations.phoneNumber,
        internationalPhoneNumber: locations.internationalPhoneNumber,
        website: locations.website,
        businessStatus: locations.businessStatus,
        updatedAt: locations.updatedAt,
        hidden: sql<boolean>`${locations.hiddenAt} is not null`,
      })
      .from(locations)
      .where(and(isNull(locations.deletedAt), after === undefined ? undefined : gt(locations.placeId, after)))
      .orderBy(asc(locations.placeId))
      .limit(PAGE);
    for (const row of rows) {
      found.push(...problemsOf(row, now, stateAt));
      // A hidden listing is no duplicate for visitors: hiding one of a pair is how a duplicate is resolved.
      if (row.latitude !== null && row.longitude !== null && !row.hidden)
        points.push({ id: row.placeId, name: comparableName(row.name), lat: row.latitude, lng: row.longitude });
    }
    listings += rows.length;
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.placeId;
  }
  for (const [a, b, miles] of likelyDuplicates(points)) {
    const detail = { miles: Math.round(miles * 100) / 100 };
    found.push({ locationId: a.id, kind: "likely_duplicate", otherId: b.id, detail });
  }

  const result = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    let opened = 0;
    for (let i = 0; i < found.length; i += 500) {
      const chunk = found.slice(i, i + 500);
      const rows = await tx
        .insert(listingProblems)
        .values(chunk.map((f) => ({ ...f, foundAt: now, seenAt: now })))
        .onConflictDoUpdate({
          target: [listingProblems.locationId, listingProblems.kind, listingProblems.otherId],
          // A problem the check had resolved and finds again opens again; a dismissed one stays so.
          set: {
            detail: sql`excluded.detail`,
            seenAt: now,
            status: sql`case when ${listingProblems.status} = 'resolved' then 'open' else ${listingProblems.status} end`,
            resolvedAt: sql`case when ${listingProblems.status} = 'resolved' then null else ${listingProblems.resolvedAt} end`,
            resolvedBy: sql`case when ${listingProblems.status} = 'resolved' then null else ${listingProblems.resolvedBy} end`,
            resolvedByEmail: sql`case when ${listingProblems.status} = 'resolved' then null else ${listingProblems.resolvedByEmail} end`,
          },
        })
        .returning({ foundAt: listingProblems.foundAt });
      opened += rows.filter((r) => r.foundAt.getTime() === now.getTime()).length;
    }
    // What this run did not find again no longer holds.
    const resolved = await tx
      .update(listingProblems)
      .set({ status: "resolved", resolvedAt: now, resolvedBy: null, resolvedByEmail: null })
      .where(and(eq(listingProblems.status, "open"), lt(listingProblems.seenAt, now)))
      .returning({ id: listingProblems.id });
    return { opened, resolved: resolved.length };
  });
  logger.info({ listings, found: found.length, ...result }, "listing data check done");
  return { listings, found: found.length, ...result };
}
