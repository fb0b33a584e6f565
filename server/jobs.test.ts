import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "./db/client";
import { DAILY_JOBS, scheduleDailyJobs } from "./jobs";

const original = { ...DAILY_JOBS };
afterEach(() => {
  vi.useRealTimers();
  for (const key of Object.keys(DAILY_JOBS)) delete DAILY_JOBS[key];
  Object.assign(DAILY_JOBS, original);
});

describe("daily jobs", () => {
  it("checks a minute after start and then every interval, and a failing job does not stop the others", async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    for (const key of Object.keys(DAILY_JOBS)) delete DAILY_JOBS[key];
    DAILY_JOBS.failing = async () => {
      calls.push("failing");
      throw new Error("database down");
    };
    DAILY_JOBS.working = async () => {
      calls.push("working");
    };
    // Every claim succeeds: the claiming itself is tested on a real database in jobs.db.test.ts.
    const db = { execute: async () => ({ rows: [{ claimed: 1 }] }) } as unknown as Database;
    const stop = scheduleDailyJobs(db, 1000 * 60 * 60 * 24);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(["failing", "working"]);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    expect(calls).toHaveLength(4);
    stop();
    await vi.advanceTimersByTimeAsync(2 * 24 * 60 * 60 * 1000);
    expect(calls).toHaveLength(4);
  });

  it("includes the anonymous-account purge, the visitor count, the analytics and search demand pruning, the plan switches, the promotion expiry and renewal invoices, the monthly emails, the photo purge, the import-file purge, the data check, the availability reminders, the leads' contact purge and the reservation expiry", () => {
    expect(Object.keys(original)).toEqual([
      "purge idle anonymous accounts",
      "count daily visitors",
      "prune old analytics rows",
      "prune old search demand",
      "drop ended rate-limit windows",
      "apply scheduled plan changes",
      "end expired promotions",
      "send renewal invoices",
      "send monthly performance emails",
      "purge deleted photos",
      "remove unapplied import files",
      "check listing data",
      "remind owners to confirm availability",
      "delete old lead contact details",
      "expire unanswered reservation requests",
      "forget old catalogue changes",
      "forget old job runs",
    ]);
  });
});
