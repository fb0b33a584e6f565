import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { Auth } from "./auth";
import { signUpSchema } from "./forms";

export type AdminResult = "created" | "promoted" | "already-admin";

/** Thrown for an email or password the sign-up form would refuse too. */
export class InvalidAdminInput extends Error {
  override name = "InvalidAdminInput";
}

/**
 * `npm run user:create-admin`: makes EMAIL an admin. An existing account (signed up on the site)
 * is promoted and keeps its password; otherwise a new account is created with `password`, under
 * the same rules as the sign-up form.
 */
export async function createOrPromoteAdmin(
  auth: Auth,
  db: Database,
  input: { email: string; password?: string },
): Promise<AdminResult> {
  const email = signUpSchema.shape.email.safeParse(input.email);
  if (!email.success) throw new InvalidAdminInput(`"${input.email}": ${z.prettifyError(email.error)}`);
  const [existing] = await db
    .select({ id: users.id, role: users.role, isAnonymous: users.isAnonymous })
    .from(users)
    .where(eq(users.email, email.data));
  if (existing && !existing.isAnonymous) {
    if (existing.role === "admin") return "already-admin";
    await db.update(users).set({ role: "admin" }).where(eq(users.id, existing.id));
    return "promoted";
  }
  const password = signUpSchema.shape.password.safeParse(input.password ?? "");
  if (!password.success) throw new InvalidAdminInput(z.prettifyError(password.error).replace(/^✖ /, ""));
  const { user } = await auth.api.signUpEmail({
    body: { email: email.data, password: password.data, name: email.data.split("@")[0] ?? "Admin" },
  });
  await db.update(users).set({ role: "admin" }).where(eq(users.id, user.id));
  return "created";
}

/** Whether EMAIL already has a (non-anonymous) account: the CLI asks for a password only if not. */
export async function accountExists(db: Database, email: string): Promise<boolean> {
  const parsed = signUpSchema.shape.email.safeParse(email);
  if (!parsed.success) return false;
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, parsed.data)).limit(1);
  return rows.length > 0;
}
