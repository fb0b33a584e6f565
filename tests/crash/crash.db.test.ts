/**
 * kill -9 in the middle of the operations that write several things at once (docs/operations.md,
 * "Crashes"): a catalogue import, a photo upload, analytics ingestion and a claim approval. A child
 * process (tests/crash/driver.ts) runs each through its service function on the same database as
 * the site would, and freezes at a chosen point: inside the transaction, with everything written
 * but the commit, or after it. The parent kills it there with SIGKILL, reopens the database (on
 * PGlite: a stale lock and the WAL to replay) and checks that each operation is there whole or not
 * at all. Three kill points per operation; most children start on a database the previous one left
 * crashed, so they check reopening too.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { build } from "esbuild";
import { and, count, eq, inArray, like, or, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageRefFromUrl } from "../../domain/images";
import { settleImports, getImport, purgeStaleImportFiles } from "../../server/catalogue/imports";
import { fileClaim } from "../../server/claims/service";
import { insertListing, insertPerson, memoryStore, CLAIM_INPUT } from "../../server/claims/test-support";
import { openDatabase, type Database, type DatabaseHandle } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import {
  auditLog,
  catalogueImports,
  claims,
  emailOutbox,
  listingOwners,
  locations,
  users,
} from "../../server/db/schema";
import { createLocalStorage } from "../../server/images/local-storage";
import { photoKeys, placeFolderKey } from "../../server/images/place-photos";
import { purgeDeletedPhotos } from "../../server/listings/photos";
import { insertOwnedListing } from "../../server/listings/test-support";
import { createScratchPostgres } from "../setup/db";
import type { Step } from "./driver";

const SERVER = process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, "../..");
const SLOW = { timeout: 240_000 };

let dataDir: string;
/**
 * The driver bundled into one file, once: each child then loads plain JavaScript instead of going
 * through tsx's loader for every module, which was a third of a child's CPU time. It lives under
 * the project's .tmp/ so that its imports of packages resolve in node_modules.
 */
const driver = path.join(ROOT, ".tmp", `crash-driver-${process.pid}.mjs`);
let postgres: { url: string; drop(): Promise<void> } | undefined;
/** On PostgreSQL the parent keeps its connection; PGlite admits one process at a time. */
let shared: DatabaseHandle | undefined;

interface Crash {
  pid: number;
  points: string[];
}

/**
 * Runs the driver with `steps`, kills it with SIGKILL where the last step stops, and returns the
 * points it passed. Fails when the child ends by itself (an error) or never gets there.
 */
function crash(steps: Step[]): Promise<Crash> {
  const stop = steps.at(-1)!;
  const target = `stopped ${stop.op}:${stop.stop}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [driver, JSON.stringify(steps)], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        // The driver's connections are named, so that the parent can wait for PostgreSQL to end them.
        DATABASE_URL: postgres ? `${postgres.url}?application_name=crash-driver` : "",
        DEMO_DATA: "off",
        LOG_LEVEL: "silent",
        // One analytics transaction at a time: the batches stored are exactly the batches reported.
        ANALYTICS_WRITERS: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const points: string[] = [];
    let stderr = "";
    let buffered = "";
    const guard = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        points.push(line);
        if (line === target) child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      if (signal === "SIGKILL" && points.includes(target)) resolve({ pid: child.pid!, points });
      else reject(new Error(`The driver ended (${signal ?? code}) before ${target}:\n${points.join("\n")}\n${stderr}`));
    });
  });
}

/** PostgreSQL ends a killed client's session (rolling back its transaction) once it notices. */
async function driverSessionsGone(db: Database): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = (await db.execute(
      sql`select count(*)::int as n from pg_stat_activity where application_name = 'crash-driver'`,
    )) as unknown as { rows: { n: number }[] };
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("PostgreSQL still runs the killed driver's session after 10 s");
}

/**
 * The database as the site finds it after the last crash. On PGlite that means the killed child's
 * lock and PostgreSQL's own postmaster.pid are still there, and opening takes both over.
 */
async function afterCrash<T>(last: Crash, check: (db: Database) => Promise<T>): Promise<T> {
  if (shared) {
    await driverSessionsGone(shared.db);
    return check(shared.db);
  }
  expect(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8").split("\n")[0]).toBe(String(last.pid));
  expect(fs.existsSync(path.join(dataDir, "pglite", "postmaster.pid"))).toBe(true);
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    await handle.migrate();
    return await check(handle.db);
  } finally {
    await handle.close();
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
  }
}

const rowsOf = async <T>(query: Promise<unknown>) => ((await query) as unknown as { rows: T[] }).rows;

// ---- the data each operation works on, written before any child runs ----

type Person = { userId: string; email: string };
let admin: Person;
const importFile = (name: string) => path.join(dataDir, name);
const IMPORT_ROWS = { cli: 20_000, applied: 1_000, cut: 1_000 };
const importIds = { applied: "", cut: "" };
const photoListings: Record<"kept" | "mid" | "cut", { locationId: string; owner: Person }> = {} as never;
let analyticsListings: string[] = [];
interface ClaimCase {
  claimId: string;
  rivalId: string;
  listingId: string;
  claimant: Person;
  rival: Person;
  previous: Person;
}
const claimCases: Record<"kept" | "mid" | "cut", ClaimCase> = {} as never;

function csv(prefix: string, rows: number): string {
  const lines = ["place_id,name,latitude,longitude,state"];
  for (let i = 0; i < rows; i++)
    lines.push(`${prefix}-${i},Crash Test ${prefix} ${i},${30 + (i % 997) / 1000},${-97 - (i % 991) / 1000},TX`);
  return `${lines.join("\n")}\n`;
}

async function seed(db: Database): Promise<void> {
  admin = await insertPerson(db, { role: "admin" });

  fs.writeFileSync(importFile("cli.csv"), csv("cli", IMPORT_ROWS.cli));
  fs.mkdirSync(path.join(dataDir, "imports"), { recursive: true });
  for (const name of ["applied", "cut"] as const) {
    const id = crypto.randomUUID();
    importIds[name] = id;
    const text = csv(name, IMPORT_ROWS[name]);
    fs.writeFileSync(path.join(dataDir, "imports", `${id}.csv`), text);
    await db.insert(catalogueImports).values({
      id,
      createdBy: admin.userId,
      createdByEmail: admin.email,
      fileName: `${name}.csv`,
      format: "csv",
      sizeBytes: text.length,
      status: "checked",
    });
  }

  for (const name of ["kept", "mid", "cut"] as const) {
    const { listing, owner } = await insertOwnedListing(db, { imageUrls: [], imageCount: 0 });
    photoListings[name] = { locationId: listing.placeId, owner };
  }

  analyticsListings = [];
  for (let i = 0; i < 4; i++) analyticsListings.push((await insertListing(db)).placeId);

  for (const name of ["kept", "mid", "cut"] as const) {
    // A transfer with a rival claim: approving sets the owner, raises the role, rejects the rival,
    // writes four audit rows and queues three emails.
    const listing = await insertListing(db);
    const previous = await insertPerson(db, { role: "business_owner" });
    await db.insert(listingOwners).values({ locationId: listing.placeId, userId: previous.userId });
    const claimant = await insertPerson(db);
    const rival = await insertPerson(db);
    const file = async (actor: Person) => {
      const filed = await fileClaim(db, memoryStore(), {
        actor: { ...actor, name: null, isAdmin: false },
        locationId: listing.placeId,
        input: CLAIM_INPUT,
        files: [],
      });
      if (!filed.ok) throw new Error(filed.fileErrors.join("; "));
      return filed.claimId;
    };
    claimCases[name] = {
      claimId: await file(claimant),
      rivalId: await file(rival),
      listingId: listing.placeId,
      claimant,
      rival,
      previous,
    };
  }
}

beforeAll(async () => {
  await build({
    entryPoints: [path.join(ROOT, "tests/crash/driver.ts")],
    outfile: driver,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rv-crash-"));
  // The parent's own configuration (the imports folder) reads the same folder.
  process.env.DATA_DIR = dataDir;
  if (SERVER) {
    postgres = await createScratchPostgres(SERVER);
    shared = await openDatabase({ kind: "postgres", url: postgres.url, max: 2 });
    await shared.migrate();
    await seed(shared.db);
    return;
  }
  // The migrated template of tests/setup/global-setup.ts, unpacked into a data directory.
  const template = process.env.PGLITE_TEMPLATE ?? path.resolve(".tmp/pglite-template.tar.gz");
  const client = await PGlite.create(path.join(dataDir, "pglite"), {
    loadDataDir: new Blob([fs.readFileSync(template)]),
  });
  try {
    await seed(drizzle({ client, schema }) as unknown as Database);
  } finally {
    await client.close();
  }
});

afterAll(async () => {
  await settleImports();
  await shared?.close();
  await postgres?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(driver, { force: true });
});

describe(`kill -9 mid-operation (${SERVER ? "PostgreSQL" : "PGlite"})`, () => {
  it("a catalogue import is written whole or not at all, its status with it", SLOW, async () => {
    const apply = (name: "applied" | "cut", stop: string): Step => ({
      op: "apply-import",
      args: { admin, importId: importIds[name] },
      stop,
    });
    // Just after the commit, before the file is removed; mid-file on the command line (2,500 of
    // 20,000 rows written); with every row written and the status set, before the commit.
    await crash([apply("applied", "tx2:committed")]);
    await crash([{ op: "import", args: { file: importFile("cli.csv") }, stop: "row3000" }]);
    const last = await crash([apply("cut", "tx2:commit")]);

    await afterCrash(last, async (db) => {
      const imported = async (prefix: string) =>
        (
          await db
            .select({ n: count() })
            .from(locations)
            .where(like(locations.placeId, `${prefix}-%`))
        )[0]!.n;
      const status = async (id: string) => (await getImport(db, id)).status;
      const fileOf = (id: string) => path.join(dataDir, "imports", `${id}.csv`);

      expect(await imported("applied")).toBe(IMPORT_ROWS.applied);
      expect(await status(importIds.applied)).toBe("applied");
      expect(await imported("cli")).toBe(0);
      expect(await imported("cut")).toBe(0);
      expect(await status(importIds.cut)).toBe("applying");
      expect(fs.existsSync(fileOf(importIds.applied))).toBe(true);
      expect(fs.existsSync(fileOf(importIds.cut))).toBe(true);

      // The daily job: the applied file goes; the cut-off import is failed once stale, and its file goes.
      const later = new Date(Date.now() + 31 * 60 * 1000);
      expect(await purgeStaleImportFiles(db, later)).toBe(2);
      expect(fs.existsSync(fileOf(importIds.applied))).toBe(false);
      expect(fs.existsSync(fileOf(importIds.cut))).toBe(false);
      expect(await getImport(db, importIds.cut)).toMatchObject({
        status: "failed",
        error: expect.stringContaining("nothing was written"),
      });
    });
  });

  it("a photo upload never leaves a photo without its files; orphaned files are cleaned up", SLOW, async () => {
    const upload = (name: keyof typeof photoListings, stop?: string): Step => ({
      op: "photos",
      args: { ...photoListings[name], count: 3 },
      ...(stop ? { stop } : {}),
    });
    // One upload done and a second one killed halfway through writing its files (18 of 36);
    // a third with every file written and the listing updated, before the commit.
    await crash([upload("kept"), upload("mid", "put18")]);
    const last = await crash([upload("cut", "tx1:commit")]);

    await afterCrash(last, async (db) => {
      const storage = createLocalStorage(dataDir);
      const listing = async (name: keyof typeof photoListings) =>
        (await db.select().from(locations).where(eq(locations.placeId, photoListings[name].locationId)))[0]!;
      const stored = async (name: keyof typeof photoListings) =>
        storage.list(placeFolderKey(photoListings[name].locationId));

      const audited = async (name: keyof typeof photoListings) =>
        (
          await db.select({ n: count() }).from(auditLog).where(eq(auditLog.subjectId, photoListings[name].locationId))
        )[0]!.n;

      const kept = await listing("kept");
      expect(kept).toMatchObject({ imageCount: 3, photoSeq: 3 });
      expect(await audited("kept")).toBe(1);
      for (const name of ["mid", "cut"] as const) {
        expect(await listing(name)).toMatchObject({ imageUrls: [], imageCount: 0, photoSeq: 0 });
        expect(await audited(name)).toBe(0);
      }
      // Every listed photo has all its files.
      for (const url of kept.imageUrls) {
        const ref = imageRefFromUrl(url)!;
        for (const key of photoKeys(ref.placeId, ref.index)) expect(await storage.exists(key)).toBe(true);
      }
      // The uploads cut off left files no listing lists: photo 1 whole and part of 2; photos 1 to 3.
      expect((await stored("mid")).length).toBeGreaterThanOrEqual(18);
      expect(await stored("cut")).toHaveLength(36);

      // The daily job removes them once an hour old, and nothing that is listed.
      const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
      expect(await purgeDeletedPhotos(db, storage, later)).toEqual({ purged: 0, orphans: 5 });
      expect(await stored("mid")).toEqual([]);
      expect(await stored("cut")).toEqual([]);
      expect(await stored("kept")).toHaveLength(36);
    });
  });

  it("analytics ingestion keeps the counters equal to the raw events stored", SLOW, async () => {
    const ingest = (prefix: string, stop?: string): Step => ({
      op: "analytics",
      args: { prefix, batches: 8, size: 40, inFlight: 3, locationIds: analyticsListings },
      ...(stop ? { stop } : {}),
    });
    // Eight batches stored and then a run killed after the first statement of its second
    // transaction (the raw events inserted, nothing counted yet); a run killed before committing.
    const first = await crash([ingest("kept"), ingest("mid", "tx2:stmt2")]);
    const last = await crash([ingest("cut", "tx2:commit")]);
    // The batches the last step of a run reported stored.
    const reported = ({ points }: Crash) =>
      points.slice(points.lastIndexOf("at analytics:start")).filter((p) => p.startsWith("at analytics:batch")).length;
    const listed = sql.join(
      analyticsListings.map((id) => sql`${id}`),
      sql`, `,
    );

    await afterCrash(last, async (db) => {
      const perBatch = await rowsOf<{ session: string; n: number }>(
        db.execute(sql`select auth_session_id as session, count(*)::int as n from analytics_events
          where location_id in (${listed}) group by auth_session_id`),
      );
      const batches = (prefix: string) => perBatch.filter((b) => b.session.startsWith(`${prefix}-session-`));
      // Each batch whole or absent; the batches reported stored are there, the others are not.
      for (const batch of perBatch) expect(batch.n).toBe(40);
      expect(batches("kept")).toHaveLength(8);
      expect(batches("mid")).toHaveLength(reported(first));
      expect(batches("cut")).toHaveLength(reported(last));
      expect(batches("mid").length).toBeLessThan(8);
      expect(batches("cut").length).toBeLessThan(8);

      const counters = await rowsOf<Record<string, number>>(
        db.execute(sql`
          select m.location_id,
            m.page_views::int, (select count(*)::int from analytics_events e
              where e.location_id = m.location_id and e.event_type = 'page_view') as raw_page_views,
            m.list_views::int, (select count(*)::int from analytics_events e
              where e.location_id = m.location_id and e.event_type = 'list_view') as raw_list_views,
            m.contact_clicks::int, (select count(*)::int from analytics_events e
              where e.location_id = m.location_id and e.event_type = 'click') as raw_clicks,
            m.unique_visitors::int, (select count(distinct auth_session_id)::int from analytics_events e
              where e.location_id = m.location_id and e.event_type = 'page_view') as raw_visitors,
            (select sum(d.page_views + d.list_views + d.contact_clicks)::int from location_metrics_daily d
              where d.location_id = m.location_id) as daily_events,
            (select sum(c.count)::int from analytics_session_caps c
              where c.location_id = m.location_id) as capped_events
          from location_metrics m where m.location_id in (${listed})`),
      );
      expect(counters).toHaveLength(4);
      for (const c of counters) {
        const raw = c.raw_page_views! + c.raw_list_views! + c.raw_clicks!;
        expect(c).toMatchObject({
          page_views: c.raw_page_views,
          list_views: c.raw_list_views,
          contact_clicks: c.raw_clicks,
          unique_visitors: c.raw_visitors,
          daily_events: raw,
          capped_events: raw,
        });
      }
    });
  });

  it("a claim approval is written with all its effects or not at all", SLOW, async () => {
    const approve = (name: keyof typeof claimCases, stop?: string): Step => ({
      op: "claim",
      args: { admin, claimId: claimCases[name].claimId },
      ...(stop ? { stop } : {}),
    });
    // One approval done and a second killed at its first email (claim, owner and two audit rows
    // written); a third killed with everything written, before the commit.
    await crash([approve("kept"), approve("mid", "tx1:insert:email_outbox")]);
    const last = await crash([approve("cut", "tx1:commit")]);

    await afterCrash(last, async (db) => {
      const state = async (c: ClaimCase) => {
        const status = async (id: string) =>
          (await db.select({ status: claims.status }).from(claims).where(eq(claims.id, id)))[0]!.status;
        const [owner] = await db
          .select({ userId: listingOwners.userId })
          .from(listingOwners)
          .where(eq(listingOwners.locationId, c.listingId));
        const [person] = await db.select({ role: users.role }).from(users).where(eq(users.id, c.claimant.userId));
        const audit = await db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(
            or(
              inArray(auditLog.subjectId, [c.claimId, c.rivalId, c.claimant.userId]),
              and(eq(auditLog.subjectId, c.listingId), eq(auditLog.subjectType, "listing")),
            ),
          );
        const mail = await db
          .select({ kind: emailOutbox.kind })
          .from(emailOutbox)
          .where(inArray(emailOutbox.toAddress, [c.claimant.email, c.rival.email, c.previous.email]));
        return {
          claim: await status(c.claimId),
          rival: await status(c.rivalId),
          owner: owner?.userId,
          role: person?.role,
          audit: audit.map((a) => a.action).sort(),
          mail: mail.map((m) => m.kind).sort(),
        };
      };
      const pending = (c: ClaimCase) => ({
        claim: "pending",
        rival: "pending",
        owner: c.previous.userId,
        role: "user",
        audit: ["claim.file", "claim.file"],
        mail: ["claim.received", "claim.received"],
      });
      const c = claimCases;
      expect(await state(c.kept)).toEqual({
        claim: "approved",
        rival: "rejected",
        owner: c.kept.claimant.userId,
        role: "business_owner",
        audit: ["claim.approve", "claim.file", "claim.file", "claim.reject", "listing.owner.set", "user.role"],
        mail: ["claim.approved", "claim.received", "claim.received", "claim.rejected", "claim.transferred"],
      });
      expect(await state(c.mid)).toEqual(pending(c.mid));
      expect(await state(c.cut)).toEqual(pending(c.cut));
    });
  });
});
