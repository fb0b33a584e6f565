import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { createAccount, installTestAuth } from "../../tests/setup/auth";
import { ingestEvents } from "../analytics/ingest";
import { ensureDemoArticles } from "../blog/demo";
import { createArticle } from "../blog/service";
import { fileClaim } from "../claims/service";
import { CLAIM_INPUT, PDF_BYTES, insertListing, insertPerson } from "../claims/test-support";
import type { Database } from "../db/client";
import { listingReports } from "../db/schema";
import { createLocalPrivateStore } from "../files/private-store";
import { createLocalStorage } from "../images/local-storage";
import { submitLead } from "../leads/service";
import { setSaved } from "../saved/service";
import { ensureDemoData } from "../locations/demo-seed";
import { rowsOf, useExactTextOutput } from "./catalog";
import type { FileStores } from "./files";

/*
 * For the backup tests (scripts/backup*.db.test.ts): a database filled through the services, file
 * stores beside it, and a snapshot of every table to compare two databases by.
 */

/** The local stores under `dir`, as the site keeps them under DATA_DIR. */
export function storesIn(dir: string): FileStores {
  return {
    images: createLocalStorage(dir),
    private: createLocalPrivateStore(path.join(dir, "private")),
    privateDir: path.join(dir, "private"),
  };
}

/** Rows in every service's tables: listings, people, a claim with evidence, analytics, articles, a lead… */
export async function fill(db: Database, stores: FileStores): Promise<void> {
  await ensureDemoData(db, { mode: "auto", count: 25 });
  await ensureDemoArticles(db);
  const listing = await insertListing(db, {
    name: `Quote's "Ünïcødé" \\ back-slash RV 🚐 Storage`,
    description: "Line one\nLine two\ttabbed, a \u2028 separator and a NUL-free end",
  });
  const admin = await insertPerson(db, { role: "admin", email: "ada@example.com", name: "Ada" });
  const claimant = await insertPerson(db, { email: "pat@example.com" });
  await createAccount(installTestAuth(db), db, { email: "member@example.com", password: "a long password" });
  await setSaved(db, claimant.userId, { placeId: listing.placeId }, true);
  const filed = await fileClaim(db, stores.private, {
    actor: claimant,
    locationId: listing.placeId,
    input: CLAIM_INPUT,
    files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
  });
  expect(filed.ok).toBe(true);
  const now = new Date();
  const sender = { authSessionId: "auth-1", userId: null, siteOrigin: "https://rv.example", clientIp: "198.51.100.9" };
  const event = (over: Record<string, string>) => ({
    eventId: `e-${randomBytes(6).toString("hex")}`,
    eventType: "page_view" as const,
    timestamp: now.toISOString(),
    sessionId: "s-1",
    url: `https://rv.example/location/${listing.slug}`,
    locationId: listing.placeId,
    ...over,
  });
  await ingestEvents(
    db,
    [event({ referrer: "https://www.google.com/" }), event({ eventType: "list_view" }), event({ sessionId: "s-2" })],
    sender,
    now,
  );
  await createArticle(db, { userId: admin.userId, email: admin.email, name: "Ada" }, "Winter storage checklist");
  await submitLead(db, {
    locationId: listing.placeId,
    visitorUserId: null,
    input: {
      rvType: "class_a",
      rvLengthFeet: 40,
      cover: "covered",
      moveIn: "2026-12-01",
      name: "Robin Camper",
      email: "robin@example.com",
      phone: "+15125550100",
      message: "Do you have a covered 40 ft space from December?",
    },
  });
  // An identity column generated ALWAYS (restored with OVERRIDING SYSTEM VALUE), two numbers used.
  await db.insert(listingReports).values([
    { locationId: listing.placeId, kind: "closed", message: "Shut since May" },
    { locationId: listing.placeId, kind: "other", message: null },
  ]);
  for (let i = 0; i < 3; i++) await db.execute(sql`select nextval('invoice_number_seq')`);
  await stores.images.put(`place-images/${listing.placeId}/w320n1.webp`, randomBytes(300));
  await stores.images.put("blog-images/cover-1/w640.jpg", randomBytes(500));
}

export interface Snapshot {
  tables: Record<string, { rows: number; hash: string }>;
  sequences: Record<string, string | null>;
  migrations: string[];
}

/** Every table of the public schema (information_schema): its row count and an order-free hash of its rows. */
export async function snapshotOf(db: Database): Promise<Snapshot> {
  return db.transaction(async (tx) => {
    await useExactTextOutput(tx);
    const names = await rowsOf<{ name: string }>(
      tx,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    const tables: Snapshot["tables"] = {};
    for (const { name } of names) {
      const [row] = await rowsOf<{ rows: number; hash: string }>(
        tx,
        sql.raw(
          `select count(*)::int as rows, coalesce(md5(string_agg(h, ',' order by h)), '') as hash
           from (select md5(row_to_json(t)::text) as h from "public"."${name}" t) s`,
        ),
      );
      tables[name] = row!;
    }
    const sequences = Object.fromEntries(
      (
        await rowsOf<{ name: string; value: string | null }>(
          tx,
          sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
        )
      ).map((s) => [s.name, s.value]),
    );
    const migrations = (
      await rowsOf<{ m: string }>(
        tx,
        sql`select hash || '@' || created_at as m from drizzle.__drizzle_migrations order by created_at`,
      )
    ).map((r) => r.m);
    return { tables, sequences, migrations };
  });
}
