import { SITE_NAME } from "../../domain/site";
import type { Database } from "../db/client";
import { enqueueEmail, kickEmail } from "../email";
import { safeRedirect } from "./redirect";

/**
 * The account emails better-auth asks for (password reset, address verification, a new address
 * to confirm), queued in the outbox like every other email (ADR 010). better-auth calls these
 * from inside its own endpoints, on its own connection, so they cannot join the transaction that
 * wrote the token: the row is queued right after, and the worker kicked (ADR 013). The links
 * point at our own pages under the configured public URL, never at better-auth's /api/auth paths,
 * which are not mounted (ADR 006).
 */

/** A reset link is good for one hour and one use (better-auth deletes the token when spent). */
export const RESET_TOKEN_SECONDS = 60 * 60;
/** A verification link (new account, or a new address) is good for 24 hours. */
export const VERIFY_TOKEN_SECONDS = 24 * 60 * 60;

export function accountLink(baseURL: string, path: string, token: string): string {
  const url = new URL(path, baseURL);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * Where the person was heading when they signed up (a claim, say), from the callbackURL that
 * better-auth puts in its own link, as a path on this site; undefined for the home page.
 */
function callbackOf(betterAuthUrl: string | undefined): string | undefined {
  if (!betterAuthUrl) return undefined;
  try {
    const target = safeRedirect(new URL(betterAuthUrl).searchParams.get("callbackURL"), "/");
    return target === "/" ? undefined : target;
  } catch {
    return undefined;
  }
}

/**
 * A confirmation link to our /verify-email page. It carries the sign-up's destination as
 * `redirectTo`, so that the destination survives the confirmation and the sign-in after it.
 */
export function verifyLink(baseURL: string, token: string, betterAuthUrl?: string): string {
  const link = new URL(accountLink(baseURL, "/verify-email", token));
  const target = callbackOf(betterAuthUrl);
  if (target) link.searchParams.set("redirectTo", target);
  return link.toString();
}

/** The sign-in page, going on to `redirectTo` when given. */
export function signInLink(baseURL: string, redirectTo?: string): string {
  const link = new URL("/login", baseURL);
  if (redirectTo) link.searchParams.set("redirectTo", redirectTo);
  return link.toString();
}

interface Recipient {
  email: string;
  name: string;
}

async function send(db: Database, message: Parameters<typeof enqueueEmail>[1]): Promise<void> {
  await enqueueEmail(db, message);
  kickEmail();
}

export function passwordResetEmail(db: Database, to: Recipient, link: string) {
  return send(db, {
    kind: "account.password-reset",
    to: to.email,
    subject: `Reset your ${SITE_NAME} password`,
    text: [
      `Hello ${to.name},`,
      "",
      "Someone, hopefully you, asked to reset the password of your account. Choose a new one here:",
      "",
      link,
      "",
      "The link works once and for one hour. If you did not ask, ignore this email: your password stays as it is.",
    ].join("\n"),
  });
}

export function verifyAddressEmail(db: Database, to: Recipient, link: string, kind: "new-account" | "new-address") {
  const newAddress = kind === "new-address";
  return send(db, {
    kind: newAddress ? "account.email-change" : "account.verify-email",
    to: to.email,
    subject: newAddress ? `Confirm your new ${SITE_NAME} email address` : `Confirm your email for ${SITE_NAME}`,
    text: [
      `Hello ${to.name},`,
      "",
      newAddress
        ? "You asked to sign in with this address from now on. Confirm it here, and the change is made:"
        : "Confirm that this address is yours, so that you can claim your facility's listing:",
      "",
      link,
      "",
      "The link works for 24 hours. If you did not ask for this, ignore this email.",
    ].join("\n"),
  });
}

/**
 * Sign-up with an address that already has an account changes nothing and answers as for a new
 * address ("check your email"), so the answer tells nobody that the account exists; the owner of
 * the address gets this email instead (docs/product.md section 10).
 */
export function existingAccountEmail(db: Database, to: Recipient, links: { signIn: string; reset: string }) {
  return send(db, {
    kind: "account.sign-up-existing",
    to: to.email,
    subject: `You already have a ${SITE_NAME} account`,
    text: [
      `Hello ${to.name},`,
      "",
      "Someone, perhaps you, just tried to create an account with this email address. It already has an account, so nothing was created or changed.",
      "",
      "If it was you, sign in here:",
      "",
      links.signIn,
      "",
      "Forgot your password? Choose a new one here:",
      "",
      links.reset,
      "",
      "If it was not you, ignore this email: your account stays as it is.",
    ].join("\n"),
  });
}

/**
 * better-auth's verification tokens are signed JWTs; a token for an email change carries the new
 * address as `updateTo`. Only read to word the email (the signature is checked when it is used).
 */
export function isEmailChangeToken(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      updateTo?: unknown;
    };
    return typeof payload.updateTo === "string";
  } catch {
    return false;
  }
}
