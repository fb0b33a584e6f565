import { sendAvailabilityReminders } from "./listings/availability-reminders";
import { sendMonthlyReports } from "./account/monthly-report";
import { purgeIdleAnonymousUsers } from "./auth/anonymous-cleanup";
import { pruneAnalytics, pruneSearchDemand } from "./analytics/retention";
import { countVisitorDays } from "./analytics/rollups";
import { sql } from "drizzle-orm";
import type { Database } from "./db/client";
import { pruneRateLimits } from "./http/shared-rate-limit";
import { getImageStorage } from "./images";
import { purgeDeletedPhotos } from "./listings/photos";
import { purgeLeadContacts } from "./leads/service";
import { expireReservationRequests } from "./leads/reservations";
import { purgeStaleImportFiles } from "./catalogue/imports";
import { checkListingProblems } from "./catalogue/problems";
import { logger } from "./logger";
import { issueRenewalInvoices } from "./promotions/renewals";
import { applyScheduledPlanChanges } from "./promotions/change-plan";
import { endExpiredPromotions } from "./promotions/service";
import { INSTANCE_ID } from "./search/channel";
import { CHANGE_LOG_DAYS } from "./search/refresh";

const HOUR_MS = 60 * 60 * 1000;

/**
 * The daily housekeeping:
 * deleting anonymous accounts idle for 30 days, counting the platform's visitors of each settled
 * day, and pruning raw analytics events (90 days), daily unique-session marks (8 days) and daily
 * search demand (2 years), and ending promotions whose paid period (plus the grace
 * days for a past-due one) is over, after switching the plan of promotions whose paid renewal with
 * another plan has begun, and sending invoice-mode renewal invoices before a period ends
 * (docs/product.md section 11), and sending the owners' monthly performance email once the month is
 * over and removing the files of photos deleted more than PHOTO_RESTORE_DAYS ago (section 10), and
 * of catalogue imports checked but never applied within a week, and looking for data problems in
 * every listing (section 12), and expiring reservation requests left unanswered (section 17). Each runs once a day across all instances (the `job_runs` table);
 * each is idempotent too, so `npm run auth:purge-anonymous` can run the first from cron as well.
 */
export const DAILY_JOBS: Record<string, (db: Database) => Promise<unknown>> = {
  "purge idle anonymous accounts": purgeIdleAnonymousUsers,
  // Before the sessions of its oldest days are pruned (docs/decisions/017-admin-analytics-rollups.md).
  "count daily visitors": (db) => countVisitorDays(db),
  "prune old analytics rows": (db) => pruneAnalytics(db),
  "prune old search demand": (db) => pruneSearchDemand(db),
  "drop ended rate-limit windows": (db) => pruneRateLimits(db),
  "apply scheduled plan changes": (db) => applyScheduledPlanChanges(db),
  "end expired promotions": (db) => endExpiredPromotions(db),
  "send renewal invoices": (db) => issueRenewalInvoices(db),
  "send monthly performance emails": (db) => sendMonthlyReports(db),
  "purge deleted photos": (db) => purgeDeletedPhotos(db, getImageStorage()),
  "remove unapplied import files": (db) => purgeStaleImportFiles(db),
  "check listing data": (db) => checkListingProblems(db),
  // Owners whose availability is 14 days old are asked to confirm it (docs/product.md section 17).
  "remind owners to confirm availability": (db) => sendAvailabilityReminders(db),
  // Visitors' contact details on leads are kept LEAD_RETENTION_DAYS (docs/product.md section 14).
  "delete old lead contact details": (db) => purgeLeadContacts(db),
  // Reservation requests unanswered after 72 hours expire; both sides are told (docs/product.md section 17).
  "expire unanswered reservation requests": (db) => expireReservationRequests(db),
  // Search indexes catch up from the change log; one older than this rebuilds (server/search/refresh.ts).
  "forget old catalogue changes": (db) =>
    db.execute(sql`delete from location_changes where changed_at < now() - make_interval(days => ${CHANGE_LOG_DAYS})`),
  "forget old job runs": (db) => db.execute(sql`delete from job_runs where day < current_date - 90`),
};

/** How long a started run keeps other instances off it; after that a run left unfinished (its
 * instance died) is taken over. Longer than any job takes. */
export const JOB_LEASE_MINUTES = 120;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Claims today's (UTC, the database's clock) run of `name` for this instance: true when this
 * instance should run it now. One statement, so of several instances racing exactly one wins; a
 * finished run, or one still within its lease, is never claimed again that day.
 */
export async function claimJobRun(db: Database, name: string, instance = INSTANCE_ID): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      insert into job_runs as r (name, day, instance, started_at, lease_until)
      values (${name}, (now() at time zone 'utc')::date, ${instance}, now(),
              now() + make_interval(mins => ${JOB_LEASE_MINUTES}))
      on conflict (name, day) do update set
        instance = excluded.instance, started_at = excluded.started_at, lease_until = excluded.lease_until
      where r.finished_at is null and r.lease_until < now()
      returning 1 as claimed`),
  );
  return rows.length === 1;
}

async function finishJobRun(db: Database, name: string, instance: string, outcome: "done" | "failed") {
  await db.execute(sql`
    update job_runs set finished_at = now(), outcome = ${outcome}
    where name = ${name} and day = (now() at time zone 'utc')::date and instance = ${instance}`);
}

/**
 * Runs each daily job whose run for today this instance claims, in order; a failing job is logged
 * and does not stop the others (it runs again the next day). Returns the jobs this instance ran.
 */
export async function runDueDailyJobs(db: Database, instance = INSTANCE_ID): Promise<string[]> {
  const ran: string[] = [];
  for (const [name, job] of Object.entries(DAILY_JOBS)) {
    try {
      if (!(await claimJobRun(db, name, instance))) continue;
    } catch (error) {
      logger.warn({ err: error, job: name }, "could not claim a daily job; trying again at the next check");
      continue;
    }
    ran.push(name);
    let outcome: "done" | "failed" = "done";
    try {
      const result = await job(db);
      logger.info({ job: name, result }, "daily job done");
    } catch (error) {
      outcome = "failed";
      logger.warn({ err: error, job: name }, "daily job failed; it runs again tomorrow");
    }
    await finishJobRun(db, name, instance, outcome).catch((error: unknown) =>
      logger.warn({ err: error, job: name }, "could not record the end of a daily job"),
    );
  }
  return ran;
}

/**
 * Checks a minute after start-up and then every `everyMs` (an hour) for daily jobs not yet run
 * today by any instance (docs/operations.md "Scaling": each runs once a day, whichever instance
 * comes first after midnight UTC).
 */
export function scheduleDailyJobs(db: Database, everyMs = HOUR_MS): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await runDueDailyJobs(db);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), 60_000);
  const timer = setInterval(() => void run(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
