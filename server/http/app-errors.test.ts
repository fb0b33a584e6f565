import {
  createRequestHandler,
  data,
  type RouterContextProvider,
  type EntryContext,
  type ServerBuild,
} from "react-router";
import { describe, expect, it, vi } from "vitest";
import { AppError, conflict, notFound, notFoundUnless } from "../errors";
import { logger } from "../logger";
import { withAppErrors } from "./app-errors";
import { requestContext } from "./request-context";

/**
 * AppError through React Router's own request handler, as in production: a tiny server build with
 * a page and an API route, wrapped by `withAppErrors`. The entry module stands in for the React
 * render and reports what the root error boundary would be given.
 */
type Thrower = () => unknown;
const page: { loader: Thrower } = { loader: () => null };
const api: { loader: Thrower; action: Thrower } = { loader: () => null, action: () => null };

function handleRequest(_request: Request, status: number, headers: Headers, entry: EntryContext) {
  const errors = entry.staticHandlerContext.errors ?? {};
  const error = Object.values(errors)[0] as { status?: number; data?: unknown; message?: string } | undefined;
  return Response.json(
    { boundary: Object.keys(errors)[0], status: error?.status, data: error?.data, message: error?.message },
    { status, headers },
  );
}

const build = {
  entry: { module: { default: handleRequest } },
  routes: {
    root: { id: "root", path: "", module: { default: () => null, ErrorBoundary: () => null } },
    page: { id: "page", parentId: "root", path: "page", module: { default: () => null, loader: () => page.loader() } },
    api: {
      id: "api",
      parentId: "root",
      path: "api/thing",
      module: { loader: () => api.loader(), action: () => api.action() },
    },
  },
  assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "1" },
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: { v8_middleware: true },
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

const handler = createRequestHandler(withAppErrors(build), "production");
const context = (): RouterContextProvider => requestContext({ requestId: "req-1", nonce: "n" });
const get = (path: string) => handler(new Request(`http://localhost${path}`), context());
const post = (path: string) =>
  handler(
    new Request(`http://localhost${path}`, { method: "POST", headers: { origin: "http://localhost" } }),
    context(),
  );

describe("AppError in a page's loader", () => {
  it("renders the error page with its status and message", async () => {
    page.loader = () => notFoundUnless(null, "No such listing");
    const response = await get("/page");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ boundary: "root", status: 404, data: "No such listing" });
  });

  it("keeps any status, a 409 too", async () => {
    page.loader = () => {
      throw conflict("Someone else changed this listing.");
    };
    const response = await get("/page");
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ status: 409, data: "Someone else changed this listing." });
  });

  it("leaves redirects and data() alone", async () => {
    page.loader = () => {
      throw data("Invalid location URL", { status: 400 });
    };
    expect((await get("/page")).status).toBe(400);
    page.loader = () => {
      throw new Response(null, { status: 302, headers: { Location: "/elsewhere" } });
    };
    const redirected = await get("/page");
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("/elsewhere");
  });

  it("turns an unexpected error into a 500 whose message is not shown", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    page.loader = () => {
      throw new Error("connection string postgres://secret@db");
    };
    const response = await get("/page");
    expect(response.status).toBe(500);
    const body = JSON.stringify(await response.json());
    expect(body).not.toContain("secret");
    expect(body).toContain("Unexpected Server Error");
    quiet.mockRestore();
  });
});

describe("AppError in an /api route", () => {
  it("answers JSON { error, ...details } with its status", async () => {
    api.action = () => {
      throw conflict("This listing already has a pending claim.", { claimId: "c-1" });
    };
    const response = await post("/api/thing");
    expect(response.status).toBe(409);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: "This listing already has a pending claim.", claimId: "c-1" });
  });

  it("answers 404 JSON from a loader", async () => {
    api.loader = () => {
      throw notFound("Location not found");
    };
    const response = await get("/api/thing");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Location not found" });
  });

  it("answers a generic JSON 500 for an unexpected error, and logs it with the request id", async () => {
    const log = vi.spyOn(logger, "error").mockImplementation(() => {});
    api.loader = () => {
      throw new TypeError("cannot read properties of undefined (reading 'secret')");
    };
    const response = await get("/api/thing");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; requestId: string };
    expect(body.error).not.toContain("secret");
    expect(body.requestId).toBe("req-1");
    expect(body.error).toMatch(/went wrong/);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ requestId: "req-1" }), expect.any(String));
    log.mockRestore();
  });

  it("is an AppError all the way down: the class carries code, status and details", () => {
    const error = conflict("taken", { field: "slug" });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "conflict", status: 409, message: "taken", details: { field: "slug" } });
  });
});
