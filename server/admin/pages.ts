import { pendingClaimCount } from "../claims/queries";
import { getDatabase } from "../db";
import { queueCounts } from "../catalogue/reports";
import { unownedLeadCount } from "../leads/service";
import { pendingChangeCount } from "../listings/queries";
import { promotionCounts } from "../promotions/admin-queries";
import { reviewQueueCount } from "../reviews/queries";
import { weekFigures } from "./overview";

/** /admin: what waits for an administrator, and the week's figures. */
export async function adminOverviewPage() {
  const db = getDatabase();
  const [pendingClaims, pendingChanges, promotions, queue, week, leads, reviews] = await Promise.all([
    pendingClaimCount(db),
    pendingChangeCount(db),
    promotionCounts(db),
    queueCounts(db),
    weekFigures(db),
    unownedLeadCount(db),
    reviewQueueCount(db),
  ]);
  return {
    pendingClaims,
    pendingChanges,
    openInvoices: promotions.openInvoices,
    openReports: queue.reports,
    listingsWithProblems: queue.listingsWithProblems,
    week,
    waitingLeads: leads,
    /** Held and reported reviews (docs/product.md section 16). */
    reviewsToCheck: reviews,
  };
}
