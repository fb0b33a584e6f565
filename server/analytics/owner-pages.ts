import { reviewStatsFor } from "../reviews/queries";
import { eq } from "drizzle-orm";
import { ALL_LISTINGS, CUSTOM_RANGE } from "../../domain/analytics-period";
import { ownedListings, ownsListing, type OwnedListing } from "../auth/ownership";
import type { SignedInViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { badRequest, forbidden, notFound } from "../errors";
import { buildOwnerReport, dailyCsv, parseReportPeriod, type OwnerReport } from "./owner-report";

/**
 * The loader bodies of /owner/locations/analytics and its CSV (docs/product.md section 10,
 * "Analytics"), so that the route modules stay thin. The console guard has run; this checks, on the
 * server, that every listing asked for is the viewer's (admins: any listing, by `?listing=`).
 */

type Viewer = Pick<SignedInViewer, "userId" | "isAdmin">;

export interface ListingSelection {
  /** The listings the picker offers: the viewer's own, plus an admin's `?listing=` one. */
  options: OwnedListing[];
  /** The listing chosen, or null for "All my listings". */
  selected: OwnedListing | null;
  /** The listings the report covers. */
  ids: string[];
}

const listingColumns = {
  placeId: locations.placeId,
  name: locations.name,
  slug: locations.slug,
  city: locations.city,
  state: locations.state,
};

/** 404 for a listing that does not exist, 403 for one that is someone else's (unless admin). */
export async function selectListings(db: Database, viewer: Viewer, listing: string | null): Promise<ListingSelection> {
  const options = await ownedListings(db, viewer.userId);
  const wanted = (listing ?? "").trim();
  if (wanted === "" || wanted === ALL_LISTINGS) return { options, selected: null, ids: options.map((o) => o.placeId) };
  const own = options.find((o) => o.placeId === wanted);
  if (own) return { options, selected: own, ids: [own.placeId] };
  if (wanted.length > 200) throw notFound("This listing does not exist or was removed.");
  const [row] = await db.select(listingColumns).from(locations).where(eq(locations.placeId, wanted));
  if (!row) throw notFound("This listing does not exist or was removed.");
  // Someone else's: refused unless admin (ownsListing covers an ownership granted a moment ago).
  if (!viewer.isAdmin && !(await ownsListing(db, viewer.userId, wanted)))
    throw forbidden("You do not manage this listing.");
  return { options: [...options, row], selected: row, ids: [row.placeId] };
}

export type AnalyticsPageData =
  | {
      ok: true;
      selection: ListingSelection;
      values: { listing: string; from: string; to: string; days: string };
      preset: number | null;
      report: OwnerReport | null;
      /** Reviews published in the period and their mean stars. */
      reviews: { count: number; average: number | null };
    }
  | {
      ok: false;
      selection: ListingSelection;
      values: { listing: string; from: string; to: string; days: string };
      error: { field: "from" | "to" | "days"; message: string };
    };

/** /owner/locations/analytics: a bad period is answered on the page itself (status 400), values kept. */
export async function ownerAnalyticsPage(
  request: Request,
  viewer: Viewer,
  now = new Date(),
): Promise<{ status: number; data: AnalyticsPageData }> {
  const db = getDatabase();
  const params = new URL(request.url).searchParams;
  const selection = await selectListings(db, viewer, params.get("listing"));
  const values = {
    listing: selection.selected?.placeId ?? ALL_LISTINGS,
    from: (params.get("from") ?? "").slice(0, 20),
    to: (params.get("to") ?? "").slice(0, 20),
    days: (params.get("days") ?? "").slice(0, 10),
  };
  if (values.days === "" && (values.from || values.to)) values.days = CUSTOM_RANGE;
  const parsed = parseReportPeriod(params, now);
  if (!parsed.ok)
    return {
      status: 400,
      data: { ok: false, selection, values, error: { field: parsed.field, message: parsed.message } },
    };
  const { period } = parsed;
  const report = selection.ids.length > 0 ? await buildOwnerReport(db, selection.ids, period, now) : null;
  // Reviews published in the period on these listings (docs/product.md section 16), whole UTC days.
  const reviews = await reviewStatsFor(db, selection.ids, {
    from: new Date(`${period.from}T00:00:00Z`),
    to: new Date(new Date(`${period.to}T00:00:00Z`).getTime() + 24 * 60 * 60_000),
  });
  return {
    status: 200,
    data: {
      ok: true,
      selection,
      // The form shows the dates the report covers, so a preset can be narrowed from there.
      values: {
        ...values,
        from: period.from,
        to: period.to,
        days: period.preset ? String(period.preset) : CUSTOM_RANGE,
      },
      preset: period.preset,
      report,
      reviews,
    },
  };
}

/** /owner/locations/analytics.csv?listing=&from=&to= (or &days=): the daily rows, as a download. */
export async function ownerAnalyticsCsv(request: Request, viewer: Viewer, now = new Date()): Promise<Response> {
  const db = getDatabase();
  const params = new URL(request.url).searchParams;
  const selection = await selectListings(db, viewer, params.get("listing"));
  const parsed = parseReportPeriod(params, now);
  if (!parsed.ok) throw badRequest(parsed.message, { field: parsed.field });
  const { period } = parsed;
  const report = await buildOwnerReport(db, selection.ids, period, now);
  const name = selection.selected ? selection.selected.slug : "all-listings";
  const file = `analytics-${name}-${period.from}-to-${period.to}.csv`.replace(/[^A-Za-z0-9._-]/g, "-");
  return new Response(dailyCsv(report.daily), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
