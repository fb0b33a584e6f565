/**
 * The people the browser and authorization tests act as. The global setup creates them in the
 * site's fresh database before the site starts (the embedded database admits one process at a
 * time), exactly as sign-up and `npm run user:create-admin` would.
 */
import { asc } from "drizzle-orm";
import type { Role } from "../../app/lib/roles";
import { createAuth } from "../../server/auth/auth";
import { grantListing } from "../../server/auth/ownership";
import { resolveAuthSecret } from "../../server/auth/secret";
import { openDatabase } from "../../server/db/client";
import { locations } from "../../server/db/schema";
import { ensureDemoData } from "../../server/locations/demo-seed";
import { createAccount } from "../setup/auth";

export type Persona = "visitor" | "anonymous" | "user" | "business_owner" | "listing_owner" | "admin";
export const PERSONAS: readonly Persona[] = [
  "visitor",
  "anonymous",
  "user",
  "business_owner",
  "listing_owner",
  "admin",
];

export const PASSWORD = "e2e password 123";
export const ACCOUNTS: Record<Exclude<Persona, "visitor" | "anonymous">, { email: string; role: Role }> = {
  user: { email: "user@e2e.test", role: "user" },
  business_owner: { email: "owner@e2e.test", role: "business_owner" },
  listing_owner: { email: "listing-owner@e2e.test", role: "business_owner" },
  admin: { email: "admin@e2e.test", role: "admin" },
};

export interface Fixtures {
  /** The listing that `listing_owner` owns. */
  ownedLocationId: string;
}

export async function prepareAccounts(dataDir: string): Promise<Fixtures> {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    await handle.migrate();
    await ensureDemoData(handle.db, { mode: "auto", count: Number(process.env.DEMO_COUNT ?? 3000) });
    const auth = createAuth({
      db: handle.db,
      secret: resolveAuthSecret({ dataDir, AUTH_SECRET: process.env.AUTH_SECRET, DATABASE_URL: undefined }),
      baseURL: "http://localhost:3000",
    });
    const ids: Record<string, string> = {};
    for (const [persona, { email, role }] of Object.entries(ACCOUNTS)) {
      ids[persona] = (await createAccount(auth, handle.db, { email, role, password: PASSWORD, name: persona })).userId;
    }
    const [first] = await handle.db
      .select({ id: locations.placeId })
      .from(locations)
      .orderBy(asc(locations.placeId))
      .limit(1);
    if (!first) throw new Error("The demo catalogue is empty");
    await grantListing(handle.db, ids.listing_owner!, first.id);
    return { ownedLocationId: first.id };
  } finally {
    await handle.close();
  }
}
