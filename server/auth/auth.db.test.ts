import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { cookieFrom, createAccount, installTestAuth, siteRequest } from "../../tests/setup/auth";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { rateLimits, sessions, users } from "../db/schema";
import { ensureDemoData } from "../locations/demo-seed";
import { purgeIdleAnonymousUsers } from "./anonymous-cleanup";
import { settleAccountWork } from "./account-work";
import { onAnonymousLinked, setAuth, type Auth, type AnonymousLink } from "./auth";
import { MESSAGES, inMemoryLimits, shareRateLimits, signIn, signOut, signUp, useRateLimits } from "./forms";
import { signInAction } from "./pages";
import { AppError } from "../errors";
import { requireAdmin, requireListingOwner, requireOwner, requireUser } from "./guards";
import { grantListing } from "./ownership";
import { NO_VIEWER, getViewer } from "./viewer";

let handle: DatabaseHandle;
let auth: Auth;
let someLocation: string;
beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  await ensureDemoData(handle.db, { mode: "auto", count: 5 });
  auth = installTestAuth(handle.db);
  const [row] = await handle.db.query.locations.findMany({ columns: { placeId: true }, limit: 1 });
  someLocation = row!.placeId;
});
afterAll(async () => {
  await settleAccountWork();
  await disconnectDatabase().catch(() => {});
});

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

async function anonymousCookie(): Promise<string> {
  const response = await auth.api.signInAnonymous({ headers: siteRequest("/").headers, asResponse: true });
  expect(response.status).toBe(200);
  return cookieFrom(response.headers);
}

describe("the viewer", () => {
  it("is no one for a request without a session cookie, without asking the auth library", async () => {
    let asked = 0;
    setAuth({ api: { getSession: () => (asked++, Promise.resolve(null)) } } as unknown as Auth);
    try {
      expect(await getViewer(siteRequest("/"))).toBe(NO_VIEWER);
      expect(await getViewer(siteRequest("/", { cookie: "theme=dark; rvs.other=1" }))).toBe(NO_VIEWER);
      expect(asked).toBe(0);
      await getViewer(siteRequest("/", { cookie: "theme=dark; rvs.session_token=abc" }));
      expect(asked).toBe(1);
    } finally {
      setAuth(auth);
    }
  });
});

describe("sign-up and sign-in", () => {
  it("creates the account after answering, signs it in only through sign-in, and records the last login", async () => {
    const result = await signUp(
      siteRequest("/signup", { ip: "198.51.100.1" }),
      form({ name: "Dana", email: "Dana@Example.com ", password: "long enough" }),
    );
    expect(result).toEqual({ ok: true, sent: true, email: "dana@example.com" });
    await settleAccountWork();
    const [created] = await handle.db.select().from(users).where(eq(users.email, "dana@example.com"));
    expect(created).toMatchObject({ name: "Dana", emailVerified: false, lastLoginAt: null });
    const signedIn = await signIn(
      siteRequest("/login", { ip: "198.51.100.1" }),
      form({ email: "dana@example.com", password: "long enough" }),
    );
    if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    const cookie = cookieFrom(signedIn.headers);
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/HttpOnly/i);
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/SameSite=Lax/i);
    const viewer = await getViewer(siteRequest("/", { cookie }), { fresh: true });
    expect(viewer).toMatchObject({ email: "dana@example.com", role: "user", isOwner: true, isAdmin: false });
    const [row] = await handle.db.select().from(users).where(eq(users.email, "dana@example.com"));
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
  });

  it("names every problem of a bad sign-up", async () => {
    const bad = await signUp(
      siteRequest("/signup", { ip: "198.51.100.2" }),
      form({ name: "", email: "nope", password: "short" }),
    );
    expect(bad).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { name: MESSAGES.name, email: MESSAGES.email, password: MESSAGES.passwordLength },
    });
  });

  it("refuses a wrong password without saying which field was wrong", async () => {
    const wrong = await signIn(siteRequest("/login"), form({ email: "dana@example.com", password: "not the one" }));
    expect(wrong).toMatchObject({ ok: false, status: 401, formError: MESSAGES.wrongCredentials });
    const unknown = await signIn(siteRequest("/login"), form({ email: "nobody@example.com", password: "whatever1" }));
    expect(unknown).toMatchObject({ ok: false, status: 401, formError: MESSAGES.wrongCredentials });
    const empty = await signIn(siteRequest("/login"), form({ email: "", password: "" }));
    expect(empty).toMatchObject({
      status: 400,
      fieldErrors: { email: MESSAGES.email, password: MESSAGES.passwordRequired },
    });
    // Found by the fuzz suite: better-auth refused it (PASSWORD_TOO_LONG) and the page answered 500.
    const tooLong = await signIn(
      siteRequest("/login"),
      form({ email: "dana@example.com", password: "x".repeat(2617) }),
    );
    expect(tooLong).toMatchObject({ status: 400, fieldErrors: { password: MESSAGES.passwordTooLong } });
  });

  it("after sign-in, follows redirectTo only to a path on this site", async () => {
    const target = async (redirectTo: string) => {
      const request = siteRequest("/login", {
        method: "POST",
        ip: "198.51.100.5",
        form: { email: "dana@example.com", password: "long enough", redirectTo },
      });
      const response = (await signInAction(request, "/")) as Response;
      expect(response.status).toBe(302);
      return response.headers.get("location");
    };
    expect(await target("/%09/evil.example")).toBe("/");
    expect(await target("/\t/evil.example")).toBe("/");
    expect(await target("/.//evil.example")).toBe("/");
    expect(await target("/admin/users?tab=2")).toBe("/admin/users?tab=2");
  });

  it("remembers the session for 30 days only when asked to", async () => {
    const remembered = await signIn(
      siteRequest("/login", { ip: "198.51.100.3" }),
      form({ email: "dana@example.com", password: "long enough", remember: "on" }),
    );
    const forgotten = await signIn(
      siteRequest("/login", { ip: "198.51.100.3" }),
      form({ email: "dana@example.com", password: "long enough" }),
    );
    if (!remembered.ok || !forgotten.ok) throw new Error("sign-in failed");
    const sessionCookie = (h: Headers) => h.getSetCookie().find((c) => c.startsWith("rvs.session_token=")) ?? "";
    expect(sessionCookie(remembered.headers)).toMatch(/Max-Age=2592000/);
    expect(sessionCookie(forgotten.headers)).not.toMatch(/Max-Age|Expires/i);
  });

  it("signs out: the session no longer identifies anyone", async () => {
    const result = await signIn(
      siteRequest("/login", { ip: "198.51.100.4" }),
      form({ email: "dana@example.com", password: "long enough", remember: "on" }),
    );
    if (!result.ok) throw new Error("sign-in failed");
    const cookie = cookieFrom(result.headers);
    const cleared = await signOut(siteRequest("/logout", { cookie, method: "POST" }));
    expect(cleared.getSetCookie().some((c) => /rvs.session_token=;/.test(c))).toBe(true);
    const viewer = await getViewer(siteRequest("/", { cookie }), { fresh: true });
    expect(viewer.sessionId).toBeNull();
  });
});

describe("rate limits", () => {
  it("a stranger's wrong passwords from one address do not lock the owner out", async () => {
    await createAccount(auth, handle.db, { email: "target@example.com" });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const email = i % 2 ? "Target@Example.com" : "target@example.com";
      const attempt = await signIn(
        siteRequest("/login", { ip: "192.0.2.66" }),
        form({ email, password: `guess-${i}` }),
      );
      statuses.push(attempt.ok ? 200 : attempt.status);
      if (i === 24 && !attempt.ok) {
        expect(attempt.formError).toMatch(/^Too many attempts\. Please wait 15 minutes and try again\.$/);
      }
    }
    // The pair (account, address) gets 10 tries in any letter case, then waits out the window.
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(15).fill(429)]);
    // Meanwhile the owner, from their own address and in another letter case, signs in.
    const owner = await signIn(
      siteRequest("/login", { ip: "192.0.2.67" }),
      form({ email: "TARGET@example.COM", password: "correct horse battery" }),
    );
    expect(owner.ok).toBe(true);
  });

  it("slows a guesser spread over many addresses with a growing wait, never a 15-minute wall", async () => {
    let clock = Date.now();
    useRateLimits(inMemoryLimits(() => clock));
    try {
      await createAccount(auth, handle.db, { email: "popular@example.com" });
      const attempt = async (ip: string, password: string) => {
        const result = await signIn(siteRequest("/login", { ip }), form({ email: "popular@example.com", password }));
        return result.ok ? "ok" : result.status === 429 ? result.formError : result.status;
      };
      for (let i = 0; i < 30; i++) expect(await attempt(`198.18.0.${i}`, `guess-${i}`)).toBe(401);
      const waits: unknown[] = [];
      for (let i = 0; i < 9; i++) {
        const refused = await attempt(`198.18.1.${i}`, "another guess");
        waits.push(refused);
        const seconds = Math.min(2 ** i, 60);
        clock += seconds * 1000;
        expect(await attempt(`198.18.1.${i}`, "another guess")).toBe(401);
      }
      const wait = (what: string) => `Too many attempts. Please wait ${what} and try again.`;
      expect(waits).toEqual(
        ["1 second", ...[2, 4, 8, 16, 32].map((n) => `${n} seconds`), "1 minute", "1 minute", "1 minute"].map(wait),
      );
      // The owner, meanwhile, retries without using up their own address's tries, and gets in
      // after at most a minute.
      for (let i = 0; i < 12; i++) expect(await attempt("198.18.2.1", "correct horse battery")).toBe(wait("1 minute"));
      clock += 60_000;
      expect(await attempt("198.18.2.1", "correct horse battery")).toBe("ok");
    } finally {
      useRateLimits(inMemoryLimits());
    }
  });

  it("stops one address after 20 sign-in attempts and 10 sign-ups", async () => {
    for (let i = 0; i < 20; i++) {
      await signIn(
        siteRequest("/login", { ip: "192.0.2.250" }),
        form({ email: `x${i}@example.com`, password: "whatever1" }),
      );
    }
    const blocked = await signIn(
      siteRequest("/login", { ip: "192.0.2.250" }),
      form({ email: "y@example.com", password: "whatever1" }),
    );
    expect(blocked).toMatchObject({ ok: false, status: 429 });
    for (let i = 0; i < 10; i++) {
      await signUp(
        siteRequest("/signup", { ip: "192.0.2.251" }),
        form({ name: "N", email: `n${i}@example.com`, password: "long enough" }),
      );
    }
    const tooMany = await signUp(
      siteRequest("/signup", { ip: "192.0.2.251" }),
      form({ name: "N", email: "n-last@example.com", password: "long enough" }),
    );
    expect(tooMany).toMatchObject({ ok: false, status: 429 });
  });
});

describe("rate limits shared by every instance", () => {
  it("counts sign-in attempts in the database once the server shares them", async () => {
    shareRateLimits(handle.db);
    await createAccount(auth, handle.db, { email: "shared-target@example.com" });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const attempt = await signIn(
        siteRequest("/login", { ip: "192.0.2.100" }),
        form({ email: "Shared-Target@example.com", password: `guess-${i}` }),
      );
      statuses.push(attempt.ok ? 200 : attempt.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    const owner = await signIn(
      siteRequest("/login", { ip: "192.0.2.199" }),
      form({ email: "shared-target@example.com", password: "correct horse battery" }),
    );
    expect(owner.ok).toBe(true);
    const rows = await handle.db.select().from(rateLimits);
    const count = (key: string) => rows.find((r) => r.key === key)?.count;
    expect(count("sign-in-account-ip:shared-target@example.com|192.0.2.100")).toBe(11);
    expect(count("sign-in-account-ip:shared-target@example.com|192.0.2.199")).toBeUndefined();
    expect(count("sign-in-account:shared-target@example.com")).toBe(10);
    expect(count("sign-in-ip:192.0.2.100")).toBe(10);
  });
});

describe("anonymous sessions", () => {
  it("is a session with no user: not admin, not owner, anonymous flag set", async () => {
    const cookie = await anonymousCookie();
    const viewer = await getViewer(siteRequest("/", { cookie }), { fresh: true });
    expect(viewer).toMatchObject({ isAnonymous: true, isAdmin: false, isOwner: false, role: null, email: null });
    expect(viewer.sessionId).toEqual(expect.any(String));
    await expect(requireUser(siteRequest("/owner", { cookie }))).rejects.toMatchObject({ status: 302 });
  });

  it("links to the account that signs in from it after signing up, then goes away", async () => {
    const links: AnonymousLink[] = [];
    onAnonymousLinked(async (link) => {
      links.push(link);
    });
    const cookie = await anonymousCookie();
    const anonymous = await getViewer(siteRequest("/", { cookie }), { fresh: true });
    const result = await signUp(
      siteRequest("/signup", { cookie, ip: "198.51.100.9" }),
      form({ name: "Lee", email: "lee@example.com", password: "long enough" }),
    );
    if (!result.ok) throw new Error(`sign-up failed: ${JSON.stringify(result)}`);
    await settleAccountWork();
    // Sign-up itself signs nobody in, so the anonymous session is still the visitor's.
    expect(links).toEqual([]);
    const signedIn = await signIn(
      siteRequest("/login", { cookie, ip: "198.51.100.9" }),
      form({ email: "lee@example.com", password: "long enough" }),
    );
    if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    const viewer = await getViewer(siteRequest("/", { cookie: cookieFrom(signedIn.headers, cookie) }), { fresh: true });
    expect(links).toEqual([{ anonymousUserId: anonymous.userId, userId: viewer.userId }]);
    const gone = await handle.db.select().from(users).where(eq(users.id, anonymous.userId!));
    expect(gone).toEqual([]);
  });

  it("purges anonymous accounts idle for 30 days, and only those", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 31 * 24 * 3600_000);
    const idle = await getViewer(siteRequest("/", { cookie: await anonymousCookie() }), { fresh: true });
    const active = await getViewer(siteRequest("/", { cookie: await anonymousCookie() }), { fresh: true });
    await handle.db.update(users).set({ createdAt: old }).where(eq(users.id, idle.userId!));
    await handle.db.update(sessions).set({ updatedAt: old }).where(eq(sessions.userId, idle.userId!));
    await handle.db.update(users).set({ createdAt: old }).where(eq(users.id, active.userId!));
    const { userId: realOld } = await createAccount(auth, handle.db, { email: "old-timer@example.com" });
    await handle.db.update(users).set({ createdAt: old }).where(eq(users.id, realOld));

    expect(await purgeIdleAnonymousUsers(handle.db, now)).toBe(1);
    const left = await handle.db.select({ id: users.id }).from(users);
    const ids = left.map((r) => r.id);
    expect(ids).not.toContain(idle.userId);
    expect(ids).toContain(active.userId);
    expect(ids).toContain(realOld);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, idle.userId!))).toEqual([]);
  });
});

describe("guards", () => {
  it("redirects visitors to the right login page with a way back, and answers 401 on the API", async () => {
    const admin = await requireAdmin(siteRequest("/admin/users?tab=2")).catch((e: unknown) => e);
    expect(admin).toBeInstanceOf(Response);
    expect((admin as Response).status).toBe(302);
    expect((admin as Response).headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fusers%3Ftab%3D2");
    const owner = (await requireOwner(siteRequest("/owner/claims")).catch((e: unknown) => e)) as Response;
    expect(owner.headers.get("location")).toBe("/business/login?redirectTo=%2Fowner%2Fclaims");
    const api = await requireUser(siteRequest("/api/anything")).catch((e: unknown) => e);
    expect(api).toBeInstanceOf(AppError);
    expect(api).toMatchObject({ status: 401 });
  });

  it("gives each role exactly its rights, and listings to their owner and admins", async () => {
    const user = await createAccount(auth, handle.db, { email: "user@example.com" });
    const owner = await createAccount(auth, handle.db, { email: "owner@example.com", role: "business_owner" });
    const other = await createAccount(auth, handle.db, { email: "other@example.com", role: "business_owner" });
    const admin = await createAccount(auth, handle.db, { email: "admin@example.com", role: "admin" });
    await grantListing(handle.db, owner.userId, someLocation);
    const status = async (run: Promise<unknown>) => {
      try {
        await run;
        return 200;
      } catch (thrown) {
        if (thrown instanceof Response || thrown instanceof AppError) return thrown.status;
        throw thrown;
      }
    };
    const as = (cookie: string, path: string) => siteRequest(path, { cookie });
    expect(await status(requireAdmin(as(user.cookie, "/admin")))).toBe(403);
    expect(await status(requireAdmin(as(owner.cookie, "/admin")))).toBe(403);
    expect(await status(requireAdmin(as(admin.cookie, "/admin")))).toBe(200);
    expect(await status(requireOwner(as(user.cookie, "/owner")))).toBe(200);
    expect(await status(requireOwner(as(admin.cookie, "/owner")))).toBe(200);
    const update = `/owner/locations/${someLocation}/update`;
    expect(await status(requireListingOwner(as(owner.cookie, update), someLocation))).toBe(200);
    expect(await status(requireListingOwner(as(other.cookie, update), someLocation))).toBe(403);
    expect(await status(requireListingOwner(as(user.cookie, update), someLocation))).toBe(403);
    expect(await status(requireListingOwner(as(admin.cookie, update), someLocation))).toBe(200);
    expect(await status(requireListingOwner(as(admin.cookie, "/owner/x"), "no-such-place"))).toBe(404);
    const api = `/api/metrics/locations/${someLocation}`;
    expect(await status(requireListingOwner(as(other.cookie, api), someLocation))).toBe(403);
  });

  it("applies a role change at once, and turns a banned account's flags off", async () => {
    const person = await createAccount(auth, handle.db, { email: "promoted@example.com" });
    expect((await getViewer(siteRequest("/", { cookie: person.cookie }), { fresh: true })).isAdmin).toBe(false);
    await handle.db.update(users).set({ role: "admin" }).where(eq(users.id, person.userId));
    expect((await getViewer(siteRequest("/", { cookie: person.cookie }), { fresh: true })).isAdmin).toBe(true);
    await handle.db.update(users).set({ banned: true }).where(eq(users.id, person.userId));
    const banned = await getViewer(siteRequest("/", { cookie: person.cookie }), { fresh: true });
    expect(banned).toMatchObject({ isAdmin: false, isOwner: false });
  });
});
