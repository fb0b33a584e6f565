import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, anonymous } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements, userAc } from "better-auth/plugins/admin/access";
import { and, eq } from "drizzle-orm";
import { SITE_NAME } from "../../domain/site";
import { getConfig, publicUrl } from "../config";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { accounts, sessions, users, verifications } from "../db/schema";
import { logger } from "../logger";
import {
  RESET_TOKEN_SECONDS,
  VERIFY_TOKEN_SECONDS,
  accountLink,
  isEmailChangeToken,
  passwordResetEmail,
  verifyAddressEmail,
  verifyLink,
} from "./account-emails";
import { resolveAuthSecret } from "./secret";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** A remembered session lasts 30 days and is extended once a day while in use. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** The auth cookies' names start with this (`rvs.session_token`; `__Secure-` first over https). */
export const AUTH_COOKIE_PREFIX = "rvs";

const ac = createAccessControl(defaultStatements);
/** better-auth's admin plugin: only `admin` may use its user-management endpoints. */
const roles = { admin: adminAc, user: userAc, business_owner: userAc };

export interface AnonymousLink {
  anonymousUserId: string;
  userId: string;
}
type LinkListener = (link: AnonymousLink, db: Database) => Promise<void>;
const linkListeners: LinkListener[] = [];

/**
 * Runs when an anonymous visitor signs up or signs in: whatever was recorded under the anonymous
 * user (analytics, a pending claim) can move to the real account before the anonymous one is
 * deleted.
 */
export function onAnonymousLinked(listener: LinkListener): void {
  linkListeners.push(listener);
}

export interface AuthOptions {
  db: Database;
  secret: string;
  /** The site's public URL; cookies are Secure when it is https. */
  baseURL: string;
}

export function createAuth({ db, secret, baseURL }: AuthOptions) {
  return betterAuth({
    appName: SITE_NAME,
    baseURL,
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // Sign-up signs nobody in and answers alike for a known address (server/auth/forms.ts): the
      // new account signs in after confirming its address; a known address gets no account.
      autoSignIn: false,
      // Account recovery (ADR 013): our /forgot-password and /reset-password pages call these
      // endpoints on the server; the email goes through the outbox with a link to our own page.
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        if ((user as { isAnonymous?: boolean }).isAnonymous) return;
        await passwordResetEmail(db, user, accountLink(baseURL, "/reset-password", token));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: VERIFY_TOKEN_SECONDS,
      sendVerificationEmail: async ({ user, token, url }) => {
        if ((user as { isAnonymous?: boolean }).isAnonymous) return;
        const kind = isEmailChangeToken(token) ? "new-address" : "new-account";
        await verifyAddressEmail(db, user, verifyLink(baseURL, token, url), kind);
      },
    },
    session: {
      expiresIn: SESSION_MAX_AGE_SECONDS,
      updateAge: 24 * 60 * 60,
      // The header reads the session on every page; a signed 60 s cookie copy spares the database.
      // Guards read it fresh (server/auth/viewer.ts).
      cookieCache: { enabled: true, maxAge: 60 },
    },
    user: {
      additionalFields: { lastLoginAt: { type: "date", required: false, input: false } },
      // A new address is confirmed by a link sent to it (server/account/settings.ts).
      changeEmail: { enabled: true },
    },
    // Same-origin only: a state-changing request must come from a page of this very site.
    trustedOrigins: (request) => (request ? [new URL(request.url).origin] : [baseURL]),
    // Sign-in and sign-up are limited in server/auth/forms.ts, per IP and per account.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      // server/app.ts replaces x-client-ip with the address Express trusts (TRUST_PROXY aware).
      ipAddress: { ipAddressHeaders: ["x-client-ip"] },
      useSecureCookies: baseURL.startsWith("https://"),
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
    },
    logger: {
      disabled: Boolean(process.env.VITEST),
      log: (level, message, ...args) => logger[level]({ args }, message),
    },
    databaseHooks: {
      session: {
        create: {
          after: async (session) => {
            await db
              .update(users)
              .set({ lastLoginAt: new Date() })
              .where(and(eq(users.id, session.userId), eq(users.isAnonymous, false)));
          },
        },
      },
    },
    plugins: [
      anonymous({
        emailDomainName: "anonymous.invalid",
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          const link = { anonymousUserId: anonymousUser.user.id, userId: newUser.user.id };
          for (const listener of linkListeners) await listener(link, db);
          logger.info(link, "linked an anonymous session to an account");
        },
      }),
      admin({ ac, roles, defaultRole: "user", adminRoles: ["admin"] }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

let current: Auth | undefined;

/** The process-wide auth instance over the connected database (created on first use). */
export function getAuth(): Auth {
  if (!current) {
    const config = getConfig();
    current = createAuth({
      db: getDatabase(),
      secret: resolveAuthSecret(config),
      baseURL: publicUrl(config),
    });
  }
  return current;
}

/** For tests and command-line tools that bring their own database. */
export function setAuth(auth: Auth | undefined): void {
  current = auth;
}
