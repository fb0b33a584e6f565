import { eq } from "drizzle-orm";
import { VERIFY_TOKEN_SECONDS } from "../auth/account-emails";
import { getAuth } from "../auth/auth";
import type { SignedInViewer } from "../auth/viewer";
import { safeRedirect } from "../auth/redirect";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { createSharedRateLimiter } from "../http/shared-rate-limit";

/**
 * The owner console's "Confirm your email address" banner and its "Send the link again" button
 * (docs/product.md section 10: claims need a confirmed email). The button is limited per account
 * in the shared limiter, so several instances count together.
 */
export const RESEND_VERIFICATION_LIMIT = { name: "verify-resend-user", windowMs: 60 * 60_000, max: 3 } as const;

export const RESEND_MESSAGES = {
  sent: (email: string) =>
    `We sent a new confirmation link to ${email}. It works for ${VERIFY_TOKEN_SECONDS / 3600} hours.`,
  alreadyConfirmed: "Your email address is already confirmed.",
  tooMany: (seconds: number) =>
    `You asked for ${RESEND_VERIFICATION_LIMIT.max} links in the last hour. ` +
    `Please wait ${Math.ceil(seconds / 60)} minutes, and check your spam folder for the links already sent.`,
} as const;

/** The signed-in account's address while it is unconfirmed, for the banner; null once confirmed. */
export async function unconfirmedEmailOf(db: Database, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  return row && !row.emailVerified ? row.email : null;
}

export type ResendOutcome =
  { kind: "sent"; email: string } | { kind: "confirmed" } | { kind: "limited"; retryAfterSeconds: number };

/** Sends the confirmation link again through better-auth (the email goes through the outbox). */
export async function resendVerification(db: Database, viewer: SignedInViewer): Promise<ResendOutcome> {
  const email = await unconfirmedEmailOf(db, viewer.userId);
  if (!email) return { kind: "confirmed" };
  const hit = await createSharedRateLimiter(db, RESEND_VERIFICATION_LIMIT).hit(viewer.userId);
  if (!hit.ok) return { kind: "limited", retryAfterSeconds: hit.retryAfterSeconds };
  await getAuth().api.sendVerificationEmail({ body: { email } });
  return { kind: "sent", email };
}

/** POST /owner/verify-email/resend: back to the page the button was on, with a toast. */
export async function resendVerificationAction(request: Request, viewer: SignedInViewer) {
  const form = await readForm(request);
  const back = form.get("returnTo");
  const target = safeRedirect(typeof back === "string" && back.startsWith("/owner") ? back : null, "/owner");
  const outcome = await resendVerification(getDatabase(), viewer);
  switch (outcome.kind) {
    case "sent":
      return redirectWithFlash(target, { kind: "success", text: RESEND_MESSAGES.sent(outcome.email) });
    case "confirmed":
      return redirectWithFlash(target, { kind: "success", text: RESEND_MESSAGES.alreadyConfirmed });
    case "limited":
      return redirectWithFlash(target, { kind: "error", text: RESEND_MESSAGES.tooMany(outcome.retryAfterSeconds) });
  }
}
