/**
 * The /api/auth endpoints the browser uses, over HTTP: the session token travels only in the
 * HttpOnly cookie, never in a JSON body that a script on the page could read.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUMAN_USER_AGENT, cookieFrom, createAccount, installTestAuth } from "../../tests/setup/auth";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import type { Auth } from "./auth";
import { authHttpHandler } from "./http";

let handle: DatabaseHandle;
let auth: Auth;
let server: Server;
let base: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  auth = installTestAuth(handle.db);
  const app = express();
  app.all("/api/auth/*splat", authHttpHandler());
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});

const call = (
  path: string,
  { method = "GET", cookie, headers = {} }: { method?: string; cookie?: string; headers?: Record<string, string> } = {},
) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      "user-agent": HUMAN_USER_AGENT,
      "content-type": "application/json",
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body: method === "GET" ? undefined : "{}",
  });

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  }
  return [];
}

describe("session tokens stay in the cookie", () => {
  it("anonymous sign-in sets the cookie and answers the user without a token", async () => {
    const response = await call("/api/auth/sign-in/anonymous", { method: "POST" });
    expect(response.status).toBe(200);
    const cookie = cookieFrom(response.headers);
    expect(cookie).toMatch(/rvs\.session_token=/);
    const body: unknown = await response.json();
    expect(body).toMatchObject({ user: { isAnonymous: true } });
    expect(keysOf(body).filter((key) => /token/i.test(key))).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(
      decodeURIComponent(cookie.split("rvs.session_token=")[1]!.split(".")[0]!),
    );

    const session = await call("/api/auth/get-session", { cookie });
    expect(session.status).toBe(200);
    const sessionBody: unknown = await session.json();
    expect(sessionBody).toMatchObject({ session: { id: expect.any(String) }, user: { isAnonymous: true } });
    expect(keysOf(sessionBody).filter((key) => /token/i.test(key))).toEqual([]);
  });

  it("get-session for a signed-in account has no token either, and null without a session", async () => {
    const { cookie } = await createAccount(auth, handle.db, { email: "reader@example.com" });
    const response = await call("/api/auth/get-session", { cookie });
    const body: unknown = await response.json();
    expect(body).toMatchObject({ user: { email: "reader@example.com" } });
    expect(keysOf(body).filter((key) => /token/i.test(key))).toEqual([]);
    expect(await (await call("/api/auth/get-session")).json()).toBeNull();
  });

  it("sign-out still clears the cookies", async () => {
    const { cookie } = await createAccount(auth, handle.db, { email: "leaver@example.com" });
    const response = await call("/api/auth/sign-out", { method: "POST", cookie });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((line) => /^rvs\.session_token=;/.test(line))).toBe(true);
  });

  it("ignores a garbled X-Forwarded-Proto instead of failing on it (found by the fuzz suite)", async () => {
    const { cookie } = await createAccount(auth, handle.db, { email: "proto@example.com" });
    const response = await call("/api/auth/sign-out", {
      method: "POST",
      cookie,
      headers: { "x-forwarded-proto": "j," },
    });
    expect(response.status).toBe(200);
  });
});
