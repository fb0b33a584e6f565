import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { createAuth, setAuth, type Auth } from "../../server/auth/auth";
import { connectDatabase, disconnectDatabase } from "../../server/db";
import type { Database, DatabaseHandle } from "../../server/db/client";
import { users } from "../../server/db/schema";
import type { Role } from "../../domain/roles";
import { createTestDatabase } from "./db";

export const TEST_ORIGIN = "http://localhost:3000";
export const HUMAN_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** A better-auth instance over a test database, installed as the process-wide one. */
export function installTestAuth(db: Database): Auth {
  const auth = createAuth({ db, secret: "test-secret-test-secret-test-secret-0123", baseURL: TEST_ORIGIN });
  setAuth(auth);
  return auth;
}

/**
 * For a test file: before its tests, a fresh test database connected as the process-wide one with
 * a better-auth instance over it; after them, disconnected. Read the fields inside tests only.
 */
export function setUpAuthDatabase(): { readonly handle: DatabaseHandle; readonly auth: Auth; db(): Database } {
  const setup = {
    handle: undefined as unknown as DatabaseHandle,
    auth: undefined as unknown as Auth,
    db: () => setup.handle.db,
  };
  beforeAll(async () => {
    setup.handle = await connectDatabase(await createTestDatabase());
    setup.auth = installTestAuth(setup.handle.db);
  });
  afterAll(async () => {
    await disconnectDatabase().catch(() => {});
  });
  return setup;
}

/** A request as a browser on this site would send it: same origin, an address, a cookie. */
export function siteRequest(
  path: string,
  {
    cookie,
    method = "GET",
    form,
    ip = "203.0.113.7",
  }: { cookie?: string; method?: string; form?: Record<string, string>; ip?: string } = {},
): Request {
  const headers = new Headers({ origin: TEST_ORIGIN, "user-agent": HUMAN_USER_AGENT, "x-client-ip": ip });
  if (cookie) headers.set("cookie", cookie);
  return new Request(new URL(path, TEST_ORIGIN), {
    method,
    headers,
    body: form ? new URLSearchParams(form) : undefined,
  });
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieFrom(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  for (const line of headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (/max-age=0/i.test(line) || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Creates an account with a role (through better-auth, as sign-up would) and returns its cookie. */
export async function createAccount(
  auth: Auth,
  db: Database,
  {
    email,
    password = "correct horse battery",
    name = "Test Person",
    role = "user",
    verified = true,
  }: { email: string; password?: string; name?: string; role?: Role; verified?: boolean },
): Promise<{ userId: string; cookie: string }> {
  const response = await auth.api.signUpEmail({
    body: { email, password, name },
    headers: new Headers({ origin: TEST_ORIGIN }),
    asResponse: true,
  });
  if (!response.ok) throw new Error(`Could not create ${email}: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: string } };
  // Sign-up signs nobody in (server/auth/auth.ts, autoSignIn off): the fixture signs in as its owner would.
  const signedIn = await auth.api.signInEmail({
    body: { email, password },
    headers: new Headers({ origin: TEST_ORIGIN }),
    asResponse: true,
  });
  if (!signedIn.ok) throw new Error(`Could not sign in as ${email}: ${signedIn.status} ${await signedIn.text()}`);
  // Fixture accounts are confirmed, as if their owner had opened the link; a test that needs an
  // unconfirmed one passes `verified: false`.
  if (role !== "user" || verified)
    await db.update(users).set({ role, emailVerified: verified }).where(eq(users.id, user.id));
  return { userId: user.id, cookie: cookieFrom(signedIn.headers) };
}
