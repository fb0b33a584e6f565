/**
 * Saved facilities against the database (docs/product.md section 15, ADR 023): one row per person
 * and facility, a cap with a clear message, rows gone with the person or the listing, hidden
 * listings kept but not shown, anonymous saves moved to the account on sign-up and sign-in, and
 * the HTTP endpoint answering only for the session's own person.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cookieFrom, createAccount, setUpAuthDatabase, siteRequest } from "../../tests/setup/auth";
import { SAVED_LIMIT, SAVED_MESSAGES } from "../../domain/saved";
import { insertListing } from "../claims/test-support";
import { locations, savedLocations, users } from "../db/schema";
import { AppError } from "../errors";
import { apiErrorResponse } from "../http/app-errors";
import { settleAccountWork } from "../auth/account-work";
import { inMemoryLimits, signIn, signUp, useRateLimits } from "../auth/forms";
import { getViewer } from "../auth/viewer";
import { saveRequest } from "./action";
import { carrySavesOnSignIn, listSaved, moveSavedToAccount, savedSlugs, setSaved } from "./service";

const setup = setUpAuthDatabase();
const db = () => setup.db();

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

async function anonymousCookie(): Promise<string> {
  const response = await setup.auth.api.signInAnonymous({ headers: siteRequest("/").headers, asResponse: true });
  expect(response.status).toBe(200);
  return cookieFrom(response.headers);
}

async function userIdOf(cookie: string): Promise<string> {
  const viewer = await getViewer(siteRequest("/", { cookie }), { fresh: true });
  return viewer.userId!;
}

let personCount = 0;
async function person(): Promise<string> {
  personCount++;
  return (await createAccount(setup.auth, db(), { email: `saver${personCount}@example.com` })).userId;
}

const status = async (run: Promise<unknown>) => {
  try {
    await run;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
};

describe("saving", () => {
  it("saves once, forgets, and counts only the person's own listed saves", async () => {
    const me = await person();
    const other = await person();
    const a = await insertListing(db(), { name: "Alpha RV Storage" });
    const b = await insertListing(db(), { name: "Bravo RV Storage" });
    expect(await setSaved(db(), me, { placeId: a.placeId }, true)).toEqual({ saved: true, count: 1, slug: a.slug });
    // Idempotent: a second save (another tab, a double click) keeps one row.
    expect((await setSaved(db(), me, { slug: a.slug }, true)).count).toBe(1);
    expect((await setSaved(db(), me, { slug: b.slug }, true)).count).toBe(2);
    expect((await setSaved(db(), other, { placeId: b.placeId }, true)).count).toBe(1);
    expect(await savedSlugs(db(), me)).toEqual([b.slug, a.slug]);
    expect((await listSaved(db(), me)).map((s) => s.name)).toEqual(["Bravo RV Storage", "Alpha RV Storage"]);

    expect(await setSaved(db(), me, { placeId: a.placeId }, false)).toEqual({ saved: false, count: 1, slug: a.slug });
    expect(await setSaved(db(), me, { placeId: a.placeId }, false)).toMatchObject({ saved: false, count: 1 });
    expect(await savedSlugs(db(), me)).toEqual([b.slug]);
    // The other person's save is theirs alone.
    expect(await savedSlugs(db(), other)).toEqual([b.slug]);
  });

  it("refuses unknown, hidden and deleted listings, and a person who does not exist", async () => {
    const me = await person();
    const hidden = await insertListing(db(), { hiddenAt: new Date() });
    const deleted = await insertListing(db(), { deletedAt: new Date() });
    expect(await status(setSaved(db(), me, { placeId: "no_such_place_123" }, true))).toBe(404);
    expect(await status(setSaved(db(), me, { placeId: hidden.placeId }, true))).toBe(404);
    expect(await status(setSaved(db(), me, { slug: deleted.slug }, true))).toBe(404);
    const listing = await insertListing(db());
    expect(await status(setSaved(db(), "no-such-user", { placeId: listing.placeId }, true))).toBe(401);
  });

  it(`keeps at most ${SAVED_LIMIT} per person, with a message that says what to do`, async () => {
    const me = await person();
    const listings = [];
    for (let i = 0; i <= SAVED_LIMIT; i++) listings.push(await insertListing(db(), { name: `Cap ${i}` }));
    await db()
      .insert(savedLocations)
      .values(listings.slice(0, SAVED_LIMIT).map((l) => ({ userId: me, locationId: l.placeId })));
    const last = listings.at(-1)!;
    const refused = await setSaved(db(), me, { placeId: last.placeId }, true).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, message: SAVED_MESSAGES.full });
    // Saving one already saved is no new row, so it still answers; forgetting one makes room.
    expect((await setSaved(db(), me, { placeId: listings[0]!.placeId }, true)).count).toBe(SAVED_LIMIT);
    await setSaved(db(), me, { placeId: listings[0]!.placeId }, false);
    expect((await setSaved(db(), me, { placeId: last.placeId }, true)).count).toBe(SAVED_LIMIT);
  });

  it("hides a save while its listing is hidden, and drops it with the listing or the person", async () => {
    const me = await person();
    const a = await insertListing(db());
    const b = await insertListing(db());
    await setSaved(db(), me, { placeId: a.placeId }, true);
    await setSaved(db(), me, { placeId: b.placeId }, true);
    await db().update(locations).set({ hiddenAt: new Date() }).where(eq(locations.placeId, a.placeId));
    expect(await savedSlugs(db(), me)).toEqual([b.slug]);
    await db().update(locations).set({ hiddenAt: null }).where(eq(locations.placeId, a.placeId));
    expect(await savedSlugs(db(), me)).toHaveLength(2);

    await db().delete(locations).where(eq(locations.placeId, a.placeId));
    expect(await savedSlugs(db(), me)).toEqual([b.slug]);
    await db().delete(users).where(eq(users.id, me));
    expect(await db().select().from(savedLocations).where(eq(savedLocations.userId, me))).toEqual([]);
  });
});

describe("anonymous saves and the account", () => {
  it("moves the saves, keeps the account's own dates and stops at the cap", async () => {
    const anonymous = await userIdOf(await anonymousCookie());
    const account = await person();
    const [a, b, c] = [await insertListing(db()), await insertListing(db()), await insertListing(db())];
    const early = new Date("2026-01-01T00:00:00Z");
    await db()
      .insert(savedLocations)
      .values([
        { userId: anonymous, locationId: a.placeId, savedAt: new Date("2026-03-01T00:00:00Z") },
        { userId: anonymous, locationId: b.placeId, savedAt: new Date("2026-03-02T00:00:00Z") },
        { userId: account, locationId: a.placeId, savedAt: early },
      ]);
    expect(await moveSavedToAccount(db(), { anonymousUserId: anonymous, userId: account })).toBe(1);
    const rows = await db().select().from(savedLocations).where(eq(savedLocations.userId, account));
    expect(rows.find((r) => r.locationId === a.placeId)?.savedAt).toEqual(early);
    expect(rows.map((r) => r.locationId).sort()).toEqual([a.placeId, b.placeId].sort());

    // Past the cap: only the room left, newest first.
    const full = await person();
    const filler = [];
    for (let i = 0; i < SAVED_LIMIT - 1; i++) filler.push(await insertListing(db()));
    await db()
      .insert(savedLocations)
      .values(filler.map((l) => ({ userId: full, locationId: l.placeId })));
    await db().insert(savedLocations).values({ userId: anonymous, locationId: c.placeId, savedAt: new Date() });
    expect(await moveSavedToAccount(db(), { anonymousUserId: anonymous, userId: full })).toBe(1);
    const moved = await db().select().from(savedLocations).where(eq(savedLocations.userId, full));
    expect(moved).toHaveLength(SAVED_LIMIT);
    expect(moved.some((r) => r.locationId === c.placeId)).toBe(true);
  });

  it("keeps an anonymous visitor's saves when they sign up, and when they sign in", async () => {
    useRateLimits(inMemoryLimits());
    carrySavesOnSignIn();
    const listing = await insertListing(db(), { name: "Kept RV Storage" });

    const cookie = await anonymousCookie();
    await setSaved(db(), await userIdOf(cookie), { placeId: listing.placeId }, true);
    const result = await signUp(
      siteRequest("/signup", { cookie, ip: "198.51.100.40" }),
      form({ name: "Kim", email: "kim@example.com", password: "long enough" }),
    );
    if (!result.ok) throw new Error(`sign-up failed: ${JSON.stringify(result)}`);
    // Sign-up signs nobody in (docs/product.md section 10): the saves move at the first sign-in.
    await settleAccountWork();
    const first = await signIn(
      siteRequest("/login", { cookie, ip: "198.51.100.40" }),
      form({ email: "kim@example.com", password: "long enough" }),
    );
    if (!first.ok) throw new Error(`sign-in failed: ${JSON.stringify(first)}`);
    const kim = await userIdOf(cookieFrom(first.headers, cookie));
    expect(await savedSlugs(db(), kim)).toEqual([listing.slug]);

    const other = await insertListing(db(), { name: "Also Kept RV Storage" });
    const second = await anonymousCookie();
    await setSaved(db(), await userIdOf(second), { placeId: other.placeId }, true);
    const signedIn = await signIn(
      siteRequest("/login", { cookie: second, ip: "198.51.100.41" }),
      form({ email: "kim@example.com", password: "long enough" }),
    );
    if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    expect(await savedSlugs(db(), kim)).toEqual([other.slug, listing.slug]);
  });
});

describe("POST /api/saved", () => {
  const post = (fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) => {
    const request = siteRequest("/api/saved", { method: "POST", form: fields, cookie });
    for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
    // As the server build's wrapper answers an AppError on /api (server/http/app-errors.ts).
    return saveRequest(request).catch((error: unknown) => {
      if (error instanceof AppError) return apiErrorResponse(error);
      throw error;
    });
  };

  it("saves for the session's own person and answers JSON", async () => {
    const listing = await insertListing(db());
    const cookie = await anonymousCookie();
    const response = await post({ slug: listing.slug, saved: "true" }, cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ saved: true, count: 1, slug: listing.slug });
    expect(await savedSlugs(db(), await userIdOf(cookie))).toEqual([listing.slug]);
    // A user id in the form is not read: the session decides whose save it is.
    const someoneElse = await person();
    await post({ placeId: listing.placeId, saved: "false", userId: someoneElse }, cookie);
    expect(await savedSlugs(db(), await userIdOf(cookie))).toEqual([]);
  });

  it("names the problem with a request it cannot take", async () => {
    const cookie = await anonymousCookie();
    const listing = await insertListing(db());
    const answer = async (response: Promise<Response>) => {
      const r = await response;
      return { status: r.status, body: (await r.json()) as { error: string } };
    };
    expect(await answer(post({ slug: listing.slug, saved: "true" }))).toEqual({
      status: 401,
      body: { error: SAVED_MESSAGES.noSession },
    });
    expect((await answer(post({ slug: listing.slug, saved: "yes" }, cookie))).body.error).toBe(SAVED_MESSAGES.badSaved);
    expect((await answer(post({ saved: "true" }, cookie))).body.error).toBe(SAVED_MESSAGES.missingId);
    expect((await answer(post({ placeId: "bad id!", saved: "true" }, cookie))).body.error).toBe(SAVED_MESSAGES.badId);
    expect(await answer(post({ placeId: "no_such_place_456", saved: "true" }, cookie))).toMatchObject({
      status: 404,
      body: { error: SAVED_MESSAGES.unknown },
    });
    const get = await saveRequest(siteRequest("/api/saved"));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const json = await saveRequest(
      new Request("http://localhost:3000/api/saved", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(json.status).toBe(415);
  });

  it("answers a form sent without JavaScript with a redirect back on this site", async () => {
    const cookie = await anonymousCookie();
    const listing = await insertListing(db());
    const back = await post({ slug: listing.slug, saved: "true", redirectTo: "/rv-storage/austin-tx?page=2" }, cookie);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/rv-storage/austin-tx?page=2");
    const offsite = await post({ slug: listing.slug, saved: "true", redirectTo: "//evil.example/" }, cookie);
    expect(offsite.headers.get("location")).toBe("/saved");
    const nobody = await post({ slug: listing.slug, saved: "true", redirectTo: "/saved" });
    expect(nobody.status).toBe(303);
    expect(nobody.headers.get("location")).toBe("/login?redirectTo=%2Fsaved");
  });
});
