import { hideReviewsOfBannedAccount, restoreReviewsAfterBan } from "../reviews/service";
import { notifyLocationsChanged } from "../search/notify";
import { and, asc, desc, eq, gt, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { isRole, type Role } from "../../domain/roles";
import { accountName, type UserFilters, type UserSort } from "../../domain/users";
import type { SortDirection } from "../../domain/table-params";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Database } from "../db/client";
import { auditLog, claims, listingOwners, locations, promotions, reviews, sessions, users } from "../db/schema";
import { AppError, conflict, forbidden, notFound } from "../errors";
import { removeAccountInTransaction, type RemovedAccount } from "./remove";

/**
 * The accounts of the admin console (docs/product.md section 12, "Accounts"): a searchable list,
 * one account's whole picture, and the writes an administrator makes on it. Every write runs in
 * one transaction with its audit row, and first locks the active administrators' rows, so two
 * administrators demoting or banning each other at the same moment cannot leave the site with
 * none: the second one waits, sees the first one's change, and is refused.
 */
const tx = (t: unknown) => t as Database;

export const NO_SUCH_ACCOUNT = "No such account: it may have been deleted.";
export const USER_MESSAGES = {
  self: {
    role: "You cannot change your own role. Ask another administrator.",
    ban: "You cannot ban yourself.",
    delete: "You cannot delete your own account here.",
    sessions: "To sign out your other devices, use your account settings.",
  },
  lastAdmin: (who: string) => `${who} is the only administrator left. Make another administrator first.`,
  notAdmin: "You are no longer an administrator.",
  alreadyBanned: "This account is already banned.",
  notBanned: "This account is not banned.",
} as const;

export interface UserListQuery {
  q: string;
  filters: UserFilters;
  sort: UserSort;
  dir: SortDirection;
  page: number;
  pageSize: number;
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const listingCount = sql<number>`(select count(*)::int from ${listingOwners} where ${listingOwners.userId} = ${users.id})`;

function listConditions(query: Pick<UserListQuery, "q" | "filters">): SQL | undefined {
  const where: SQL[] = [eq(users.isAnonymous, false)];
  const q = query.q.trim();
  if (q) {
    const like = escapeLike(q);
    where.push(or(ilike(users.email, like), ilike(users.name, like), eq(users.id, q))!);
  }
  const { role, verified, banned, listings } = query.filters;
  if (role !== "all") where.push(eq(users.role, role));
  if (verified !== "all") where.push(eq(users.emailVerified, verified === "yes"));
  if (banned !== "all") where.push(eq(users.banned, banned === "yes"));
  if (listings !== "all") where.push(sql`${listingCount} ${listings === "yes" ? sql`>` : sql`=`} 0`);
  return and(...where);
}

export interface UserListRow {
  id: string;
  email: string;
  name: string;
  role: string;
  emailVerified: boolean;
  banned: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  listingCount: number;
}

/** One page of accounts (anonymous visitors' accounts are not listed), with the total. */
export async function listUsers(db: Database, query: UserListQuery): Promise<{ rows: UserListRow[]; total: number }> {
  const where = listConditions(query);
  const direction = query.dir === "asc" ? asc : desc;
  const order = {
    email: [direction(users.email)],
    name: [direction(sql`lower(${users.name})`), asc(users.email)],
    created: [direction(users.createdAt), asc(users.email)],
    lastLogin: [sql`${users.lastLoginAt} ${query.dir === "asc" ? sql`asc` : sql`desc`} nulls last`, asc(users.email)],
  }[query.sort];
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        emailVerified: users.emailVerified,
        banned: users.banned,
        createdAt: users.createdAt,
        lastLoginAt: users.lastLoginAt,
        listingCount,
      })
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export const DETAIL_AUDIT_ROWS = 50;

/** One account as an administrator reviews it: everything it owns, asked for, bought and did. */
export async function userDetail(db: Database, userId: string, now = new Date()) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isAnonymous, false)));
  if (!user) throw notFound(NO_SUCH_ACCOUNT);
  const [owned, claimRows, promotionRows, sessionRows, auditRows, reviewRows] = await Promise.all([
    db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        city: locations.city,
        state: locations.state,
        tier: locations.tier,
        hiddenAt: locations.hiddenAt,
        deletedAt: locations.deletedAt,
      })
      .from(listingOwners)
      .innerJoin(locations, eq(locations.placeId, listingOwners.locationId))
      .where(eq(listingOwners.userId, userId))
      .orderBy(asc(locations.name)),
    db
      .select({
        id: claims.id,
        status: claims.status,
        createdAt: claims.createdAt,
        listingName: locations.name,
        locationId: claims.locationId,
      })
      .from(claims)
      .innerJoin(locations, eq(locations.placeId, claims.locationId))
      .where(eq(claims.userId, userId))
      .orderBy(desc(claims.createdAt))
      .limit(50),
    db
      .select({
        id: promotions.id,
        tier: promotions.tier,
        interval: promotions.interval,
        provider: promotions.provider,
        status: promotions.status,
        periodEnd: promotions.periodEnd,
        listingName: locations.name,
        locationId: promotions.locationId,
      })
      .from(promotions)
      .innerJoin(locations, eq(locations.placeId, promotions.locationId))
      .where(eq(promotions.buyerUserId, userId))
      .orderBy(desc(promotions.createdAt))
      .limit(50),
    db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
        expiresAt: sessions.expiresAt,
        ipAddress: sessions.ipAddress,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.updatedAt)),
    db
      .select({
        id: auditLog.id,
        at: auditLog.at,
        actorEmail: auditLog.actorEmail,
        actorId: auditLog.actorId,
        action: auditLog.action,
        subjectType: auditLog.subjectType,
        subjectId: auditLog.subjectId,
      })
      .from(auditLog)
      .where(or(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, userId)), eq(auditLog.actorId, userId)))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(DETAIL_AUDIT_ROWS),
    // The reviews it wrote, whatever their state (docs/product.md section 16): what a ban hides.
    db
      .select({
        id: reviews.id,
        stars: reviews.stars,
        title: reviews.title,
        status: reviews.status,
        createdAt: reviews.createdAt,
        listingName: locations.name,
        slug: locations.slug,
      })
      .from(reviews)
      .innerJoin(locations, eq(locations.placeId, reviews.locationId))
      .where(eq(reviews.authorId, userId))
      .orderBy(desc(reviews.createdAt))
      .limit(50),
  ]);
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      emailVerified: user.emailVerified,
      banned: user.banned,
      banReason: user.banReason,
      createdAt: user.createdAt,
      lastLoginAt: user.lastLoginAt,
    },
    listings: owned,
    claims: claimRows,
    promotions: promotionRows,
    sessions: sessionRows,
    audit: auditRows,
    reviews: reviewRows,
  };
}

interface Target {
  id: string;
  email: string;
  name: string;
  role: string;
  banned: boolean;
  banReason: string | null;
  createdAt: Date;
}

type Guard = keyof typeof USER_MESSAGES.self;

/**
 * Locks the active administrators and the target, and refuses what no administrator may do: act
 * on their own account this way, act while no longer an administrator, or leave the site with
 * no active administrator (`removesAdmin`: the write would take the target's admin powers away).
 */
async function lockTarget(
  db: Database,
  actor: AuditActor,
  userId: string,
  guard: Guard,
  removesAdmin: (target: Target) => boolean,
): Promise<Target> {
  if (actor.userId === userId) throw forbidden(USER_MESSAGES.self[guard]);
  const admins = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.banned, false)))
    .orderBy(asc(users.id))
    .for("update");
  // The command line acts with no user; a console actor must still be an active administrator.
  if (actor.userId !== null && !admins.some((a) => a.id === actor.userId)) throw forbidden(USER_MESSAGES.notAdmin);
  const [target] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      banned: users.banned,
      banReason: users.banReason,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isAnonymous, false)))
    .for("update");
  if (!target) throw notFound(NO_SUCH_ACCOUNT);
  const isActiveAdmin = admins.some((a) => a.id === target.id);
  if (isActiveAdmin && removesAdmin(target) && admins.length <= 1)
    throw conflict(USER_MESSAGES.lastAdmin(accountName(target)));
  return target;
}

interface UserWrite {
  actor: AuditActor;
  userId: string;
  requestId?: string | null;
}

/** Sets the account's role; returns the role before (equal to `role` when nothing changed). */
export async function setUserRole(db: Database, input: UserWrite & { role: Role }): Promise<{ before: Role }> {
  if (!isRole(input.role)) throw new AppError("bad_request", 400, "Choose a role.");
  return db.transaction(async (t) => {
    const db = tx(t);
    const target = await lockTarget(db, input.actor, input.userId, "role", () => input.role !== "admin");
    const before = isRole(target.role) ? target.role : "user";
    if (target.role === input.role) return { before };
    await db.update(users).set({ role: input.role, updatedAt: new Date() }).where(eq(users.id, target.id));
    await recordAudit(db, {
      actor: input.actor,
      action: "user.role",
      subject: { type: "user", id: target.id },
      before: { role: target.role },
      after: { role: input.role },
      requestId: input.requestId,
    });
    return { before };
  });
}

/**
 * Bans the account: it cannot sign in (better-auth's admin plugin refuses a banned user a new
 * session) and every session it holds is deleted in the same transaction, so it is signed out
 * everywhere at once. Its listings, claims and promotions stay as they are.
 */
export async function banUser(db: Database, input: UserWrite & { reason: string }): Promise<{ sessionsEnded: number }> {
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const target = await lockTarget(db, input.actor, input.userId, "ban", () => true);
    if (target.banned) throw conflict(USER_MESSAGES.alreadyBanned);
    await db
      .update(users)
      .set({ banned: true, banReason: input.reason, banExpires: null, updatedAt: new Date() })
      .where(eq(users.id, target.id));
    const ended = await db.delete(sessions).where(eq(sessions.userId, target.id)).returning({ id: sessions.id });
    // Banning hides the account's reviews (docs/product.md section 16); lifting it brings them back.
    const reviewsHidden = await hideReviewsOfBannedAccount(db, target.id);
    await recordAudit(db, {
      actor: input.actor,
      action: "user.ban",
      subject: { type: "user", id: target.id },
      before: { banned: false },
      after: { banned: true, reason: input.reason, sessionsEnded: ended.length, reviewsHidden },
      requestId: input.requestId,
    });
    return { sessionsEnded: ended.length, reviewsHidden };
  });
  if (result.reviewsHidden > 0) await notifyLocationsChanged(db);
  return { sessionsEnded: result.sessionsEnded };
}

/** Lets a banned account sign in again; the reason it was banned stays in the audit trail. */
export async function unbanUser(db: Database, input: UserWrite): Promise<void> {
  const reviewsShown = await db.transaction(async (t) => {
    const db = tx(t);
    const target = await lockTarget(db, input.actor, input.userId, "ban", () => false);
    if (!target.banned) throw conflict(USER_MESSAGES.notBanned);
    await db
      .update(users)
      .set({ banned: false, banReason: null, banExpires: null, updatedAt: new Date() })
      .where(eq(users.id, target.id));
    const reviewsShown = await restoreReviewsAfterBan(db, target.id);
    await recordAudit(db, {
      actor: input.actor,
      action: "user.unban",
      subject: { type: "user", id: target.id },
      before: { banned: true, reason: target.banReason },
      after: { banned: false, reviewsShown },
      requestId: input.requestId,
    });
    return reviewsShown;
  });
  if (reviewsShown > 0) await notifyLocationsChanged(db);
}

/** Signs the account out everywhere (all sessions, or the ones listed); returns how many ended. */
export async function revokeUserSessions(
  db: Database,
  input: UserWrite & { sessionIds?: readonly string[] },
): Promise<{ sessionsEnded: number }> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const target = await lockTarget(db, input.actor, input.userId, "sessions", () => false);
    const which = input.sessionIds
      ? and(eq(sessions.userId, target.id), inArray(sessions.id, [...input.sessionIds]))
      : eq(sessions.userId, target.id);
    const ended = await db.delete(sessions).where(which).returning({ id: sessions.id });
    await recordAudit(db, {
      actor: input.actor,
      action: "user.sessions.revoke",
      subject: { type: "user", id: target.id },
      after: { sessionsEnded: ended.length, all: !input.sessionIds },
      requestId: input.requestId,
    });
    return { sessionsEnded: ended.length };
  });
}

/**
 * Deletes the account for good (server/users/remove.ts): pending claims withdrawn, listings
 * released, then the account with its sessions. `expectEmail` is the address the administrator
 * typed to confirm, so a stale page cannot delete whoever holds the id now.
 */
export async function deleteUser(
  db: Database,
  input: UserWrite & { expectEmail: string },
): Promise<RemovedAccount & { email: string }> {
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const target = await lockTarget(db, input.actor, input.userId, "delete", () => true);
    if (target.email.toLowerCase() !== input.expectEmail.trim().toLowerCase())
      throw new AppError("bad_request", 400, `Type the account's email, ${target.email}, to confirm.`);
    const removed = await removeAccountInTransaction(db, {
      actor: input.actor,
      account: target,
      action: "user.delete",
      reason: "account deleted by an administrator",
      requestId: input.requestId,
    });
    return { ...removed, email: target.email };
  });
  if (result.reviewedListings.length > 0) await notifyLocationsChanged(db);
  return result;
}
