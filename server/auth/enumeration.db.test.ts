import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createAccount, setUpAuthDatabase, siteRequest } from "../../tests/setup/auth";
import { verifyEmailPage } from "../account/pages";
import { accounts, emailOutbox, sessions, users, verifications } from "../db/schema";
import { settleAccountWork, runAccountWorkWith, type AccountTask } from "./account-work";
import { inMemoryLimits, signIn, useRateLimits } from "./forms";
import { forgotPasswordAction, signUpAction } from "./pages";

/**
 * docs/product.md section 10: neither "Forgot password?" nor sign-up may tell a visitor whether an
 * address has an account. Their answers are compared whole, and the work done before answering is
 * compared by what it wrote: nothing but the limits, the account work being queued for after the
 * answer (server/auth/account-work.ts). No timing here: timings belong to benchmarks.
 */
const setup = setUpAuthDatabase();
const KNOWN = "owner.of.this@example.com";
const UNKNOWN = "never.seen@example.com";

afterEach(() => runAccountWorkWith());
afterAll(() => settleAccountWork());

/** Holds the queued account work, so a test sees what the request alone did. */
function holdAccountWork() {
  const held: { label: string; task: AccountTask }[] = [];
  runAccountWorkWith((label, task) => held.push({ label, task }));
  return {
    labels: () => held.map((h) => h.label),
    async run() {
      for (const { task } of held.splice(0)) await task();
    },
  };
}

/** What the account work writes; a request that only queued it leaves all of these as they were. */
async function accountRows() {
  const db = setup.db();
  const size = async (
    table: typeof users | typeof accounts | typeof verifications | typeof emailOutbox | typeof sessions,
  ) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    users: await size(users),
    accounts: await size(accounts),
    verifications: await size(verifications),
    outbox: await size(emailOutbox),
    sessions: await size(sessions),
  };
}

/** The answer with the address typed in it made the same, the only part that may differ. */
const shape = (answer: unknown, email: string) => JSON.stringify(answer).replaceAll(email, "ADDRESS");

async function mailsTo(to: string) {
  return setup.db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
}

function post(path: string, form: Record<string, string>, ip: string) {
  return siteRequest(path, { method: "POST", form, ip });
}

describe("which addresses have accounts stays unknown", () => {
  it("answers 'Forgot password?' alike for a known and an unknown address, and looks nothing up before answering", async () => {
    await createAccount(setup.auth, setup.db(), { email: KNOWN, name: "Pat Owner" });
    await setup.db().delete(emailOutbox); // its confirmation email
    const work = holdAccountWork();
    const before = await accountRows();
    const known = await forgotPasswordAction(post("/forgot-password", { email: KNOWN }, "198.51.100.101"));
    const unknown = await forgotPasswordAction(post("/forgot-password", { email: UNKNOWN }, "198.51.100.102"));

    expect(shape(known, KNOWN)).toBe(shape(unknown, UNKNOWN));
    expect(known).toEqual({ ok: true, sent: true, email: KNOWN });
    // The same work on the request for both: one queued task each, and nothing written yet.
    expect(work.labels()).toEqual(["password-reset", "password-reset"]);
    expect(await accountRows()).toEqual(before);

    await work.run();
    expect((await mailsTo(KNOWN)).map((m) => m.kind)).toEqual(["account.password-reset"]);
    expect(await mailsTo(UNKNOWN)).toEqual([]);
  });

  it("answers sign-up alike, signs nobody in, creates only the new account and tells the owner of the known one", async () => {
    useRateLimits(inMemoryLimits());
    await setup.db().delete(emailOutbox);
    const work = holdAccountWork();
    const before = await accountRows();
    const form = (email: string) => ({
      name: "Sam Newcomer",
      email,
      password: "a long enough password",
      redirectTo: "/owner/claim/abc123",
    });
    const known = await signUpAction(post("/signup", form(KNOWN), "198.51.100.111"), "/");
    const unknown = await signUpAction(post("/signup", form(UNKNOWN), "198.51.100.112"), "/");

    // Status, body and headers (no cookie, no redirect) are the same, but for the address itself.
    expect(shape(known, KNOWN)).toBe(shape(unknown, UNKNOWN));
    expect(unknown).toMatchObject({ data: { sent: { email: UNKNOWN } } });
    expect(new Headers((unknown as { init?: ResponseInit | null }).init?.headers).has("set-cookie")).toBe(false);
    expect(work.labels()).toEqual(["sign-up", "sign-up"]);
    expect(await accountRows()).toEqual(before);

    await work.run();
    const rows = await setup.db().select().from(users).where(eq(users.email, KNOWN));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe("Pat Owner");
    // The known address's password is unchanged, and its owner is told how to sign in or reset.
    expect(
      (
        await signIn(
          siteRequest("/login", { ip: "198.51.100.113" }),
          toForm({ email: KNOWN, password: "correct horse battery" }),
        )
      ).ok,
    ).toBe(true);
    const [notice] = await mailsTo(KNOWN);
    expect(notice).toMatchObject({ kind: "account.sign-up-existing" });
    expect(notice!.textBody).toContain("http://localhost:3000/login?redirectTo=%2Fowner%2Fclaim%2Fabc123");
    expect(notice!.textBody).toContain("http://localhost:3000/forgot-password");

    // The new account exists, unconfirmed and signed out, with a confirmation link that keeps the destination.
    const [created] = await setup.db().select().from(users).where(eq(users.email, UNKNOWN));
    expect(created).toMatchObject({ name: "Sam Newcomer", emailVerified: false });
    expect(await setup.db().select().from(sessions).where(eq(sessions.userId, created!.id))).toEqual([]);
    const [confirm] = await mailsTo(UNKNOWN);
    expect(confirm).toMatchObject({ kind: "account.verify-email" });
    const link = /http:\/\/localhost:3000\/verify-email\?\S+/.exec(confirm!.textBody)![0];
    expect(new URL(link).searchParams.get("redirectTo")).toBe("/owner/claim/abc123");

    // Opening it confirms the address and sends the person to sign in, and on to the claim.
    const opened = (await verifyEmailPage(
      siteRequest(new URL(link).pathname + new URL(link).search),
      null,
    )) as Response;
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/login?redirectTo=%2Fowner%2Fclaim%2Fabc123");
    const [confirmed] = await setup
      .db()
      .select()
      .from(users)
      .where(and(eq(users.id, created!.id), eq(users.emailVerified, true)));
    expect(confirmed).toBeDefined();
  });

  it("limits sign-ups per email address alike, whether or not it has an account", async () => {
    useRateLimits(inMemoryLimits());
    runAccountWorkWith(() => {});
    const attempt = (email: string, i: number) =>
      signUpAction(post("/signup", { name: "N", email, password: "long enough" }, `198.51.100.${120 + i}`), "/");
    const statuses = async (email: string) => {
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) out.push(shape(await attempt(email, i), email));
      return out;
    };
    expect(await statuses(KNOWN)).toEqual(await statuses("another.unknown@example.com"));
    expect(await attempt(KNOWN, 9)).toMatchObject({ init: { status: 429 } });
  });
});

function toForm(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}
