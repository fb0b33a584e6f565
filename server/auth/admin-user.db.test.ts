import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, installTestAuth } from "../../tests/setup/auth";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { sessions, users } from "../db/schema";
import { AccountExists, InvalidAdminInput, createOrPromoteAdmin } from "./admin-user";
import type { Auth } from "./auth";
import { signIn } from "./forms";
import { siteRequest } from "../../tests/setup/auth";

let handle: DatabaseHandle;
let auth: Auth;
beforeAll(async () => {
  handle = await createTestDatabase();
  auth = installTestAuth(handle.db);
});
afterAll(async () => {
  await handle.close();
});

const sessionsOf = async (userId: string) =>
  (await handle.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;
let ip = 0;
async function signsIn(email: string, password: string): Promise<boolean> {
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  return (await signIn(siteRequest("/login", { ip: `10.8.0.${++ip}` }), form)).ok;
}

const roleOf = async (email: string) =>
  (await handle.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role;

describe("npm run user:create-admin", () => {
  it("creates a new admin who can sign in with the given password", async () => {
    expect(await createOrPromoteAdmin(auth, handle.db, { email: "Boss@Example.com", password: "long enough" })).toEqual(
      { kind: "created" },
    );
    expect(await roleOf("boss@example.com")).toBe("admin");
    const form = new FormData();
    form.set("email", "boss@example.com");
    form.set("password", "long enough");
    expect((await signIn(siteRequest("/login", { ip: "10.9.9.9" }), form)).ok).toBe(true);
    expect(await createOrPromoteAdmin(auth, handle.db, { email: "boss@example.com" })).toMatchObject({
      kind: "already-admin",
    });
  });

  it("refuses an existing account without --promote, saying when it was created and how to go on", async () => {
    const member = await createAccount(auth, handle.db, { email: "member@example.com" });
    const refused = await createOrPromoteAdmin(auth, handle.db, { email: "Member@Example.com" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AccountExists);
    const [row] = await handle.db.select().from(users).where(eq(users.id, member.userId));
    expect((refused as Error).message).toContain(row!.createdAt.toISOString().slice(0, 10));
    expect((refused as Error).message).toMatch(/--promote/);
    expect(await roleOf("member@example.com")).toBe("user");
    expect(await sessionsOf(member.userId)).toBe(1);
  });

  it("with --promote: makes it an admin, signs out its sessions and keeps its password", async () => {
    const { userId } = await createAccount(auth, handle.db, { email: "keeper@example.com", password: "kept password" });
    await createAccount(auth, handle.db, { email: "bystander@example.com" });
    const result = await createOrPromoteAdmin(auth, handle.db, {
      email: "keeper@example.com",
      password: "ignored password",
      promote: true,
    });
    const [row] = await handle.db.select().from(users).where(eq(users.id, userId));
    expect(result).toEqual({
      kind: "promoted",
      createdAt: row!.createdAt,
      wasAdmin: false,
      passwordChanged: false,
      sessionsRevoked: 1,
    });
    expect(await roleOf("keeper@example.com")).toBe("admin");
    expect(await sessionsOf(userId)).toBe(0);
    expect(await roleOf("bystander@example.com")).toBe("user");
    expect(await signsIn("keeper@example.com", "kept password")).toBe(true);
    expect(await signsIn("keeper@example.com", "ignored password")).toBe(false);
  });

  it("with --promote --reset-password: sets the new password and only then", async () => {
    const { userId } = await createAccount(auth, handle.db, { email: "reset@example.com", password: "old password" });
    await expect(
      createOrPromoteAdmin(auth, handle.db, { email: "reset@example.com", promote: true, resetPassword: true }),
    ).rejects.toThrow(/at least 8 characters/);
    expect(await roleOf("reset@example.com")).toBe("user");
    const result = await createOrPromoteAdmin(auth, handle.db, {
      email: "reset@example.com",
      password: "new password",
      promote: true,
      resetPassword: true,
    });
    expect(result).toMatchObject({ kind: "promoted", passwordChanged: true, sessionsRevoked: 1 });
    expect(await sessionsOf(userId)).toBe(0);
    expect(await signsIn("reset@example.com", "old password")).toBe(false);
    expect(await signsIn("reset@example.com", "new password")).toBe(true);
  });

  it("refuses a bad email or a short password and writes nothing", async () => {
    await expect(createOrPromoteAdmin(auth, handle.db, { email: "nope", password: "long enough" })).rejects.toThrow(
      InvalidAdminInput,
    );
    await expect(
      createOrPromoteAdmin(auth, handle.db, { email: "new@example.com", password: "short" }),
    ).rejects.toThrow(/at least 8 characters/);
    expect(await roleOf("new@example.com")).toBeUndefined();
  });
});
