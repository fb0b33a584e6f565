import { LEAD_STATUSES, type LeadStatus } from "../../app/lib/leads";
import { oneOf } from "../../app/lib/table-params";
import { ownedListings } from "../auth/ownership";
import type { SignedInViewer } from "../auth/viewer";
import { formatCsv } from "../csv";
import { getDatabase } from "../db";
import { AppError } from "../errors";
import { redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { leadsOf, replyToLead, setLeadStatus, type LeadViewer } from "./service";

/** /owner/leads and its CSV (docs/product.md section 14). */

export const OWNER_LEADS_PAGE_SIZE = 20;
const CSV_MAX_ROWS = 10_000;

const leadViewer = (viewer: SignedInViewer): LeadViewer => ({
  userId: viewer.userId,
  email: viewer.email,
  name: viewer.name ?? viewer.email,
  isAdmin: viewer.isAdmin,
});

async function scope(viewer: SignedInViewer, params: URLSearchParams) {
  const listings = await ownedListings(getDatabase(), viewer.userId);
  const wanted = (params.get("listing") ?? "").slice(0, 200);
  const listing = listings.some((l) => l.placeId === wanted) ? wanted : "";
  const status = oneOf(params.get("status"), [...LEAD_STATUSES, "all"] as const, "all");
  const ids = listing ? [listing] : listings.map((l) => l.placeId);
  return { listings, listing, status, ids };
}

export async function ownerLeadsPage(viewer: SignedInViewer, request: Request) {
  const params = new URL(request.url).searchParams;
  const { listings, listing, status, ids } = await scope(viewer, params);
  const rawPage = Number(params.get("page") ?? "1");
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 10_000 ? rawPage : 1;
  const { rows, total } = await leadsOf(getDatabase(), ids, { status, page, pageSize: OWNER_LEADS_PAGE_SIZE });
  return {
    listings: listings.map((l) => ({ id: l.placeId, name: l.name })),
    listing,
    status,
    page,
    pageSize: OWNER_LEADS_PAGE_SIZE,
    total,
    leads: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      replies: r.replies.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
    })),
  };
}

export async function ownerLeadsAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const leadId = String(form.get("leadId") ?? "").slice(0, 100);
  const back = String(form.get("back") ?? "");
  const here = back.startsWith("/owner/leads") && !back.startsWith("//") ? back : "/owner/leads";
  const db = getDatabase();
  try {
    if (intent === "reply") {
      await replyToLead(db, {
        viewer: leadViewer(viewer),
        leadId,
        body: String(form.get("body") ?? "").slice(0, 20_000),
        requestId,
      });
      return redirectWithFlash(here, { kind: "success", text: "Reply sent by email; it is kept with the lead." });
    }
    if (intent === "status") {
      const status = String(form.get("status") ?? "") as LeadStatus;
      await setLeadStatus(db, { viewer: leadViewer(viewer), leadId, status, requestId });
      return redirectWithFlash(here, { kind: "success", text: "Status saved." });
    }
  } catch (error) {
    // A lead this account may not see is a 404 page, as if it did not exist; the rest is a message.
    if (error instanceof AppError && [400, 409].includes(error.status))
      return redirectWithFlash(here, { kind: "error", text: error.message });
    throw error;
  }
  throw new AppError("bad_request", 400, "Choose reply or status.");
}

/** GET /owner/leads.csv?listing=&status=: the leads as the screen filters them. */
export async function ownerLeadsCsv(viewer: SignedInViewer, request: Request): Promise<Response> {
  const { ids, status } = await scope(viewer, new URL(request.url).searchParams);
  const { rows } = await leadsOf(getDatabase(), ids, { status, page: 1, pageSize: CSV_MAX_ROWS });
  const header = [
    "date",
    "listing",
    "status",
    "rv_type",
    "rv_length_feet",
    "space",
    "move_in",
    "name",
    "email",
    "phone",
    "message",
    "replies",
  ];
  const body = formatCsv(
    header,
    rows.map((r) => [
      r.createdAt.toISOString(),
      r.listingName,
      r.status,
      r.rvType,
      r.rvLengthFeet,
      r.cover,
      r.moveIn,
      r.name,
      r.email,
      r.phone,
      r.message,
      r.replies.length,
    ]),
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="leads-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
