import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { cookieFrom, createAccount, installTestAuth, siteRequest } from "../../tests/setup/auth";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { requestContext } from "../http/request-context";
import { ensureDemoData } from "../locations/demo-seed";
import type { Auth } from "./auth";
import { adminConsoleMiddleware, ownerConsoleMiddleware, viewerContext } from "./console";
import { requireListingOwner } from "./guards";
import { grantListing } from "./ownership";

/**
 * The console middleware as React Router calls it: a Request, the request's context provider and
 * `next`, which stands for every child loader and action (so "next was called" means "the page's
 * data would load").
 */
let handle: DatabaseHandle;
let auth: Auth;
let someLocation: string;
const cookies: Record<"user" | "owner" | "admin" | "anonymous", string> = {
  user: "",
  owner: "",
  admin: "",
  anonymous: "",
};

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  await ensureDemoData(handle.db, { mode: "auto", count: 3 });
  auth = installTestAuth(handle.db);
  const [row] = await handle.db.query.locations.findMany({ columns: { placeId: true }, limit: 1 });
  someLocation = row!.placeId;
  cookies.user = (await createAccount(auth, handle.db, { email: "mw-user@example.com" })).cookie;
  const owner = await createAccount(auth, handle.db, { email: "mw-owner@example.com", role: "business_owner" });
  cookies.owner = owner.cookie;
  await grantListing(handle.db, owner.userId, someLocation);
  cookies.admin = (await createAccount(auth, handle.db, { email: "mw-admin@example.com", role: "admin" })).cookie;
  const anonymous = await auth.api.signInAnonymous({ headers: siteRequest("/").headers, asResponse: true });
  cookies.anonymous = cookieFrom(anonymous.headers);
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

type Middleware = typeof ownerConsoleMiddleware;

/** Runs `middleware` for `path`; returns what it answered or threw, whether `next` ran, and the context. */
async function run(middleware: Middleware, path: string, cookie?: string) {
  const request = siteRequest(path, { cookie });
  const context: RouterContextProvider = requestContext({ requestId: "test", nonce: "test" });
  let nextCalled = false;
  const next = async () => {
    nextCalled = true;
    return new Response("the page");
  };
  const args = { request, url: new URL(request.url), pattern: path, params: {}, context };
  const outcome = await Promise.resolve(middleware(args, next)).then(
    (value) => ({ value, thrown: undefined as unknown }),
    (thrown: unknown) => ({ value: undefined, thrown }),
  );
  return { ...outcome, nextCalled, context };
}

/** The status a thrown value stands for: a Response's, or a `data()` value's init status. */
function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  return (thrown as { init?: { status?: number } } | undefined)?.init?.status;
}

describe("owner console middleware", () => {
  it("sends a visitor to the business login with a way back, before any child runs", async () => {
    const { thrown, nextCalled } = await run(ownerConsoleMiddleware, "/owner/claims?page=2");
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("location")).toBe(
      "/business/login?redirectTo=%2Fowner%2Fclaims%3Fpage%3D2",
    );
    expect(nextCalled).toBe(false);
  });

  it("treats an anonymous session as signed out", async () => {
    const { thrown, nextCalled } = await run(ownerConsoleMiddleware, "/owner", cookies.anonymous);
    expect((thrown as Response).headers.get("location")).toBe("/business/login?redirectTo=%2Fowner");
    expect(nextCalled).toBe(false);
  });

  it("lets any signed-in account in and puts its viewer in the context", async () => {
    for (const who of ["user", "owner", "admin"] as const) {
      const { value, thrown, nextCalled, context } = await run(ownerConsoleMiddleware, "/owner", cookies[who]);
      expect(thrown, who).toBeUndefined();
      expect(nextCalled, who).toBe(true);
      expect(await (value as Response).text()).toBe("the page");
      expect(context.get(viewerContext).email).toBe(`mw-${who}@example.com`);
    }
  });

  it("gives a listing screen the context viewer for the ownership check", async () => {
    const update = `/owner/locations/${someLocation}/update`;
    const owner = await run(ownerConsoleMiddleware, update, cookies.owner);
    const viewer = owner.context.get(viewerContext);
    await expect(requireListingOwner(siteRequest(update), someLocation, viewer)).resolves.toBe(viewer);
    const user = await run(ownerConsoleMiddleware, update, cookies.user);
    await expect(
      requireListingOwner(siteRequest(update), someLocation, user.context.get(viewerContext)),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe("admin console middleware", () => {
  it("sends a visitor to /login with a way back", async () => {
    const { thrown, nextCalled } = await run(adminConsoleMiddleware, "/admin/users");
    expect((thrown as Response).headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fusers");
    expect(nextCalled).toBe(false);
  });

  it("answers 403 to a signed-in account without the admin role, with the page's message", async () => {
    for (const who of ["user", "owner"] as const) {
      const { thrown, nextCalled } = await run(adminConsoleMiddleware, "/admin", cookies[who]);
      expect(statusOf(thrown), who).toBe(403);
      expect(thrown).toMatchObject({ data: "Your account does not have access to this page." });
      expect(nextCalled, who).toBe(false);
    }
  });

  it("lets an admin in", async () => {
    const { thrown, nextCalled, context } = await run(adminConsoleMiddleware, "/admin", cookies.admin);
    expect(thrown).toBeUndefined();
    expect(nextCalled).toBe(true);
    expect(context.get(viewerContext).isAdmin).toBe(true);
  });
});

describe("viewerContext outside a console", () => {
  it("is empty, so a loader that reads it without the middleware fails instead of trusting nobody", () => {
    expect(() => new RouterContextProvider().get(viewerContext)).toThrow();
  });
});
