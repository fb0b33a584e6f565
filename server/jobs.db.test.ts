import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../tests/setup/db";
import type { DatabaseHandle } from "./db/client";
import { DAILY_JOBS, claimJobRun, runDueDailyJobs } from "./jobs";

const original = { ...DAILY_JOBS };
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});
afterEach(async () => {
  for (const key of Object.keys(DAILY_JOBS)) delete DAILY_JOBS[key];
  Object.assign(DAILY_JOBS, original);
  await handle.db.execute(sql`delete from job_runs`);
});

function replaceJobs(jobs: typeof DAILY_JOBS) {
  for (const key of Object.keys(DAILY_JOBS)) delete DAILY_JOBS[key];
  Object.assign(DAILY_JOBS, jobs);
}

const runsOf = async () =>
  (
    (await handle.db.execute(sql`select name, instance, outcome from job_runs order by name`)) as unknown as {
      rows: { name: string; instance: string; outcome: string | null }[];
    }
  ).rows;

describe(`daily jobs across instances (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("runs each job once a day however many instances race for it", async () => {
    const calls: Record<string, string[]> = { a: [], b: [], c: [] };
    const slow = (name: string) => async () => {
      calls[name]!.push(name);
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    replaceJobs({ a: slow("a"), b: slow("b"), c: slow("c") });

    // Six instances start their check at the same moment, each on its own connections.
    const ran = await Promise.all(["i1", "i2", "i3", "i4", "i5", "i6"].map((id) => runDueDailyJobs(handle.db, id)));

    expect(calls).toEqual({ a: ["a"], b: ["b"], c: ["c"] });
    expect(ran.flat().sort()).toEqual(["a", "b", "c"]);
    const runs = await runsOf();
    expect(runs.map((r) => [r.name, r.outcome])).toEqual([
      ["a", "done"],
      ["b", "done"],
      ["c", "done"],
    ]);
    // Checking again the same day runs nothing.
    expect(await runDueDailyJobs(handle.db, "i7")).toEqual([]);
  });

  it("records a failed job, goes on with the others, and does not run it again that day", async () => {
    let failures = 0;
    replaceJobs({
      failing: async () => {
        failures++;
        throw new Error("database down");
      },
      working: async () => "ok",
    });
    expect(await runDueDailyJobs(handle.db, "i1")).toEqual(["failing", "working"]);
    expect(await runDueDailyJobs(handle.db, "i2")).toEqual([]);
    expect(failures).toBe(1);
    expect((await runsOf()).map((r) => r.outcome)).toEqual(["failed", "done"]);
  });

  it("takes over a run whose instance died once its lease is over, and not before", async () => {
    expect(await claimJobRun(handle.db, "job", "dead")).toBe(true);
    // Still within the lease: nobody else may start it.
    expect(await claimJobRun(handle.db, "job", "other")).toBe(false);
    await handle.db.execute(sql`update job_runs set lease_until = now() - interval '1 second'`);
    expect(await claimJobRun(handle.db, "job", "other")).toBe(true);
    expect((await runsOf())[0]!.instance).toBe("other");
  });

  it("forgets runs older than 90 days", async () => {
    await handle.db.execute(sql`
      insert into job_runs (name, day, instance, started_at, lease_until, finished_at, outcome)
      values ('old', current_date - 91, 'x', now(), now(), now(), 'done'),
             ('recent', current_date - 89, 'x', now(), now(), now(), 'done')`);
    await original["forget old job runs"]!(handle.db);
    expect((await runsOf()).map((r) => r.name)).toEqual(["recent"]);
  });
});
