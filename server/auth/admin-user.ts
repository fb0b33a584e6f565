import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client";
import { accounts, sessions, users } from "../db/schema";
import type { Auth } from "./auth";
import { signUpSchema } from "./forms";

export type AdminResult =
  | { kind: "created" }
  | { kind: "already-admin"; createdAt: Date }
  | { kind: "promoted"; createdAt: Date; wasAdmin: boolean; passwordChanged: boolean; sessionsRevoked: number };

/** Thrown for an email or password the sign-up form would refuse too. */
export class InvalidAdminInput extends Error {
  override name = "InvalidAdminInput";
}

/**
 * Thrown when EMAIL already has an account and `--promote` was not given. Anyone can sign up with
 * any address (there is no email verification yet), so an account under the admin's address may
 * be a stranger's, waiting to be promoted: the operator has to say they know it is theirs.
 */
export class AccountExists extends Error {
  override name = "AccountExists";
}

const day = (date: Date) => date.toISOString().slice(0, 10);

function parsePassword(password: string | undefined): string {
  const parsed = signUpSchema.shape.password.safeParse(password ?? "");
  if (!parsed.success) throw new InvalidAdminInput(z.prettifyError(parsed.error).replace(/^✖ /, ""));
  return parsed.data;
}

/**
 * `npm run user:create-admin`: makes EMAIL an admin. Without an account, one is created with
 * `password`, under the same rules as the sign-up form. An existing account is changed only with
 * `promote`: it becomes an admin and every session it has is ended (whoever holds one must sign in
 * again, now seen by the operator); its password changes only with `resetPassword`.
 */
export async function createOrPromoteAdmin(
  auth: Auth,
  db: Database,
  input: { email: string; password?: string; promote?: boolean; resetPassword?: boolean },
): Promise<AdminResult> {
  const email = signUpSchema.shape.email.safeParse(input.email);
  if (!email.success) throw new InvalidAdminInput(`"${input.email}": ${z.prettifyError(email.error)}`);
  const [existing] = await db
    .select({ id: users.id, role: users.role, isAnonymous: users.isAnonymous, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.email, email.data));
  if (existing && !existing.isAnonymous) {
    const wasAdmin = existing.role === "admin";
    if (!input.promote) {
      if (wasAdmin && !input.resetPassword) return { kind: "already-admin", createdAt: existing.createdAt };
      throw new AccountExists(
        `An account with ${email.data} already exists (created ${day(existing.createdAt)}). Anyone can sign up ` +
          `with any address, so check that this account is yours, then run again with --promote to make it an ` +
          `admin (its password is kept unless you also pass --reset-password; its sessions are signed out).`,
      );
    }
    const password = input.resetPassword ? parsePassword(input.password) : undefined;
    const hash = password === undefined ? undefined : await (await auth.$context).password.hash(password);
    return db.transaction(async (tx) => {
      if (!wasAdmin) await tx.update(users).set({ role: "admin" }).where(eq(users.id, existing.id));
      const revoked = await tx.delete(sessions).where(eq(sessions.userId, existing.id)).returning({ id: sessions.id });
      // The password of the email sign-in ("credential") account, hashed the way better-auth checks it.
      const changed =
        hash === undefined
          ? []
          : await tx
              .update(accounts)
              .set({ password: hash, updatedAt: new Date() })
              .where(and(eq(accounts.userId, existing.id), eq(accounts.providerId, "credential")))
              .returning({ id: accounts.id });
      return {
        kind: "promoted",
        createdAt: existing.createdAt,
        wasAdmin,
        passwordChanged: changed.length > 0,
        sessionsRevoked: revoked.length,
      };
    });
  }
  const password = parsePassword(input.password);
  const { user } = await auth.api.signUpEmail({
    body: { email: email.data, password, name: email.data.split("@")[0] ?? "Admin" },
  });
  // An admin created from the command line is trusted with the address given: confirmed at once.
  const made = await db
    .update(users)
    .set({ role: "admin", emailVerified: true })
    .where(eq(users.id, user.id))
    .returning({ id: users.id });
  // An address taken since the check above gets a made-up user from better-auth (autoSignIn off,
  // server/auth/auth.ts), and nothing is created.
  if (made.length === 0)
    throw new AccountExists(`An account with ${email.data} was created meanwhile. Run again to see what to do.`);
  return { kind: "created" };
}

/** Whether EMAIL already has a (non-anonymous) account: the CLI asks for a password only if not. */
export async function accountExists(db: Database, email: string): Promise<boolean> {
  const parsed = signUpSchema.shape.email.safeParse(email);
  if (!parsed.success) return false;
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, parsed.data)).limit(1);
  return rows.length > 0;
}
