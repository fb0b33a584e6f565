import { accountMarkerCookie } from "../auth/account-marker";
import { APIError } from "better-auth";
import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/record";
import { getAuth } from "../auth/auth";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { logger } from "../logger";

/**
 * /verify-email?token=…: the link of a new account's confirmation email and of an email change
 * (sent to the new address). better-auth checks the signed token and makes the change; we audit
 * it and, for a change, mark the new address confirmed (opening the link proved it).
 */
interface TokenClaims {
  email?: string;
  updateTo?: string;
  userId?: string;
}

function claimsOf(token: string): TokenClaims {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as TokenClaims;
  } catch {
    return {};
  }
}

export type VerifyOutcome =
  { ok: true; kind: "email-changed" | "verified"; email: string; headers: Headers } | { ok: false };

export async function verifyEmailToken(
  db: Database,
  request: Request,
  token: string,
  requestId?: string | null,
): Promise<VerifyOutcome> {
  if (!token || token.length > 2000) return { ok: false };
  let response: Response;
  try {
    response = await getAuth().api.verifyEmail({ query: { token }, headers: request.headers, asResponse: true });
  } catch (error) {
    if (error instanceof APIError) return { ok: false };
    throw error;
  }
  if (!response.ok) {
    logger.info({ status: response.status }, "email verification link refused");
    return { ok: false };
  }
  // Only read once better-auth has checked the signature and the expiry.
  const claims = claimsOf(token);
  const userId = claims.userId;
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  // The link signs its account in: the browser is marked signed in (server/auth/account-marker.ts).
  if (
    response.headers
      .getSetCookie()
      .some((cookie) => cookie.includes("session_token=") && !cookie.includes("session_token=;"))
  )
    headers.append("Set-Cookie", accountMarkerCookie(true));
  if (claims.updateTo && userId) {
    const email = claims.updateTo;
    await db.transaction(async (t) => {
      const tx = t as unknown as Database;
      await tx.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
      await recordAudit(tx, {
        actor: { userId, email },
        action: "account.change_email",
        subject: { type: "user", id: userId },
        before: { email: claims.email },
        after: { email },
        requestId,
      });
    });
    return { ok: true, kind: "email-changed", email, headers };
  }
  const email = claims.email ?? "";
  if (userId)
    await recordAudit(db, {
      actor: { userId, email },
      action: "account.verify_email",
      subject: { type: "user", id: userId },
      requestId,
    });
  return { ok: true, kind: "verified", email, headers };
}
