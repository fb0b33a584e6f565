/**
 * npm run user:create-admin on an embedded database in a temporary DATA_DIR, in this process but
 * for one real command line (a usage error: it ends before opening the database, which costs a new
 * process far more than this one); then the account signs in through the same code the /login form
 * uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, installTestAuth, siteRequest } from "../tests/setup/auth";
import { runCommand, runScript } from "../tests/setup/cli";
import { createAdminCommand } from "./commands/create-admin";
import { signIn } from "../server/auth/forms";
import { openDatabase } from "../server/db/client";
import { users } from "../server/db/schema";
import { eq } from "drizzle-orm";

const SLOW = 120_000;
let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "create-admin-cli-"));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Options = { env?: Record<string, string>; input?: string };
const createAdmin = (args: string[], options: Options = {}) =>
  runCommand(createAdminCommand, args, { dataDir, ...options });
/** The same, as `npm run user:create-admin` in a child process. */
const createAdminSpawned = (args: string[], options: Options = {}) =>
  runScript("create-admin.ts", args, { dataDir, ...options });

describe("npm run user:create-admin", { timeout: SLOW }, () => {
  it("refuses a missing or malformed email with the usage (exit 1)", async () => {
    const missing = await createAdminSpawned([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Missing EMAIL\.\n\nUsage: npm run user:create-admin -- EMAIL/);
    const bad = await createAdmin(["not-an-email"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^"not-an-email" is not an email address\./);
  });

  it("creates an admin from ADMIN_PASSWORD, refuses a short piped one, and leaves an existing admin alone without asking", async () => {
    const short = await createAdmin(["piped@example.com"], { input: "short\n" });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("Use at least 8 characters for your password.");

    const created = await createAdmin(["Boss@Example.com"], { env: { ADMIN_PASSWORD: "a long password" } });
    expect(created).toMatchObject({
      code: 0,
      stdout: "Created the admin account boss@example.com. Sign in at /login.\n",
    });
    const again = await createAdmin(["boss@example.com"]);
    expect(again).toMatchObject({ code: 0, stdout: "boss@example.com is already an admin; nothing changed.\n" });

    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      installTestAuth(handle.db);
      const form = new FormData();
      form.set("email", "boss@example.com");
      form.set("password", "a long password");
      expect((await signIn(siteRequest("/login", { ip: "10.1.2.3" }), form)).ok).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it("refuses an account somebody else may have registered, and with --promote says what changed", async () => {
    const handle = await openDatabase({ kind: "pglite", dataDir });
    let createdOn: string;
    try {
      const auth = installTestAuth(handle.db);
      const { userId } = await createAccount(auth, handle.db, { email: "member@example.com", password: "members own" });
      const [row] = await handle.db.select().from(users).where(eq(users.id, userId));
      createdOn = row!.createdAt.toISOString().slice(0, 10);
    } finally {
      await handle.close();
    }

    const refused = await createAdmin(["member@example.com"], { env: { ADMIN_PASSWORD: "attacker chose" } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`An account with member@example.com already exists (created ${createdOn}).`);
    expect(refused.stderr).toContain("run again with --promote");

    const promoted = await createAdmin(["member@example.com", "--promote"], {
      env: { ADMIN_PASSWORD: "not applied" },
    });
    expect(promoted).toMatchObject({ code: 0, stderr: "" });
    expect(promoted.stdout).toBe(
      [
        `member@example.com is now an admin (it was not). The account was created on ${createdOn}.`,
        "Signed out its 1 session; it must sign in again.",
        "Password unchanged (ADMIN_PASSWORD was not used; pass --reset-password to set a new one). Name and email unchanged.",
        "",
      ].join("\n"),
    );

    const reset = await createAdmin(["member@example.com", "--promote", "--reset-password"], {
      input: "a fresh password\n",
    });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain("member@example.com was already an admin.");
    expect(reset.stdout).toContain("Password changed.");

    const check = await openDatabase({ kind: "pglite", dataDir });
    try {
      installTestAuth(check.db);
      const attempt = (password: string) => {
        const form = new FormData();
        form.set("email", "member@example.com");
        form.set("password", password);
        return signIn(siteRequest("/login", { ip: "10.1.2.4" }), form);
      };
      expect((await attempt("members own")).ok).toBe(false);
      expect((await attempt("a fresh password")).ok).toBe(true);
    } finally {
      await check.close();
    }
  });
});
