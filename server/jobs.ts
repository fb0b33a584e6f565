import { sendMonthlyReports } from "./account/monthly-report";
import { purgeIdleAnonymousUsers } from "./auth/anonymous-cleanup";
import { pruneAnalytics, pruneSearchDemand } from "./analytics/retention";
import { countVisitorDays } from "./analytics/rollups";
import type { Database } from "./db/client";
import { pruneRateLimits } from "./http/shared-rate-limit";
import { getImageStorage } from "./images";
import { purgeDeletedPhotos } from "./listings/photos";
import { purgeLeadContacts } from "./leads/service";
import { purgeStaleImportFiles } from "./catalogue/imports";
import { checkListingProblems } from "./catalogue/problems";
import { logger } from "./logger";
import { issueRenewalInvoices } from "./promotions/renewals";
import { applyScheduledPlanChanges } from "./promotions/change-plan";
import { endExpiredPromotions } from "./promotions/service";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The housekeeping each app instance runs a minute after start-up and then every 24 hours:
 * deleting anonymous accounts idle for 30 days, counting the platform's visitors of each settled
 * day, and pruning raw analytics events (90 days), daily unique-session marks (8 days) and daily
 * search demand (2 years), and ending promotions whose paid period (plus the grace
 * days for a past-due one) is over, after switching the plan of promotions whose paid renewal with
 * another plan has begun, and sending invoice-mode renewal invoices before a period ends
 * (docs/product.md section 11), and sending the owners' monthly performance email once the month is
 * over and removing the files of photos deleted more than PHOTO_RESTORE_DAYS ago (section 10), and
 * of catalogue imports checked but never applied within a week, and looking for data problems in
 * every listing (section 12). Each
 * job is idempotent, so several instances running them
 * at once is harmless; `npm run auth:purge-anonymous` runs the first from cron as well.
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
  // Visitors' contact details on leads are kept LEAD_RETENTION_DAYS (docs/product.md section 14).
  "delete old lead contact details": (db) => purgeLeadContacts(db),
};

export function scheduleDailyJobs(db: Database, everyMs = DAY_MS): () => void {
  const run = async () => {
    for (const [name, job] of Object.entries(DAILY_JOBS)) {
      try {
        const result = await job(db);
        logger.info({ job: name, result }, "daily job done");
      } catch (error) {
        logger.warn({ err: error, job: name }, "daily job failed; it runs again tomorrow");
      }
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
