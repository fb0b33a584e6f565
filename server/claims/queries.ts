import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { ClaimStatus } from "../../domain/claims";
import type { Database } from "../db/client";
import { claimEvidence, claims, listingOwners, locations, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import type { PrivateStore } from "../files/private-store";
import { computeSignals, type ClaimSignals } from "./signals";
import type { Actor } from "../auth/actor";

/** How a listing stands for the person looking at it on /owner/claim. */
export type ListingClaimState = "free" | "yours" | "pending" | "managed";

export async function listingClaimStates(
  db: Database,
  userId: string,
  placeIds: readonly string[],
): Promise<Map<string, ListingClaimState>> {
  const states = new Map<string, ListingClaimState>(placeIds.map((id) => [id, "free"]));
  if (placeIds.length === 0) return states;
  const owners = await db
    .select({ locationId: listingOwners.locationId, userId: listingOwners.userId })
    .from(listingOwners)
    .where(inArray(listingOwners.locationId, [...placeIds]));
  for (const o of owners) states.set(o.locationId, o.userId === userId ? "yours" : "managed");
  const pending = await db
    .select({ locationId: claims.locationId })
    .from(claims)
    .where(and(eq(claims.userId, userId), eq(claims.status, "pending"), inArray(claims.locationId, [...placeIds])));
  for (const p of pending) if (states.get(p.locationId) !== "yours") states.set(p.locationId, "pending");
  return states;
}

const claimListColumns = {
  id: claims.id,
  status: claims.status,
  createdAt: claims.createdAt,
  decidedAt: claims.decidedAt,
  decisionReason: claims.decisionReason,
  isTransfer: claims.isTransfer,
  locationId: claims.locationId,
  listingName: locations.name,
  listingSlug: locations.slug,
  listingCity: locations.city,
  listingState: locations.state,
};

/** A person's own claims, newest first, with their evidence files (/owner/claims). */
export async function claimsOfUser(db: Database, userId: string) {
  const rows = await db
    .select(claimListColumns)
    .from(claims)
    .innerJoin(locations, eq(locations.placeId, claims.locationId))
    .where(eq(claims.userId, userId))
    .orderBy(desc(claims.createdAt))
    .limit(200);
  const files =
    rows.length === 0
      ? []
      : await db
          .select({ id: claimEvidence.id, claimId: claimEvidence.claimId, fileName: claimEvidence.fileName })
          .from(claimEvidence)
          .where(
            inArray(
              claimEvidence.claimId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(claimEvidence.createdAt));
  return rows.map((row) => ({
    ...row,
    evidence: files.filter((f) => f.claimId === row.id).map(({ id, fileName }) => ({ id, fileName })),
  }));
}

export const ADMIN_CLAIM_SORTS = ["created", "listing", "status"] as const;
export type AdminClaimSort = (typeof ADMIN_CLAIM_SORTS)[number];

export interface AdminClaimQuery {
  status?: ClaimStatus | "all";
  /** Matches the listing's name, city or id, or the claimant's name or email. */
  q?: string;
  sort?: AdminClaimSort;
  dir?: "asc" | "desc";
  page?: number;
  pageSize?: number;
}

/** The admin queue: pending first unless a sort is chosen, with a total for paging. */
export async function adminClaimQueue(db: Database, query: AdminClaimQuery) {
  const pageSize = Math.min(Math.max(query.pageSize ?? 25, 1), 100);
  const page = Math.max(query.page ?? 1, 1);
  const where: SQL[] = [];
  if (query.status && query.status !== "all") where.push(eq(claims.status, query.status));
  const q = query.q?.trim().slice(0, 200);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      or(
        ilike(locations.name, like),
        ilike(locations.city, like),
        eq(locations.placeId, q),
        ilike(claims.claimantName, like),
        ilike(users.email, like),
        ilike(claims.businessEmail, like),
      )!,
    );
  }
  const condition = where.length > 0 ? and(...where) : undefined;
  const direction = query.dir === "asc" ? asc : desc;
  const pendingFirst = sql`case when ${claims.status} = 'pending' then 0 else 1 end`;
  const order =
    query.sort === "listing"
      ? [direction(locations.name), desc(claims.createdAt)]
      : query.sort === "status"
        ? [direction(claims.status), desc(claims.createdAt)]
        : query.sort === "created"
          ? [direction(claims.createdAt)]
          : [asc(pendingFirst), asc(claims.createdAt)];
  const base = db
    .select({
      ...claimListColumns,
      claimantName: claims.claimantName,
      claimantEmail: users.email,
      businessEmail: claims.businessEmail,
    })
    .from(claims)
    .innerJoin(locations, eq(locations.placeId, claims.locationId))
    .innerJoin(users, eq(users.id, claims.userId))
    .where(condition);
  const [rows, [{ total } = { total: 0 }], counts] = await Promise.all([
    base
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(claims)
      .innerJoin(locations, eq(locations.placeId, claims.locationId))
      .innerJoin(users, eq(users.id, claims.userId))
      .where(condition),
    db
      .select({ status: claims.status, count: sql<number>`count(*)::int` })
      .from(claims)
      .groupBy(claims.status),
  ]);
  return {
    rows,
    total,
    page,
    pageSize,
    counts: Object.fromEntries(counts.map((c) => [c.status, c.count])) as Partial<Record<ClaimStatus, number>>,
  };
}

export interface ClaimReview {
  claim: typeof claims.$inferSelect;
  claimant: { id: string; email: string; name: string; role: string; createdAt: Date };
  listing: {
    placeId: string;
    name: string;
    slug: string;
    address: string | null;
    city: string | null;
    state: string | null;
    phoneNumber: string | null;
    website: string | null;
  };
  owner: { userId: string; email: string; name: string } | null;
  evidence: { id: string; fileName: string; contentType: string; sizeBytes: number }[];
  signals: ClaimSignals;
  otherClaimsOnListing: { id: string; status: string; claimantName: string; createdAt: Date }[];
  decidedByEmail: string | null;
}

/** One claim with everything the reviewer weighs; admins, and the claimant for their own. */
export async function claimForReview(db: Database, claimId: string, now = new Date()): Promise<ClaimReview> {
  const [claim] = await db.select().from(claims).where(eq(claims.id, claimId));
  if (!claim) throw notFound("No such claim.");
  const [[claimant], [listing], [owner], evidence, history, others, decider] = await Promise.all([
    db
      .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, claim.userId)),
    db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        slug: locations.slug,
        address: locations.address,
        city: locations.city,
        state: locations.state,
        phoneNumber: locations.phoneNumber,
        internationalPhoneNumber: locations.internationalPhoneNumber,
        website: locations.website,
      })
      .from(locations)
      .where(eq(locations.placeId, claim.locationId)),
    db
      .select({ userId: listingOwners.userId, email: users.email, name: users.name })
      .from(listingOwners)
      .innerJoin(users, eq(users.id, listingOwners.userId))
      .where(eq(listingOwners.locationId, claim.locationId)),
    db
      .select({
        id: claimEvidence.id,
        fileName: claimEvidence.fileName,
        contentType: claimEvidence.contentType,
        sizeBytes: claimEvidence.sizeBytes,
      })
      .from(claimEvidence)
      .where(eq(claimEvidence.claimId, claim.id))
      .orderBy(asc(claimEvidence.createdAt)),
    db
      .select({ status: claims.status, count: sql<number>`count(*)::int` })
      .from(claims)
      .where(and(eq(claims.userId, claim.userId), ne(claims.id, claim.id)))
      .groupBy(claims.status),
    db
      .select({
        id: claims.id,
        status: claims.status,
        claimantName: claims.claimantName,
        createdAt: claims.createdAt,
      })
      .from(claims)
      .where(and(eq(claims.locationId, claim.locationId), ne(claims.id, claim.id)))
      .orderBy(desc(claims.createdAt))
      .limit(20),
    claim.decidedBy
      ? db.select({ email: users.email }).from(users).where(eq(users.id, claim.decidedBy))
      : Promise.resolve([]),
  ]);
  if (!claimant || !listing) throw notFound("No such claim.");
  const count = (s: string) => history.find((h) => h.status === s)?.count ?? 0;
  const { internationalPhoneNumber, ...listingFields } = listing;
  return {
    claim,
    claimant,
    listing: listingFields,
    owner: owner ?? null,
    evidence,
    signals: computeSignals({
      businessEmail: claim.businessEmail,
      businessPhone: claim.businessPhone,
      listingWebsite: listing.website,
      listingPhones: [listing.phoneNumber, internationalPhoneNumber],
      accountCreatedAt: claimant.createdAt,
      otherClaims: {
        pending: count("pending"),
        approved: count("approved"),
        rejected: count("rejected"),
        withdrawn: count("withdrawn"),
      },
      now,
    }),
    otherClaimsOnListing: others,
    decidedByEmail: decider[0]?.email ?? null,
  };
}

/**
 * One evidence file's bytes, for an admin or the claimant only. Anyone else gets 403, and an id
 * that does not exist (or belongs to another claim) 404.
 */
export async function readEvidence(
  db: Database,
  store: PrivateStore,
  viewer: Pick<Actor, "userId" | "isAdmin">,
  claimId: string,
  evidenceId: string,
) {
  const [row] = await db
    .select({
      claimantId: claims.userId,
      fileName: claimEvidence.fileName,
      contentType: claimEvidence.contentType,
      storageKey: claimEvidence.storageKey,
    })
    .from(claimEvidence)
    .innerJoin(claims, eq(claims.id, claimEvidence.claimId))
    .where(and(eq(claimEvidence.id, evidenceId), eq(claims.id, claimId)));
  if (!row) throw notFound("No such evidence file.");
  if (!viewer.isAdmin && row.claimantId !== viewer.userId)
    throw new AppError("forbidden", 403, "Only the claimant and administrators can open claim evidence.");
  const bytes = await store.get(row.storageKey);
  if (!bytes) throw notFound("The evidence file is missing from storage.");
  return { bytes, fileName: row.fileName, contentType: row.contentType };
}

/** Claims waiting for an admin (the admin overview). */
export async function pendingClaimCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(claims)
    .where(eq(claims.status, "pending"));
  return row?.count ?? 0;
}
