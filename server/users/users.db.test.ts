/**
 * The admin accounts screens (docs/product.md section 12, "Accounts") against the database: the
 * list's search and filters, one account's picture, and the writes with their refusals: self,
 * the last administrator, a banned account's sign-in and sessions.
 */
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createAccount, siteRequest, setUpAuthDatabase } from "../../tests/setup/auth";
import { rejection } from "../../tests/setup/rejection";
import type { UserFilters } from "../../domain/users";
import { SYSTEM_ACTOR, type AuditActor } from "../audit/record";
import { MESSAGES, signIn } from "../auth/forms";
import { grantListing } from "../auth/ownership";
import { getViewer } from "../auth/viewer";
import { CLAIM_INPUT, insertListing, insertPerson } from "../claims/test-support";
import type { Database } from "../db/client";
import { auditLog, claims, listingOwners, locations, reviews, sessions, users } from "../db/schema";
import {
  USER_MESSAGES,
  banUser,
  deleteUser,
  listUsers,
  revokeUserSessions,
  setUserRole,
  unbanUser,
  userDetail,
} from "./service";

const setup = setUpAuthDatabase();
const db = (): Database => setup.db();
const ALL: UserFilters = { role: "all", verified: "all", banned: "all", listings: "all" };
const list = (q: string, filters: Partial<UserFilters> = {}) =>
  listUsers(db(), { q, filters: { ...ALL, ...filters }, sort: "email", dir: "asc", page: 1, pageSize: 50 }).then((r) =>
    r.rows.map((row) => row.email),
  );
const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

let admin: AuditActor;
beforeEach(async () => {
  await db().delete(claims);
  await db().delete(listingOwners);
  await db().delete(locations);
  await db().delete(users);
  const person = await insertPerson(db(), { role: "admin", email: "boss@example.com", name: "Boss" });
  admin = { userId: person.userId, email: person.email };
});

describe("the list", () => {
  it("searches email, name and id, and filters role, confirmation, bans and listings", async () => {
    const ann = await insertPerson(db(), { email: "ann@example.com", name: "Ann Lake", role: "business_owner" });
    await insertPerson(db(), { email: "bob@example.com", name: "Bob 100%", emailVerified: false });
    const cy = await insertPerson(db(), { email: "cy@example.com", name: "Cy" });
    await db().update(users).set({ banned: true }).where(eq(users.id, cy.userId));
    await db()
      .insert(users)
      .values({ id: "anon-1", email: "x@anonymous.invalid", name: "Anonymous", isAnonymous: true });
    const listing = (await insertListing(db())).placeId;
    await grantListing(db(), ann.userId, listing);

    expect(await list("")).toEqual(["ann@example.com", "bob@example.com", "boss@example.com", "cy@example.com"]);
    expect(await list("lake")).toEqual(["ann@example.com"]);
    expect(await list("100%")).toEqual(["bob@example.com"]);
    expect(await list("%")).toEqual(["bob@example.com"]);
    expect(await list("_")).toEqual([]);
    expect(await list(cy.userId)).toEqual(["cy@example.com"]);
    expect(await list("", { role: "admin" })).toEqual(["boss@example.com"]);
    expect(await list("", { verified: "no" })).toEqual(["bob@example.com"]);
    expect(await list("", { banned: "yes" })).toEqual(["cy@example.com"]);
    expect(await list("", { listings: "yes" })).toEqual(["ann@example.com"]);
    expect(await list("", { listings: "no", banned: "no" })).toEqual(["bob@example.com", "boss@example.com"]);

    const page = await listUsers(db(), { q: "", filters: ALL, sort: "created", dir: "desc", page: 2, pageSize: 3 });
    expect(page.total).toBe(4);
    expect(page.rows).toHaveLength(1);
  });

  it("shows one account with its listings, claims, sessions, audit rows and reviews", async () => {
    const { userId, cookie } = await createAccount(setup.auth, db(), {
      email: "dana@example.com",
      password: "long enough 1",
    });
    const listing = (await insertListing(db(), { name: "Dana's Lot" })).placeId;
    await grantListing(db(), userId, listing);
    await setUserRole(db(), { actor: admin, userId, role: "business_owner" });
    const detail = await userDetail(db(), userId);
    expect(detail.user).toMatchObject({ email: "dana@example.com", role: "business_owner", banned: false });
    expect(detail.listings.map((l) => l.name)).toEqual(["Dana's Lot"]);
    expect(detail.sessions).toHaveLength(1);
    expect(cookie).toBeTruthy();
    expect(detail.audit.map((a) => a.action)).toEqual(["user.role"]);
    expect(detail.reviews).toEqual([]);
    // The reviews it wrote, held ones too (docs/product.md section 16).
    await db().insert(reviews).values({
      locationId: listing,
      authorId: userId,
      authorName: "Dana",
      stars: 4,
      title: "Dry and locked",
      body: "Stored our trailer here for a winter without trouble.",
      stayMonth: "2026-01",
      storedKind: "trailer",
      lengthFeet: 28,
      status: "held",
    });
    expect((await userDetail(db(), userId)).reviews).toMatchObject([
      { stars: 4, title: "Dry and locked", status: "held", listingName: "Dana's Lot" },
    ]);
    expect((await rejection(userDetail(db(), "no-such-id"))).status).toBe(404);
  });
});

describe("writes", () => {
  it("bans: the sessions end in the same transaction and the right password is told the account is suspended", async () => {
    const { userId, cookie } = await createAccount(setup.auth, db(), {
      email: "erin@example.com",
      password: "long enough 2",
    });
    expect((await getViewer(siteRequest("/", { cookie }), { fresh: true })).userId).toBe(userId);

    const done = await banUser(db(), { actor: admin, userId, reason: "Spam listings", requestId: "req-1" });
    expect(done.sessionsEnded).toBe(1);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    expect((await getViewer(siteRequest("/", { cookie }), { fresh: true })).userId).toBeNull();
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.ban"), eq(auditLog.subjectId, userId)));
    expect(audit).toMatchObject({ actorId: admin.userId, requestId: "req-1" });
    expect(audit?.after).toMatchObject({ reason: "Spam listings", sessionsEnded: 1 });

    const right = await signIn(
      siteRequest("/login", { ip: "203.0.113.9" }),
      form({ email: "erin@example.com", password: "long enough 2" }),
    );
    expect(right).toMatchObject({ ok: false, status: 403, formError: MESSAGES.suspended });
    const wrong = await signIn(
      siteRequest("/login", { ip: "203.0.113.9" }),
      form({ email: "erin@example.com", password: "not the password" }),
    );
    expect(wrong).toMatchObject({ ok: false, status: 401, formError: MESSAGES.wrongCredentials });
    expect((await rejection(banUser(db(), { actor: admin, userId, reason: "again" }))).message).toBe(
      USER_MESSAGES.alreadyBanned,
    );

    await unbanUser(db(), { actor: admin, userId });
    const back = await signIn(
      siteRequest("/login", { ip: "203.0.113.9" }),
      form({ email: "erin@example.com", password: "long enough 2" }),
    );
    expect(back.ok).toBe(true);
    expect((await rejection(unbanUser(db(), { actor: admin, userId }))).message).toBe(USER_MESSAGES.notBanned);
  });

  it("refuses an administrator's writes on their own account", async () => {
    const self = { actor: admin, userId: admin.userId! };
    expect((await rejection(banUser(db(), { ...self, reason: "oops" }))).message).toBe(USER_MESSAGES.self.ban);
    expect((await rejection(setUserRole(db(), { ...self, role: "user" }))).message).toBe(USER_MESSAGES.self.role);
    expect((await rejection(deleteUser(db(), { ...self, expectEmail: "boss@example.com" }))).message).toBe(
      USER_MESSAGES.self.delete,
    );
    const [row] = await db().select().from(users).where(eq(users.id, admin.userId!));
    expect(row).toMatchObject({ role: "admin", banned: false });
  });

  it("never leaves the site without an active administrator", async () => {
    // The command line acts as nobody; the only administrator cannot be demoted, banned or deleted.
    const only = admin.userId!;
    const refused = USER_MESSAGES.lastAdmin("Boss (boss@example.com)");
    expect((await rejection(setUserRole(db(), { actor: SYSTEM_ACTOR, userId: only, role: "user" }))).message).toBe(
      refused,
    );
    expect((await rejection(banUser(db(), { actor: SYSTEM_ACTOR, userId: only, reason: "bye" }))).status).toBe(409);
    expect(
      (await rejection(deleteUser(db(), { actor: SYSTEM_ACTOR, userId: only, expectEmail: "boss@example.com" })))
        .status,
    ).toBe(409);

    // With a second administrator, one may demote the other; the demoted one then acts no more.
    const second = await insertPerson(db(), { role: "admin", email: "two@example.com" });
    await setUserRole(db(), { actor: admin, userId: second.userId, role: "user" });
    const demoted = { userId: second.userId, email: second.email };
    expect((await rejection(setUserRole(db(), { actor: demoted, userId: only, role: "user" }))).message).toBe(
      USER_MESSAGES.notAdmin,
    );
    const [row] = await db().select().from(users).where(eq(users.id, only));
    expect(row?.role).toBe("admin");
  });

  it("revokes one session or all of them", async () => {
    const { userId } = await createAccount(setup.auth, db(), { email: "finn@example.com", password: "long enough 3" });
    await setup.auth.api.signInEmail({
      body: { email: "finn@example.com", password: "long enough 3" },
      headers: siteRequest("/login").headers,
    });
    const before = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
    expect(before).toHaveLength(2);
    const one = await revokeUserSessions(db(), { actor: admin, userId, sessionIds: [before[0]!.id] });
    expect(one.sessionsEnded).toBe(1);
    const rest = await revokeUserSessions(db(), { actor: admin, userId });
    expect(rest.sessionsEnded).toBe(1);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
  });

  it("deletes an account after its email is typed: claims withdrawn, listings released, audit kept", async () => {
    const owner = await insertPerson(db(), { email: "gil@example.com", role: "business_owner" });
    const listing = (await insertListing(db())).placeId;
    await grantListing(db(), owner.userId, listing);
    const other = (await insertListing(db(), { name: "Other" })).placeId;
    await db().insert(claims).values({
      id: "claim-gil",
      locationId: other,
      userId: owner.userId,
      claimantName: CLAIM_INPUT.claimantName,
      claimantRole: CLAIM_INPUT.claimantRole,
      businessPhone: CLAIM_INPUT.businessPhone,
      businessEmail: CLAIM_INPUT.businessEmail,
      consentAt: new Date(),
    });
    const typo = await rejection(
      deleteUser(db(), { actor: admin, userId: owner.userId, expectEmail: "gill@example.com" }),
    );
    expect(typo.status).toBe(400);
    expect(await db().select().from(users).where(eq(users.id, owner.userId))).toHaveLength(1);

    const done = await deleteUser(db(), { actor: admin, userId: owner.userId, expectEmail: " GIL@example.com" });
    expect(done).toEqual({ releasedListings: 1, withdrawnClaims: 1, reviewedListings: [], email: "gil@example.com" });
    expect(await db().select().from(users).where(eq(users.id, owner.userId))).toEqual([]);
    expect(await db().select().from(listingOwners).where(eq(listingOwners.locationId, listing))).toEqual([]);
    const actions = (await db().select().from(auditLog).where(eq(auditLog.actorId, admin.userId!))).map(
      (a) => a.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["claim.withdraw", "listing.release", "user.delete"]));
    expect(
      (await rejection(deleteUser(db(), { actor: admin, userId: owner.userId, expectEmail: "gil@example.com" })))
        .status,
    ).toBe(404);
  });
});
