import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, installTestAuth } from "../../tests/setup/auth";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { users } from "../db/schema";
import { InvalidAdminInput, createOrPromoteAdmin } from "./admin-user";
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

const roleOf = async (email: string) =>
  (await handle.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role;

describe("npm run user:create-admin", () => {
  it("creates a new admin who can sign in with the given password", async () => {
    expect(await createOrPromoteAdmin(auth, handle.db, { email: "Boss@Example.com", password: "long enough" })).toBe(
      "created",
    );
    expect(await roleOf("boss@example.com")).toBe("admin");
    const form = new FormData();
    form.set("email", "boss@example.com");
    form.set("password", "long enough");
    expect((await signIn(siteRequest("/login", { ip: "10.9.9.9" }), form)).ok).toBe(true);
    expect(await createOrPromoteAdmin(auth, handle.db, { email: "boss@example.com" })).toBe("already-admin");
  });

  it("promotes an existing account and keeps its password", async () => {
    await createAccount(auth, handle.db, { email: "member@example.com" });
    expect(await createOrPromoteAdmin(auth, handle.db, { email: "member@example.com" })).toBe("promoted");
    expect(await roleOf("member@example.com")).toBe("admin");
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
