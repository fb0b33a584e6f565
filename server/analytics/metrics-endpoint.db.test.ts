import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { HUMAN_USER_AGENT, cookieFrom, createAccount, installTestAuth, siteRequest } from "../../tests/setup/auth";
import type { Auth } from "../auth/auth";
import { grantListing } from "../auth/ownership";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { ensureDemoData } from "../locations/demo-seed";
import { handleEventsRequest } from "./endpoint";
import { toRouteError } from "../http/app-errors";
import { handleLocationMetricsRequest } from "./metrics-endpoint";

let handle: DatabaseHandle;
let auth: Auth;
let locationId: string;
let owner: string;
let stranger: string;
let admin: string;
let anonymous: string;

beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  await ensureDemoData(handle.db, { mode: "auto", count: 3 });
  auth = installTestAuth(handle.db);
  const [row] = await handle.db.query.locations.findMany({ columns: { placeId: true }, limit: 1 });
  locationId = row!.placeId;
  const o = await createAccount(auth, handle.db, { email: "owner@example.com" });
  await grantListing(handle.db, o.userId, locationId);
  owner = o.cookie;
  stranger = (await createAccount(auth, handle.db, { email: "other@example.com", role: "business_owner" })).cookie;
  admin = (await createAccount(auth, handle.db, { email: "admin@example.com", role: "admin" })).cookie;
  const response = await auth.api.signInAnonymous({ headers: siteRequest("/").headers, asResponse: true });
  anonymous = cookieFrom(response.headers);
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

function postEvents(body: unknown, cookie?: string): Request {
  const headers = new Headers({
    "content-type": "application/json",
    "user-agent": HUMAN_USER_AGENT,
    origin: "http://localhost:3000",
    "x-client-ip": "203.0.113.9",
  });
  if (cookie) headers.set("cookie", cookie);
  return new Request("http://localhost:3000/api/analytics/events", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** As the route answers it: thrown AppErrors become JSON responses (server/http/app-errors.ts). */
const metrics = (cookie: string | undefined, query = "") => {
  const request = siteRequest(`/api/metrics/locations/${locationId}${query}`, { cookie });
  return handleLocationMetricsRequest(request, locationId).catch((thrown: unknown) => {
    const answer = toRouteError(thrown, request);
    if (answer instanceof Response) return answer;
    throw answer;
  });
};

describe("analytics with real sessions", () => {
  it("accepts events from an anonymous session and refuses them without one", async () => {
    const events = [
      {
        eventId: "real-1",
        eventType: "page_view",
        timestamp: new Date().toISOString(),
        sessionId: "a1",
        url: "http://localhost:3000/location/x",
        locationId,
      },
      {
        eventId: "real-2",
        eventType: "click",
        elementType: "phone",
        timestamp: new Date().toISOString(),
        sessionId: "a1",
        url: "http://localhost:3000/location/x",
        locationId,
      },
    ];
    expect((await handleEventsRequest(postEvents(events))).status).toBe(401);
    const accepted = await handleEventsRequest(postEvents(events, anonymous));
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ stored: 2 });
  });

  it("shows a listing's metrics to its owner and admins only", async () => {
    const mine = await metrics(owner);
    expect(mine.status).toBe(200);
    const report = (await mine.json()) as { metrics: Record<string, unknown>; daily: unknown[]; scores: unknown };
    expect(report.metrics).toMatchObject({ locationId, pageViews: 1, contactClicks: 1, uniqueVisitors: 1 });
    expect(report.daily).toHaveLength(1);
    expect((await metrics(admin)).status).toBe(200);
    expect((await metrics(stranger)).status).toBe(403);
    expect((await metrics(anonymous)).status).toBe(401);
    expect((await metrics(undefined)).status).toBe(401);
  });

  it("answers 400 on bad dates", async () => {
    const response = await metrics(owner, "?from=2025-13-01");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid_parameters",
      errors: [{ parameter: "from", message: "from must be a date as YYYY-MM-DD" }],
    });
  });
});
