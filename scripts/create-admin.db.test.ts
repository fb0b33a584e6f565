/**
 * npm run user:create-admin as a real command line, on an embedded database in a temporary
 * DATA_DIR; then the account signs in through the same code the /login form uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installTestAuth, siteRequest } from "../tests/setup/auth";
import { runScript } from "../tests/setup/cli";
import { signIn } from "../server/auth/forms";
import { openDatabase } from "../server/db/client";

const SLOW = 120_000;
let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "create-admin-cli-"));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const createAdmin = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  runScript("create-admin.ts", args, { dataDir, ...options });

describe("npm run user:create-admin", { timeout: SLOW }, () => {
  it("refuses a missing or malformed email with the usage (exit 1)", async () => {
    const missing = await createAdmin([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Missing EMAIL\.\n\nUsage: npm run user:create-admin -- EMAIL/);
    const bad = await createAdmin(["not-an-email"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^"not-an-email" is not an email address\./);
  });

  it("creates an admin from ADMIN_PASSWORD, refuses a short piped one, and promotes without asking", async () => {
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
});
