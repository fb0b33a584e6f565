import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cookieFrom, createAccount, siteRequest, setUpAuthDatabase } from "../../tests/setup/auth";
import { signIn } from "../auth/forms";
import { getViewer } from "../auth/viewer";
import { insertListing } from "../claims/test-support";
import { auditLog, claims, emailOutbox, listingOwners, sessions, users } from "../db/schema";
import { wantsEmail } from "./notifications";
import { verifyEmailToken } from "./verify-email";
import {
  FieldProblem,
  SETTINGS_MESSAGES,
  changePassword,
  deleteAccount,
  requestEmailChange,
  signOutOtherSessions,
  updateDisplayName,
  updateNotificationPreferences,
} from "./settings";
import type { Actor } from "../auth/actor";

const setup = setUpAuthDatabase();
const db = () => setup.db();

const PASSWORD = "correct horse battery";
const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

async function person(email: string) {
  const { userId, cookie } = await createAccount(setup.auth, db(), { email, password: PASSWORD, name: "Sam" });
  const actor: Actor = { userId, email, name: "Sam", isAdmin: false };
  return { userId, cookie, actor, request: () => siteRequest("/owner/settings", { cookie, method: "POST" }) };
}

async function secondSession(email: string) {
  const result = await signIn(siteRequest("/login", { ip: "192.0.2.9" }), form({ email, password: PASSWORD }));
  expect(result.ok).toBe(true);
  return result.ok ? cookieFrom(result.headers) : "";
}

const actions = async (userId: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.actorId, userId))).map((r) => r.action);

describe("account settings", () => {
  it("saves the display name with an audit row", async () => {
    const { userId, actor } = await person("name@example.com");
    await updateDisplayName(db(), actor, "Sam Rivers", "r1");
    const [row] = await db().select().from(users).where(eq(users.id, userId));
    expect(row?.name).toBe("Sam Rivers");
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "account.update_name"));
    expect(audit).toMatchObject({ actorId: userId, before: { name: "Sam" }, after: { name: "Sam Rivers" } });
  });

  it("refuses a password change with a wrong current password, and changes it with the right one", async () => {
    const { userId, actor, request } = await person("pw@example.com");
    const other = await secondSession("pw@example.com");
    const wrong = changePassword(db(), request(), actor, {
      currentPassword: "not it",
      newPassword: "new pass 123",
    });
    await expect(wrong).rejects.toEqual(new FieldProblem("currentPassword", SETTINGS_MESSAGES.wrongPassword));
    expect(await actions(userId)).not.toContain("account.change_password");

    const headers = await changePassword(db(), request(), actor, {
      currentPassword: PASSWORD,
      newPassword: "new pass 123",
    });
    expect(headers.getSetCookie().join()).toMatch(/session_token/);
    expect((await signIn(siteRequest("/login"), form({ email: "pw@example.com", password: "new pass 123" }))).ok).toBe(
      true,
    );
    // The other device was signed out.
    expect((await getViewer(siteRequest("/", { cookie: other }), { fresh: true })).userId).toBeNull();
    expect(await actions(userId)).toContain("account.change_password");
  });

  it("signs out other sessions only", async () => {
    const { userId, cookie, actor } = await person("sessions@example.com");
    const other = await secondSession("sessions@example.com");
    const me = await getViewer(siteRequest("/", { cookie }), { fresh: true });
    const ended = await signOutOtherSessions(db(), actor, me.sessionId!);
    expect(ended).toBe(1);
    expect((await getViewer(siteRequest("/", { cookie: other }), { fresh: true })).userId).toBeNull();
    expect((await getViewer(siteRequest("/x", { cookie }), { fresh: true })).userId).toBe(userId);
    expect(await actions(userId)).toContain("account.sign_out_others");
  });

  it("sends the email-change link to the new address and changes nothing yet", async () => {
    const { userId, actor, request } = await person("old@example.com");
    await requestEmailChange(db(), request(), actor, "new@example.com");
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, "new@example.com"));
    expect(mail?.kind).toBe("account.email-change");
    expect(mail?.textBody).toMatch(/http:\/\/localhost:3000\/verify-email\?token=/);
    const [row] = await db().select().from(users).where(eq(users.id, userId));
    expect(row?.email).toBe("old@example.com");
    await expect(requestEmailChange(db(), request(), actor, "old@example.com")).rejects.toBeInstanceOf(FieldProblem);

    const token = decodeURIComponent(/verify-email\?token=(\S+)/.exec(mail!.textBody)![1]!);
    const done = await verifyEmailToken(db(), siteRequest(`/verify-email?token=${token}`), token, "r-v");
    expect(done).toMatchObject({ ok: true, kind: "email-changed", email: "new@example.com" });
    const [changed] = await db().select().from(users).where(eq(users.id, userId));
    expect(changed).toMatchObject({ email: "new@example.com", emailVerified: true });
    expect(await actions(userId)).toEqual(
      expect.arrayContaining(["account.request_email_change", "account.change_email"]),
    );
    // Spent: the account's address is no longer the one the token was issued for.
    expect(await verifyEmailToken(db(), siteRequest("/verify-email"), token)).toEqual({ ok: false });
    expect(await verifyEmailToken(db(), siteRequest("/verify-email"), "garbage")).toEqual({ ok: false });
  });

  it("stores notification preferences that wantsEmail honours", async () => {
    const { userId, actor } = await person("prefs@example.com");
    expect(await wantsEmail(db(), userId, "monthly-performance")).toBe(true);
    await updateNotificationPreferences(db(), actor, {
      "claim-results": true,
      "moderation-results": false,
      "monthly-performance": false,
      "new-reviews": false,
    });
    expect(await wantsEmail(db(), userId, "claim-results")).toBe(true);
    expect(await wantsEmail(db(), userId, "moderation-results")).toBe(false);
    expect(await wantsEmail(db(), userId, "monthly-performance")).toBe(false);
    expect(await wantsEmail(db(), userId, "new-reviews")).toBe(false);
    expect(await actions(userId)).toContain("account.update_notifications");
  });
});

describe("deleting an account", () => {
  it("refuses a wrong password and changes nothing", async () => {
    const { userId, actor, request } = await person("keep@example.com");
    await expect(deleteAccount(db(), request(), actor, "wrong")).rejects.toBeInstanceOf(FieldProblem);
    expect(await db().select().from(users).where(eq(users.id, userId))).toHaveLength(1);
  });

  it("refuses an administrator", async () => {
    const { actor, request } = await person("admin-del@example.com");
    await expect(deleteAccount(db(), request(), { ...actor, isAdmin: true }, PASSWORD)).rejects.toMatchObject({
      status: 403,
    });
  });

  it("releases listings, withdraws pending claims, ends sessions and keeps the audit trail", async () => {
    const { userId, actor, request } = await person("leaving@example.com");
    const owned = await insertListing(db());
    const claimed = await insertListing(db());
    await db().insert(listingOwners).values({ locationId: owned.placeId, userId });
    await db().insert(claims).values({
      id: "claim-leaving",
      locationId: claimed.placeId,
      userId,
      claimantName: "Sam",
      claimantRole: "Owner",
      businessPhone: "+15125550100",
      businessEmail: "leaving@example.com",
      consentAt: new Date(),
    });

    const result = await deleteAccount(db(), request(), actor, PASSWORD, "req-del");
    expect(result).toEqual({ releasedListings: 1, withdrawnClaims: 1 });
    expect(await db().select().from(users).where(eq(users.id, userId))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(0);
    expect(await db().select().from(listingOwners).where(eq(listingOwners.locationId, owned.placeId))).toHaveLength(0);
    const trail = await db().select().from(auditLog).where(eq(auditLog.actorId, userId));
    expect(trail.map((r) => [r.action, r.subjectId])).toEqual(
      expect.arrayContaining([
        ["claim.withdraw", "claim-leaving"],
        ["listing.release", owned.placeId],
        ["account.delete", userId],
      ]),
    );
    expect(trail.find((r) => r.action === "account.delete")).toMatchObject({
      actorEmail: "leaving@example.com",
      requestId: "req-del",
      before: expect.objectContaining({ email: "leaving@example.com" }),
    });
    // The address is free again.
    await createAccount(setup.auth, db(), { email: "leaving@example.com" });
  });
});
