import { APIError } from "better-auth";
import { and, eq, ne } from "drizzle-orm";
import { recordAudit } from "../audit/record";
import { getAuth } from "../auth/auth";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";
import { AppError } from "../errors";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { logger } from "../logger";
import { removeAccountInTransaction } from "../users/remove";
import { notifyLocationsChanged } from "../search/notify";
import { saveNotificationPreferences, type NotificationPreferences } from "./notifications";
import type { Actor } from "../auth/actor";

/**
 * The account writes of /owner/settings (docs/product.md section 10). Where better-auth owns the data (password,
 * sessions, email) it makes the change on its own connection and the audit row follows; where we
 * own it (name, preferences, deletion) the change and its audit rows share one transaction.
 */

const tx = (t: unknown) => t as Database;
const subject = (a: Actor) => ({ type: "user", id: a.userId });

/** A check of the current password: 10 per account in 15 minutes (password change, deletion). */
export const PASSWORD_CHECK_LIMIT = { name: "password-check-user", windowMs: 15 * 60_000, max: 10 } as const;
/** Email-change links: 5 per account an hour, so nobody mails a stranger's inbox full. */
export const EMAIL_CHANGE_LIMIT = { name: "email-change-user", windowMs: 60 * 60_000, max: 5 } as const;

export const SETTINGS_MESSAGES = {
  wrongPassword: "That is not your current password.",
  samePassword: "Choose a password different from your current one.",
  sameEmail: "That is already your email address.",
  tooMany: (seconds: number) => `Too many attempts. Please wait ${Math.ceil(seconds / 60)} minutes and try again.`,
  adminDelete: "An administrator account cannot be deleted here. Ask another administrator to remove your role first.",
} as const;

/** A refusal to show beside one field of the form (`details.field`, read by server/http/refusal.ts). */
export class FieldProblem extends AppError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super("bad_request", 400, message, { field });
  }
}

async function checkPasswordBudget(db: Database, actor: Actor): Promise<void> {
  const hit = await createSharedRateLimiter(db, PASSWORD_CHECK_LIMIT).hit(actor.userId);
  if (!hit.ok) throw new AppError("rate_limited", 429, SETTINGS_MESSAGES.tooMany(hit.retryAfterSeconds));
}

const isWrongPassword = (error: unknown) =>
  error instanceof APIError && (error.body?.code === "INVALID_PASSWORD" || error.statusCode === 400);

export async function updateDisplayName(db: Database, actor: Actor, name: string, requestId?: string | null) {
  await db.transaction(async (t) => {
    const db = tx(t);
    const [before] = await db.select({ name: users.name }).from(users).where(eq(users.id, actor.userId)).for("update");
    if (!before) throw new AppError("not_found", 404, "Your account no longer exists.");
    if (before.name === name) return;
    await db.update(users).set({ name }).where(eq(users.id, actor.userId));
    await recordAudit(db, {
      actor,
      action: "account.update_name",
      subject: subject(actor),
      before,
      after: { name },
      requestId,
    });
  });
}

/**
 * Changes the password after checking the current one, and signs every other device out (a
 * changed password usually means the old one was known to someone). Returns the Set-Cookie
 * headers of this device's new session.
 */
export async function changePassword(
  db: Database,
  request: Request,
  actor: Actor,
  input: { currentPassword: string; newPassword: string },
  requestId?: string | null,
): Promise<Headers> {
  await checkPasswordBudget(db, actor);
  if (input.currentPassword === input.newPassword)
    throw new FieldProblem("newPassword", SETTINGS_MESSAGES.samePassword);
  let response: Response;
  try {
    response = await getAuth().api.changePassword({
      body: { ...input, revokeOtherSessions: true },
      headers: request.headers,
      asResponse: true,
    });
  } catch (error) {
    if (isWrongPassword(error)) throw new FieldProblem("currentPassword", SETTINGS_MESSAGES.wrongPassword);
    throw error;
  }
  if (!response.ok) {
    if (response.status === 400) throw new FieldProblem("currentPassword", SETTINGS_MESSAGES.wrongPassword);
    logger.warn({ status: response.status }, "password change failed");
    throw new AppError("unavailable", 503, "We could not change your password right now. Please try again.");
  }
  await recordAudit(db, {
    actor,
    action: "account.change_password",
    subject: subject(actor),
    after: { otherSessionsSignedOut: true },
    requestId,
  });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** Ends every session of the account but this one; returns how many ended. */
export async function signOutOtherSessions(
  db: Database,
  actor: Actor,
  currentSessionId: string,
  requestId?: string | null,
): Promise<number> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const ended = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, actor.userId), ne(sessions.id, currentSessionId)))
      .returning({ id: sessions.id });
    await recordAudit(db, {
      actor,
      action: "account.sign_out_others",
      subject: subject(actor),
      after: { sessionsEnded: ended.length },
      requestId,
    });
    return ended.length;
  });
}

/**
 * Sends a confirmation link to the new address; the email changes only when it is opened
 * (/verify-email). A taken address gets the same answer and no email (better-auth), so the form
 * cannot be used to find out who has an account.
 */
export async function requestEmailChange(
  db: Database,
  request: Request,
  actor: Actor,
  newEmail: string,
  requestId?: string | null,
): Promise<void> {
  if (newEmail === actor.email.toLowerCase()) throw new FieldProblem("newEmail", SETTINGS_MESSAGES.sameEmail);
  const hit = await createSharedRateLimiter(db, EMAIL_CHANGE_LIMIT).hit(actor.userId);
  if (!hit.ok) throw new AppError("rate_limited", 429, SETTINGS_MESSAGES.tooMany(hit.retryAfterSeconds));
  await getAuth().api.changeEmail({ body: { newEmail }, headers: request.headers });
  await recordAudit(db, {
    actor,
    action: "account.request_email_change",
    subject: subject(actor),
    before: { email: actor.email },
    after: { requestedEmail: newEmail },
    requestId,
  });
}

export async function updateNotificationPreferences(
  db: Database,
  actor: Actor,
  preferences: NotificationPreferences,
  requestId?: string | null,
): Promise<void> {
  await db.transaction(async (t) => {
    const db = tx(t);
    await saveNotificationPreferences(db, actor.userId, preferences);
    await recordAudit(db, {
      actor,
      action: "account.update_notifications",
      subject: subject(actor),
      after: preferences,
      requestId,
    });
  });
}

/**
 * Deletes the account after checking its password, in one transaction (server/users/remove.ts):
 * pending claims withdrawn, listings released, then the account and its sessions. Claim rows
 * themselves go with the account (claims.user_id cascades); their history stays in the trail.
 */
export async function deleteAccount(
  db: Database,
  request: Request,
  actor: Actor,
  password: string,
  requestId?: string | null,
): Promise<{ releasedListings: number; withdrawnClaims: number }> {
  if (actor.isAdmin) throw new AppError("forbidden", 403, SETTINGS_MESSAGES.adminDelete);
  await checkPasswordBudget(db, actor);
  try {
    await getAuth().api.verifyPassword({ body: { password }, headers: request.headers });
  } catch (error) {
    if (isWrongPassword(error)) throw new FieldProblem("password", SETTINGS_MESSAGES.wrongPassword);
    throw error;
  }
  const removed = await db.transaction(async (t) => {
    const db = tx(t);
    const [account] = await db.select().from(users).where(eq(users.id, actor.userId)).for("update");
    if (!account) throw new AppError("not_found", 404, "Your account no longer exists.");
    return removeAccountInTransaction(db, {
      actor,
      account,
      action: "account.delete",
      reason: "account deleted",
      requestId,
    });
  });
  // Its reviews left their listings' ratings: cards and the rating sort learn of it.
  if (removed.reviewedListings.length > 0) await notifyLocationsChanged(db);
  return { releasedListings: removed.releasedListings, withdrawnClaims: removed.withdrawnClaims };
}
