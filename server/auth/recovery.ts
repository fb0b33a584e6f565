import { APIError } from "better-auth";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "../audit/record";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { formFailure, parseFormSubmission } from "../http/form-action";
import { clientIp } from "../http/rate-limit";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { logger } from "../logger";
import { afterAnswer } from "./account-work";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, getAuth } from "./auth";
import { MESSAGES } from "./forms";

/**
 * Account recovery (docs/product.md sections 4 and 10): "Forgot password?" sends a reset link,
 * /reset-password spends it. better-auth keeps the token (`verifications`, one hour, deleted when
 * used) and hashes the password; we validate, rate-limit, answer in our words and audit.
 */

/**
 * Reset requests: 10 per address (IP) an hour, and 3 per email address an hour, so that nobody
 * can fill a person's inbox. Reset submissions: 20 per IP in 15 minutes. Counted in the database
 * (`rate_limits`), so every instance shares them. docs/operations.md, "Account recovery".
 */
export const RECOVERY_LIMITS = {
  requestPerIp: { name: "reset-request-ip", windowMs: 60 * 60_000, max: 10 },
  requestPerEmail: { name: "reset-request-email", windowMs: 60 * 60_000, max: 3 },
  resetPerIp: { name: "reset-submit-ip", windowMs: 15 * 60_000, max: 20 },
} as const;

export const RECOVERY_MESSAGES = {
  expired: "This reset link has expired or was already used. Ask for a new one below.",
  mismatch: "The two passwords differ. Type the same new password twice.",
  failed: "We could not reset your password right now. Please try again in a moment.",
  done: "Your password is changed. Sign in with your new password.",
} as const;

const emailField = z
  .string({ error: MESSAGES.email })
  .trim()
  .toLowerCase()
  .max(254, MESSAGES.email)
  .pipe(z.email({ error: MESSAGES.email }));

/** A new password, by the sign-up rules (server/auth/forms.ts). */
export const newPasswordField = z
  .string({ error: MESSAGES.passwordLength })
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordLength)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong);

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: RECOVERY_MESSAGES.expired }).min(1, RECOVERY_MESSAGES.expired).max(200),
    password: newPasswordField,
    confirmPassword: z.string({ error: RECOVERY_MESSAGES.mismatch }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: RECOVERY_MESSAGES.mismatch });

const tooMany = (seconds: number, values: Record<string, string>) =>
  formFailure({ ok: true, data: null, values }, 429, { formError: MESSAGES.tooMany(seconds) });

/**
 * /forgot-password: the same answer whether or not the address has an account, and the same work
 * before it: the limits, then the request is queued (server/auth/account-work.ts). Looking the
 * account up, writing the token and queueing the email happen after the answer, so its time
 * tells nothing either (better-auth's dummy work for an unknown address did not make the times
 * alike). A limited request is refused alike for every address.
 */
export async function requestPasswordReset(db: Database, request: Request, form: FormData) {
  const result = parseFormSubmission(forgotPasswordSchema, form);
  const perIp = await createSharedRateLimiter(db, RECOVERY_LIMITS.requestPerIp).hit(clientIp(request));
  if (!perIp.ok) return tooMany(perIp.retryAfterSeconds, result.values as Record<string, string>);
  if (!result.ok) return formFailure(result);
  const email = result.data.email;
  const perEmail = await createSharedRateLimiter(db, RECOVERY_LIMITS.requestPerEmail).hit(email);
  if (!perEmail.ok) return tooMany(perEmail.retryAfterSeconds, result.values as Record<string, string>);
  const headers = new Headers(request.headers);
  afterAnswer("password-reset", async () => {
    try {
      await getAuth().api.requestPasswordReset({ body: { email }, headers });
    } catch (error) {
      // Never told to the visitor: the answer must not depend on the account. The log has no token.
      logger.error({ err: error instanceof APIError ? error.message : error }, "password reset request failed");
    }
  });
  return { ok: true as const, sent: true as const, email };
}

const RESET_PREFIX = "reset-password:";

/** The account a reset token is for, or null when it is unknown, spent or expired. */
export async function resetTokenOwner(token: string): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const context = await getAuth().$context;
  const row = await context.internalAdapter.findVerificationValue(`${RESET_PREFIX}${token}`);
  if (!row || row.expiresAt < new Date()) return null;
  return row.value;
}

/**
 * /reset-password: sets the new password and spends the token (better-auth does both in one
 * transaction, and signs the account out everywhere). The audit row follows on our connection.
 */
export async function resetPassword(
  db: Database,
  request: Request,
  form: FormData,
  requestId?: string | null,
): Promise<{ ok: true } | ReturnType<typeof formFailure>> {
  const result = parseFormSubmission(resetPasswordSchema, form);
  const perIp = await createSharedRateLimiter(db, RECOVERY_LIMITS.resetPerIp).hit(clientIp(request));
  if (!perIp.ok) return tooMany(perIp.retryAfterSeconds, {});
  if (!result.ok) return formFailure(result);
  const { token, password } = result.data;
  const userId = await resetTokenOwner(token);
  if (!userId) return formFailure(result, 400, { formError: RECOVERY_MESSAGES.expired });
  try {
    await getAuth().api.resetPassword({ body: { token, newPassword: password }, headers: request.headers });
  } catch (error) {
    if (error instanceof APIError && error.statusCode === 400) {
      return formFailure(result, 400, { formError: RECOVERY_MESSAGES.expired });
    }
    logger.error({ err: error instanceof APIError ? error.message : error }, "password reset failed");
    return formFailure(result, 500, { formError: RECOVERY_MESSAGES.failed });
  }
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  await recordAudit(db, {
    actor: { userId, email: user?.email ?? null },
    action: "account.password_reset",
    subject: { type: "user", id: userId },
    requestId,
  });
  return { ok: true };
}
