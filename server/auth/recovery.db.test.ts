import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { createAccount, installTestAuth, siteRequest } from "../../tests/setup/auth";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { auditLog, emailOutbox, rateLimits, sessions, verifications } from "../db/schema";
import { settleAccountWork } from "./account-work";
import type { Auth } from "./auth";
import { signIn } from "./forms";
import { RECOVERY_LIMITS, RECOVERY_MESSAGES, requestPasswordReset, resetPassword, resetTokenOwner } from "./recovery";

let handle: DatabaseHandle;
let auth: Auth;
let userId: string;
const EMAIL = "reset.me@example.com";
const OLD = "the old password";
const NEW = "a brand new password";

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  auth = installTestAuth(handle.db);
  ({ userId } = await createAccount(auth, handle.db, { email: EMAIL, password: OLD, name: "Robin" }));
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

async function resetMails(to: string) {
  return handle.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, "account.password-reset")));
}

function tokenOf(text: string): string {
  const link = /https?:\/\/\S+\/reset-password\?token=(\S+)/.exec(text);
  expect(link).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

/** Asks, and waits for the work done after the answer (server/auth/account-work.ts). */
async function ask(email: string, ip: string) {
  const answer = await requestPasswordReset(
    handle.db,
    siteRequest("/forgot-password", { ip, method: "POST" }),
    form({ email }),
  );
  await settleAccountWork();
  return answer;
}

describe("forgot password", () => {
  it("answers alike for a known and an unknown address, and mails only the known one", async () => {
    const known = await ask("Reset.Me@Example.com", "198.51.100.10");
    const unknown = await ask("nobody@example.com", "198.51.100.10");
    expect(known).toEqual({ ok: true, sent: true, email: EMAIL });
    expect(unknown).toEqual({ ok: true, sent: true, email: "nobody@example.com" });
    const mails = await resetMails(EMAIL);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain("http://localhost:3000/reset-password?token=");
    expect(await resetMails("nobody@example.com")).toHaveLength(0);
  });

  it("names a bad address", async () => {
    const bad = await ask("not-an-address", "198.51.100.11");
    expect(bad).toMatchObject({ init: { status: 400 }, data: { fieldErrors: { email: [expect.any(String)] } } });
  });

  it("limits requests per email address and per IP", async () => {
    const address = "limited@example.com";
    for (let i = 0; i < RECOVERY_LIMITS.requestPerEmail.max; i++) {
      expect(await ask(address, `198.51.100.${20 + i}`)).toMatchObject({ ok: true });
    }
    const limited = await ask(address, "198.51.100.40");
    expect(limited).toMatchObject({ init: { status: 429 }, data: { formError: expect.stringMatching(/Too many/) } });

    for (let i = 0; i < RECOVERY_LIMITS.requestPerIp.max; i++) {
      expect(await ask(`someone${i}@example.com`, "198.51.100.50")).toMatchObject({ ok: true });
    }
    expect(await ask("one-more@example.com", "198.51.100.50")).toMatchObject({ init: { status: 429 } });
  });
});

describe("reset password", () => {
  it("sets the new password with a valid link, once, signs out everywhere and audits", async () => {
    await handle.db.delete(emailOutbox);
    await ask(EMAIL, "198.51.100.60");
    const token = tokenOf((await resetMails(EMAIL))[0]!.textBody);
    expect(await resetTokenOwner(token)).toBe(userId);
    const req = () => siteRequest("/reset-password", { ip: "198.51.100.61", method: "POST" });

    const mismatch = await resetPassword(handle.db, req(), form({ token, password: NEW, confirmPassword: "other" }));
    expect(mismatch).toMatchObject({ data: { fieldErrors: { confirmPassword: [RECOVERY_MESSAGES.mismatch] } } });
    const short = await resetPassword(handle.db, req(), form({ token, password: "short", confirmPassword: "short" }));
    expect(short).toMatchObject({ data: { fieldErrors: { password: [expect.stringMatching(/at least 8/)] } } });

    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, userId))).not.toHaveLength(0);
    const done = await resetPassword(handle.db, req(), form({ token, password: NEW, confirmPassword: NEW }), "req-1");
    expect(done).toEqual({ ok: true });
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(0);

    const old = await signIn(siteRequest("/login"), form({ email: EMAIL, password: OLD }));
    expect(old.ok).toBe(false);
    const fresh = await signIn(siteRequest("/login"), form({ email: EMAIL, password: NEW }));
    expect(fresh.ok).toBe(true);

    const again = await resetPassword(handle.db, req(), form({ token, password: OLD, confirmPassword: OLD }));
    expect(again).toMatchObject({ data: { formError: RECOVERY_MESSAGES.expired } });
    expect(await resetTokenOwner(token)).toBeNull();

    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.action, "account.password_reset"));
    expect(audit).toEqual([
      expect.objectContaining({ actorId: userId, actorEmail: EMAIL, subjectId: userId, requestId: "req-1" }),
    ]);
    // The token itself is stored nowhere but in the verification row's key (and the email).
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("refuses an expired link", async () => {
    await handle.db.delete(emailOutbox);
    await ask(EMAIL, "198.51.100.70");
    const token = tokenOf((await resetMails(EMAIL))[0]!.textBody);
    await handle.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verifications.identifier, `reset-password:${token}`));
    expect(await resetTokenOwner(token)).toBeNull();
    const result = await resetPassword(
      handle.db,
      siteRequest("/reset-password", { ip: "198.51.100.71", method: "POST" }),
      form({ token, password: "yet another one", confirmPassword: "yet another one" }),
    );
    expect(result).toMatchObject({ init: { status: 400 }, data: { formError: RECOVERY_MESSAGES.expired } });
  });

  it("makes links that expire after one hour", async () => {
    await handle.db.delete(verifications);
    await handle.db.delete(rateLimits); // this address has asked three times already
    await ask(EMAIL, "198.51.100.80");
    const [row] = await handle.db
      .select()
      .from(verifications)
      .where(like(verifications.identifier, "reset-password:%"));
    const minutes = (row!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
  });
});
