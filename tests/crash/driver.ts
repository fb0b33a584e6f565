/**
 * The child process of tests/crash/crash.db.test.ts. It opens the database the way the site and the
 * command-line tools do (DATABASE_URL, else the embedded one in DATA_DIR, taking its lock), then
 * runs its steps one after another, each one operation through its service function, and reports
 * where it is on stdout, one `at STEP:POINT` line per point. A step with a `stop` point writes
 * `stopped STEP:POINT` when it gets there and freezes on the spot (the whole thread, synchronously,
 * so no timer, query or I/O callback runs any more): the parent's SIGKILL lands exactly there.
 *
 *   node --import tsx tests/crash/driver.ts '[{"op":"claim","stop":"tx1:commit","args":{...}}]'
 *
 * (the test runs it bundled into one file, which starts faster).
 *
 * The points inside a step's transactions come from a wrapper around the database: `tx2:begin`;
 * `tx2:stmt3` before the third statement and, with it, `tx2:insert:email_outbox` or `tx2:execute3`
 * (when the statement is built or sent: everything before it has run); `tx2:commit` once the
 * callback has returned and before COMMIT is sent; `tx2:committed` once COMMIT has answered.
 */
import fs from "node:fs";
import { getTableName, type Table } from "drizzle-orm";
import { getConfig } from "../../server/config";
import { databaseOptionsFromConfig, openDatabase, type Database } from "../../server/db/client";

export interface Step {
  op: "import" | "apply-import" | "photos" | "analytics" | "claim";
  /** The point to freeze at (then the parent kills); none: run the step to its end. */
  stop?: string;
  args: Record<string, unknown>;
}

let step: Step = { op: "import", args: {} };
let transactions = 0;

/** Reports a point (the line is out before anything else happens) and freezes there if asked. */
function point(name: string): void {
  fs.writeSync(1, `at ${step.op}:${name}\n`);
  if (name !== step.stop) return;
  fs.writeSync(1, `stopped ${step.op}:${name}\n`);
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

/** The database with every transaction reporting its points. */
function watched(db: Database): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "transaction") return Reflect.get(target, property, receiver) as unknown;
      type Run = (tx: Database) => Promise<unknown>;
      return (run: Run, config?: unknown) => {
        const id = `tx${++transactions}`;
        const transaction = target.transaction.bind(target) as (run: Run, config?: unknown) => Promise<unknown>;
        return transaction(async (tx) => {
          point(`${id}:begin`);
          const result = await run(inTransaction(tx, id));
          point(`${id}:commit`);
          return result;
        }, config).then((result) => {
          point(`${id}:committed`);
          return result;
        });
      };
    },
  });
}

function inTransaction(tx: Database, id: string): Database {
  let statements = 0;
  let executed = 0;
  return new Proxy(tx, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === "insert" || property === "update" || property === "delete")
        return (table: Table) => {
          point(`${id}:stmt${++statements}`);
          point(`${id}:${property}:${getTableName(table)}`);
          return method.call(target, table);
        };
      if (property === "execute")
        return (query: unknown) => {
          point(`${id}:stmt${++statements}`);
          point(`${id}:execute${++executed}`);
          return method.call(target, query);
        };
      return method.bind(target);
    },
  });
}

type Person = { userId: string; email: string };

const operations: Record<Step["op"], (db: Database, args: Record<string, unknown>) => Promise<unknown>> = {
  /** What `npm run import -- FILE` does (scripts/import.ts), with a point every 1,000 rows read. */
  async import(db, args) {
    const { openLocationFile } = await import("../../server/locations/read-file");
    const { importSource } = await import("../../server/locations/import");
    const source = await openLocationFile(String(args.file));
    async function* rows() {
      let read = 0;
      for await (const row of source.rows) {
        if (++read % 1000 === 0) point(`row${read}`);
        yield row;
      }
    }
    const report = await importSource(db, { ...source, rows: rows() });
    return { accepted: report.accepted };
  },

  /** An administrator applying a checked import from the browser (server/catalogue/imports.ts). */
  async "apply-import"(db, args) {
    const { applyImport, settleImports } = await import("../../server/catalogue/imports");
    await applyImport(db, args.admin as Person, String(args.importId));
    await settleImports();
    return {};
  },

  /** An owner uploading photos (server/listings/photos.ts); a point after every stored file. */
  async photos(db, args) {
    const { createLocalStorage } = await import("../../server/images/local-storage");
    const { addListingPhotos } = await import("../../server/listings/photos");
    const sharp = (await import("sharp")).default;
    const storage = createLocalStorage(getConfig().dataDir);
    let puts = 0;
    const counting = {
      ...storage,
      async put(key: string, bytes: Uint8Array) {
        await storage.put(key, bytes);
        point(`put${++puts}`);
      },
    };
    const files = await Promise.all(
      Array.from({ length: Number(args.count) }, async (_, i) => {
        const background = { r: 40 * i, g: 90, b: 40 };
        const image = sharp({ create: { width: 64, height: 48, channels: 3, background } });
        return { name: `crash-${i}.jpg`, bytes: new Uint8Array(await image.jpeg().toBuffer()) };
      }),
    );
    const result = await addListingPhotos(db, counting, {
      actor: { ...(args.owner as Person), isAdmin: false },
      locationId: String(args.locationId),
      files,
    });
    return { added: result.added.length, rejected: result.rejected.length };
  },

  /**
   * Visitors' events (server/analytics/ingest.ts): `batches` batches of `size` events over the
   * listings, each batch from its own session and address, `inFlight` at a time, so that the
   * writer groups them into transactions. A point as each batch is stored.
   */
  async analytics(db, args) {
    const { ingestEvents } = await import("../../server/analytics/ingest");
    const ids = args.locationIds as string[];
    const prefix = String(args.prefix);
    const now = new Date();
    const batch = (n: number) =>
      Array.from({ length: Number(args.size) }, (_, i) => ({
        eventId: `${prefix}-${n}-${i}`,
        eventType: (["page_view", "list_view", "list_view", "click"] as const)[i % 4]!,
        ...(i % 4 === 3 ? { elementType: "phone" as const } : {}),
        timestamp: now.toISOString(),
        sessionId: `${prefix}-visit-${n}`,
        locationId: ids[Math.floor(i / 4) % ids.length]!,
        url: "https://rv.example/location/x",
      }));
    let next = 0;
    const sender = async () => {
      while (next < Number(args.batches)) {
        const n = next++;
        const session = `${prefix}-session-${n}`;
        await ingestEvents(db, batch(n), {
          authSessionId: session,
          userId: null,
          siteOrigin: "https://rv.example",
          clientIp: `address-${session}`,
        });
        point(`batch${n}`);
      }
    };
    await Promise.all(Array.from({ length: Number(args.inFlight) }, sender));
    return {};
  },

  /** An administrator approving a claim (server/claims/service.ts decideClaim). */
  async claim(db, args) {
    const { decideClaim } = await import("../../server/claims/service");
    return decideClaim(db, {
      actor: { ...(args.admin as Person), name: null, isAdmin: true },
      claimId: String(args.claimId),
      decision: "approve",
      reason: "Verified by phone.",
    });
  },
};

const steps = JSON.parse(process.argv[2] ?? "[]") as Step[];
const handle = await openDatabase(databaseOptionsFromConfig(getConfig()));
await handle.migrate();
fs.writeSync(1, "at open\n");
const db = watched(handle.db);
for (const each of steps) {
  step = each;
  transactions = 0;
  point("start");
  const result = await operations[each.op](db, each.args);
  fs.writeSync(1, `result ${each.op} ${JSON.stringify(result)}\n`);
  point("done");
}
// Still holding the database: the parent kills this process here too.
setInterval(() => {}, 60_000);
