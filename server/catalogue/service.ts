/**
 * The admin catalogue (docs/product.md section 12, "The catalogue"): one page of listings for the
 * table, and the bulk actions, each in one transaction with an audit row per listing, so a bulk
 * action is applied to every selected listing or to none.
 */
import { asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Tier } from "../../domain/tiers";
import type { SortDirection } from "../../domain/table-params";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Database } from "../db/client";
import { listingOwners, locations, users } from "../db/schema";
import { AppError } from "../errors";
import { afterCommit } from "../promotions/common";
import type { StripeSettings } from "../promotions/stripe";
import { endFormerOwnerBilling, stopFormerOwnerBilling } from "../promotions/transfer";
import { notifyLocationsChanged } from "../search/notify";
import { handUnclaimedLeadsTo } from "../leads/service";
import { catalogueWhere, type CatalogueFilters } from "./filters";

export const CATALOGUE_SORTS = ["name", "place", "tier", "updated"] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export const CATALOGUE_PAGE_SIZE = 50;

/** At most this many listings per bulk action: a page of the table, ten times over. */
export const BULK_MAX_IDS = 500;

export interface CatalogueRow {
  placeId: string;
  slug: string;
  name: string;
  city: string | null;
  state: string | null;
  tier: Tier;
  isDemo: boolean;
  imageCount: number;
  ownerEmail: string | null;
  hidden: boolean;
  deleted: boolean;
  updatedAt: Date;
}

const TIER_RANK = sql`case ${locations.tier} when 'Pro' then 1 when 'Preferred' then 2 when 'Basic' then 3 else 4 end`;

function orderOf(sort: CatalogueSort, dir: SortDirection): SQL[] {
  const by = dir === "asc" ? asc : desc;
  switch (sort) {
    case "place":
      return [by(locations.state), by(locations.city), asc(locations.name), asc(locations.placeId)];
    case "tier":
      return [by(TIER_RANK), asc(locations.name), asc(locations.placeId)];
    case "updated":
      return [by(locations.updatedAt), asc(locations.placeId)];
    default:
      return [by(locations.name), asc(locations.placeId)];
  }
}

export interface CataloguePageQuery {
  filters: CatalogueFilters;
  sort: CatalogueSort;
  dir: SortDirection;
  page: number;
  pageSize?: number;
}

export async function countCatalogue(db: Database, filters: CatalogueFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(locations).where(catalogueWhere(filters));
  return row?.n ?? 0;
}

export async function cataloguePage(db: Database, query: CataloguePageQuery): Promise<CatalogueRow[]> {
  const pageSize = query.pageSize ?? CATALOGUE_PAGE_SIZE;
  const rows = await db
    .select({
      placeId: locations.placeId,
      slug: locations.slug,
      name: locations.name,
      city: locations.city,
      state: locations.state,
      tier: locations.tier,
      isDemo: locations.isDemo,
      imageCount: locations.imageCount,
      ownerEmail: users.email,
      hiddenAt: locations.hiddenAt,
      deletedAt: locations.deletedAt,
      updatedAt: locations.updatedAt,
    })
    .from(locations)
    .leftJoin(listingOwners, eq(listingOwners.locationId, locations.placeId))
    .leftJoin(users, eq(users.id, listingOwners.userId))
    .where(catalogueWhere(query.filters))
    .orderBy(...orderOf(query.sort, query.dir))
    .limit(pageSize)
    .offset((query.page - 1) * pageSize);
  return rows.map(({ hiddenAt, deletedAt, ...row }) => ({
    ...row,
    hidden: hiddenAt !== null,
    deleted: deletedAt !== null,
  }));
}

export const BULK_ACTIONS = ["hide", "show", "delete", "restore", "tier"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export interface BulkRequest {
  actor: AuditActor;
  action: BulkAction;
  ids: readonly string[];
  /** For `tier`. */
  tier?: Tier;
  requestId?: string | null;
  now?: Date;
}

export interface BulkResult {
  /** Listings the action changed; the rest already were so. */
  changed: number;
  selected: number;
}

type Visibility = { hiddenAt: Date | null; deletedAt: Date | null; tier: Tier };

/** What the action sets, given a listing as it is; undefined when it is already so. */
function nextState(action: BulkAction, row: Visibility, now: Date, tier?: Tier): Partial<Visibility> | undefined {
  switch (action) {
    case "hide":
      return row.hiddenAt ? undefined : { hiddenAt: now };
    case "show":
      return row.hiddenAt ? { hiddenAt: null } : undefined;
    case "delete":
      return row.deletedAt ? undefined : { deletedAt: now };
    case "restore":
      return row.deletedAt ? { deletedAt: null } : undefined;
    case "tier":
      return row.tier === tier ? undefined : { tier: tier! };
  }
}

const stateOf = (row: Visibility) => ({
  hidden: row.hiddenAt !== null,
  deleted: row.deletedAt !== null,
  tier: row.tier,
});

/**
 * Applies one bulk action to the listings named. Refuses (400) no listing, too many, a listing
 * that does not exist (nothing is changed then), and `tier` without a tier.
 */
export async function applyBulkAction(db: Database, request: BulkRequest): Promise<BulkResult> {
  const ids = [...new Set(request.ids)];
  if (ids.length === 0) throw new AppError("bad_request", 400, "Select at least one listing first.");
  if (ids.length > BULK_MAX_IDS)
    throw new AppError("bad_request", 400, `Select at most ${BULK_MAX_IDS} listings for one action.`);
  if (request.action === "tier" && !request.tier) throw new AppError("bad_request", 400, "Choose the tier to set.");
  const now = request.now ?? new Date();
  const changed = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const rows = await tx
      .select({
        placeId: locations.placeId,
        hiddenAt: locations.hiddenAt,
        deletedAt: locations.deletedAt,
        tier: locations.tier,
      })
      .from(locations)
      .where(inArray(locations.placeId, ids))
      .orderBy(asc(locations.placeId))
      .for("update");
    if (rows.length !== ids.length) {
      const missing = ids.length - rows.length;
      throw new AppError(
        "conflict",
        409,
        `${missing} of the selected listings no longer exist${missing === 1 ? "s" : ""}. Nothing was changed; reload the list.`,
      );
    }
    let changed = 0;
    for (const row of rows) {
      const set = nextState(request.action, row, now, request.tier);
      if (!set) continue;
      changed += 1;
      await tx
        .update(locations)
        .set({ ...set, version: sql`${locations.version} + 1`, updatedAt: now })
        .where(eq(locations.placeId, row.placeId));
      await recordAudit(tx, {
        actor: request.actor,
        action: `listing.${request.action}`,
        subject: { type: "listing", id: row.placeId },
        before: stateOf(row),
        after: stateOf({ ...row, ...set }),
        requestId: request.requestId,
      });
    }
    return changed;
  });
  if (changed > 0) await notifyLocationsChanged(db);
  return { changed, selected: ids.length };
}

export interface OwnerChangeRequest {
  actor: AuditActor;
  locationId: string;
  /** The new owner's email; null removes the owner. */
  email: string | null;
  requestId?: string | null;
  now?: Date;
  /** Stripe's settings, for cancelling the old owner's card subscription; tests pass their own. */
  settings?: StripeSettings;
}

type OwnerChangeKind = "assigned" | "transferred" | "removed" | "unchanged";

/**
 * Who owns the listing now and who will: the checks of an owner change, run once before the old
 * owner's billing is stopped at Stripe and again, under the listing's lock, in the transaction.
 */
async function ownerChangeOf(db: Database, request: OwnerChangeRequest, lock: boolean) {
  const query = db
    .select({ placeId: locations.placeId })
    .from(locations)
    .where(eq(locations.placeId, request.locationId));
  const [listing] = lock ? await query.for("update") : await query;
  if (!listing) throw new AppError("not_found", 404, "This listing does not exist or was removed.");
  const [current] = await db
    .select({ userId: listingOwners.userId, email: users.email })
    .from(listingOwners)
    .innerJoin(users, eq(users.id, listingOwners.userId))
    .where(eq(listingOwners.locationId, request.locationId));
  if (request.email === null) return { current, person: null, unchanged: !current };
  const email = request.email.trim().toLowerCase();
  const [person] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      banned: users.banned,
      isAnonymous: users.isAnonymous,
    })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!person || person.isAnonymous)
    throw new AppError("bad_request", 400, `No account uses ${email}. The owner must sign up first.`);
  if (person.banned) throw new AppError("bad_request", 400, `${person.email} is banned and cannot own a listing.`);
  return { current, person, unchanged: current?.userId === person.id };
}

/**
 * Assigns, transfers or removes a listing's owner (docs/product.md section 12). The new owner must
 * have an account that is not banned; a plain account becomes a business owner, as an approved
 * claim makes it. One transaction with its audit rows. Billing belongs to the account that bought
 * it: the old owner's live promotions end, their card subscription cancelled at Stripe first, and
 * the old owner is told (server/promotions/transfer.ts, docs/operations.md "Listing transfers and
 * billing").
 */
export async function changeListingOwner(
  db: Database,
  request: OwnerChangeRequest,
): Promise<{ kind: OwnerChangeKind; email: string | null }> {
  const now = request.now ?? new Date();
  const planned = await ownerChangeOf(db, request, false);
  if (planned.unchanged) return { kind: "unchanged", email: planned.person?.email ?? null };
  const keepUserId = planned.person?.id ?? null;
  const stopped = await stopFormerOwnerBilling(db, {
    locationId: request.locationId,
    keepUserId,
    settings: request.settings,
  });
  const result = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const { current, person, unchanged } = await ownerChangeOf(tx, request, true);
    const none = { tierChanged: false, emailed: false };
    if (unchanged) return { kind: "unchanged" as const, email: person?.email ?? null, billing: none };
    const audit = (action: string, after: unknown) =>
      recordAudit(tx, {
        actor: request.actor,
        action,
        subject: { type: "listing", id: request.locationId },
        before: { owner: current?.email ?? null },
        after,
        requestId: request.requestId,
      });
    const billingOf = () =>
      endFormerOwnerBilling(tx, {
        locationId: request.locationId,
        keepUserId: person?.id ?? null,
        stopped,
        removed: !person,
        now,
        actor: request.actor,
        requestId: request.requestId,
      });
    if (!person) {
      await tx.delete(listingOwners).where(eq(listingOwners.locationId, request.locationId));
      await audit("listing.owner.remove", { owner: null });
      return { kind: "removed" as const, email: current!.email, billing: await billingOf() };
    }
    await tx
      .insert(listingOwners)
      .values({ locationId: request.locationId, userId: person.id })
      .onConflictDoUpdate({ target: listingOwners.locationId, set: { userId: person.id, createdAt: now } });
    if (person.role === "user") {
      await tx.update(users).set({ role: "business_owner" }).where(eq(users.id, person.id));
      await recordAudit(tx, {
        actor: request.actor,
        action: "user.role",
        subject: { type: "user", id: person.id },
        before: { role: "user" },
        after: { role: "business_owner" },
        requestId: request.requestId,
      });
    }
    // docs/product.md section 14: questions asked while nobody owned the listing become the new owner's.
    await handUnclaimedLeadsTo(tx, {
      locationId: request.locationId,
      userId: person.id,
      actor: request.actor,
      requestId: request.requestId,
      now,
    });
    const kind = current ? ("transferred" as const) : ("assigned" as const);
    await audit(current ? "listing.owner.transfer" : "listing.owner.assign", { owner: person.email });
    return { kind, email: person.email, billing: await billingOf() };
  });
  await afterCommit(result.billing.tierChanged, db, result.billing.emailed);
  return { kind: result.kind, email: result.email };
}
