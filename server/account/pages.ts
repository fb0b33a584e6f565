import { and, count, eq, gt, ne } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { safeRedirect } from "../auth/redirect";
import { getViewer, isSignedIn, type SignedInViewer } from "../auth/viewer";
import { MESSAGES, signOut } from "../auth/forms";
import { newPasswordField } from "../auth/recovery";
import { getDatabase } from "../db";
import { claims, listingOwners, sessions, users } from "../db/schema";
import { AppError, badRequest } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { formRefusal } from "../http/refusal";
import { notificationPreferencesOf } from "./notifications";
import {
  changePassword,
  deleteAccount,
  requestEmailChange,
  signOutOtherSessions,
  updateDisplayName,
  updateNotificationPreferences,
} from "./settings";
import { verifyEmailToken } from "./verify-email";
import { actorOf } from "../auth/actor";

/**
 * The loader and action bodies of /owner/settings (docs/product.md section 10). The page holds one form per
 * concern, each with its own `intent`; the action parses the one that was sent.
 */
const SETTINGS = "/owner/settings";

export const settingsSchemas = {
  name: z.object({
    intent: z.literal("name"),
    name: z.string({ error: MESSAGES.name }).trim().min(1, MESSAGES.name).max(80, "Use at most 80 characters."),
  }),
  password: z
    .object({
      intent: z.literal("password"),
      currentPassword: z
        .string({ error: "Enter your current password." })
        .min(1, "Enter your current password.")
        .max(128, MESSAGES.passwordTooLong),
      newPassword: newPasswordField,
      confirmPassword: z.string({ error: "Type the new password again." }),
    })
    .refine((v) => v.newPassword === v.confirmPassword, {
      path: ["confirmPassword"],
      message: "The two new passwords differ. Type the same one twice.",
    }),
  email: z.object({
    intent: z.literal("email"),
    newEmail: z
      .string({ error: MESSAGES.email })
      .trim()
      .toLowerCase()
      .max(254, MESSAGES.email)
      .pipe(z.email({ error: MESSAGES.email })),
  }),
  sessions: z.object({ intent: z.literal("sessions") }),
  notifications: z.object({
    intent: z.literal("notifications"),
    claimResults: z.boolean().optional(),
    moderationResults: z.boolean().optional(),
    monthlyPerformance: z.boolean().optional(),
    newReviews: z.boolean().optional(),
  }),
  delete: z.object({
    intent: z.literal("delete"),
    password: z.string({ error: "Enter your password to confirm." }).min(1, "Enter your password to confirm.").max(128),
  }),
} as const;

export type SettingsIntent = keyof typeof settingsSchemas;
const isIntent = (value: unknown): value is SettingsIntent =>
  typeof value === "string" && Object.hasOwn(settingsSchemas, value);

export async function settingsPage(viewer: SignedInViewer) {
  const db = getDatabase();
  const [account] = await db
    .select({ name: users.name, email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, viewer.userId));
  if (!account) throw new AppError("not_found", 404, "Your account no longer exists.");
  const [[others], [listings], [pending], preferences] = await Promise.all([
    db
      .select({ n: count() })
      .from(sessions)
      .where(
        and(eq(sessions.userId, viewer.userId), ne(sessions.id, viewer.sessionId), gt(sessions.expiresAt, new Date())),
      ),
    db.select({ n: count() }).from(listingOwners).where(eq(listingOwners.userId, viewer.userId)),
    db
      .select({ n: count() })
      .from(claims)
      .where(and(eq(claims.userId, viewer.userId), eq(claims.status, "pending"))),
    notificationPreferencesOf(db, viewer.userId),
  ]);
  return {
    account,
    otherSessions: others?.n ?? 0,
    listings: listings?.n ?? 0,
    pendingClaims: pending?.n ?? 0,
    preferences,
    canDelete: !viewer.isAdmin,
  };
}

export async function settingsAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const intent = form.get("intent");
  if (!isIntent(intent)) throw badRequest("Unknown settings form.");
  const result = parseFormSubmission(settingsSchemas[intent], form);
  if (!result.ok) return formFailure(result);
  const db = getDatabase();
  const actor = actorOf(viewer);
  const done = (text: string, init?: ResponseInit) => redirectWithFlash(SETTINGS, { kind: "success", text }, init);
  try {
    const input = result.data as z.output<(typeof settingsSchemas)[SettingsIntent]>;
    switch (input.intent) {
      case "name":
        await updateDisplayName(db, actor, input.name, requestId);
        return done("Your name is saved.");
      case "password": {
        const headers = await changePassword(db, request, actor, input, requestId);
        return done("Your password is changed. Other devices were signed out.", { headers });
      }
      case "email":
        await requestEmailChange(db, request, actor, input.newEmail, requestId);
        return done(`We sent a confirmation link to ${input.newEmail}. Your email changes when you open it.`);
      case "sessions": {
        const ended = await signOutOtherSessions(db, actor, viewer.sessionId, requestId);
        return done(ended === 1 ? "Signed out of 1 other session." : `Signed out of ${ended} other sessions.`);
      }
      case "notifications":
        await updateNotificationPreferences(
          db,
          actor,
          {
            "claim-results": input.claimResults ?? false,
            "moderation-results": input.moderationResults ?? false,
            "monthly-performance": input.monthlyPerformance ?? false,
            "new-reviews": input.newReviews ?? false,
          },
          requestId,
        );
        return done("Your email preferences are saved.");
      case "delete": {
        await deleteAccount(db, request, actor, input.password, requestId);
        const headers = await signOut(request);
        return redirectWithFlash("/login", { kind: "success", text: "Your account is deleted." }, { headers });
      }
    }
  } catch (error) {
    // A FieldProblem (bad_request) names its field; the others are said above the form.
    return formRefusal(result, error, ["bad_request", "rate_limited", "forbidden"]);
  }
}

/** For the route's loader: `data` keeps the type plain for the component. */
export async function settingsLoader(viewer: SignedInViewer) {
  return data(await settingsPage(viewer));
}

export async function verifyEmailPage(request: Request, requestId: string | null) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await verifyEmailToken(getDatabase(), request, token, requestId);
  if (!outcome.ok) return { ok: false as const };
  const viewer = await getViewer(request, { fresh: true });
  const text =
    outcome.kind === "email-changed"
      ? `Your email is now ${outcome.email}. Sign in with it from now on.`
      : "Thank you: your email address is confirmed.";
  // A new account's link carries where its sign-up was heading (a claim, say): sign-in goes on there.
  const next = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  const signIn = next ? `/login?redirectTo=${encodeURIComponent(next)}` : "/login";
  return redirectWithFlash(
    isSignedIn(viewer) ? next || SETTINGS : signIn,
    { kind: "success", text },
    {
      headers: outcome.headers,
    },
  );
}
