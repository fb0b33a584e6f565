import { displayUsPhone } from "../../domain/claim-form";
import { LEAD_KINDS, LEAD_STATUSES, type LeadStatus } from "../../domain/leads";
import { answerWithin, RESERVATION_MESSAGES, shownReservationStatus } from "../../domain/reservations";
import { oneOf } from "../../domain/table-params";
import { ownedListings } from "../auth/ownership";
import { safeRedirect } from "../auth/redirect";
import type { SignedInViewer } from "../auth/viewer";
import { serverNow } from "../clock";
import { formatCsv } from "../csv";
import { getDatabase } from "../db";
import { AppError } from "../errors";
import { redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal } from "../http/refusal";
import {
  leadByToken,
  leadsOf,
  listingsWithLeadsFor,
  replyToLead,
  setLeadStatus,
  withdrawLead,
  type LeadViewer,
} from "./service";
import { answerReservation, pendingReservationCount } from "./reservations";

/** /owner/leads and its CSV (docs/product.md section 14). */

export const OWNER_LEADS_PAGE_SIZE = 20;
const OWNER_LEADS_PATH = "/owner/leads";
const CSV_MAX_ROWS = 10_000;

const leadViewer = (viewer: SignedInViewer): LeadViewer => ({
  userId: viewer.userId,
  email: viewer.email,
  name: viewer.name ?? viewer.email,
  isAdmin: viewer.isAdmin,
});

/**
 * The viewer's leads as the screen filters them. Leads are the viewer's own (sent to them), so the
 * listing filter offers the listings they own and those they gave up but still have leads of.
 */
async function scope(viewer: SignedInViewer, params: URLSearchParams) {
  const db = getDatabase();
  const [owned, withLeads] = await Promise.all([
    ownedListings(db, viewer.userId),
    listingsWithLeadsFor(db, viewer.userId),
  ]);
  const listings = [
    ...owned.map((l) => ({ id: l.placeId, name: l.name })),
    ...withLeads
      .filter((l) => !owned.some((o) => o.placeId === l.placeId))
      .map((l) => ({ id: l.placeId, name: l.name })),
  ].sort((a, b) => a.name.localeCompare(b.name));
  const wanted = (params.get("listing") ?? "").slice(0, 200);
  const listing = listings.some((l) => l.id === wanted) ? wanted : "";
  const status = oneOf(params.get("status"), [...LEAD_STATUSES, "all"] as const, "all");
  // Questions, reservation requests (docs/product.md section 17), or both.
  const kind = oneOf(params.get("kind"), [...LEAD_KINDS, "all"] as const, "all");
  const filter = { recipientUserId: viewer.userId, locationId: listing || undefined };
  return { listings, listing, status, kind, filter };
}

export async function ownerLeadsPage(viewer: SignedInViewer, request: Request) {
  const params = new URL(request.url).searchParams;
  const { listings, listing, status, kind, filter } = await scope(viewer, params);
  const rawPage = Number(params.get("page") ?? "1");
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 10_000 ? rawPage : 1;
  const now = serverNow();
  const [{ rows, total }, pendingReservations] = await Promise.all([
    leadsOf(getDatabase(), filter, { status, kind, page, pageSize: OWNER_LEADS_PAGE_SIZE }),
    pendingReservationCount(getDatabase(), viewer.userId, now),
  ]);
  return {
    listings,
    listing,
    status,
    kind,
    pendingReservations,
    page,
    pageSize: OWNER_LEADS_PAGE_SIZE,
    total,
    leads: rows.map(({ reservationStatus, expiresAt, answeredAt, ...r }) => ({
      ...r,
      // A pending request past its time reads expired before the daily job stores it so.
      reservation:
        r.kind === "reservation" && reservationStatus && expiresAt
          ? {
              status: shownReservationStatus(reservationStatus, expiresAt, now),
              timeLeft: answerWithin(expiresAt, now),
              expiresAt: expiresAt.toISOString(),
              answeredAt: answeredAt?.toISOString() ?? null,
            }
          : null,
      // Shown as the site shows phone numbers; the tel: link dials the stored E.164 number.
      phone: r.phone ? displayUsPhone(r.phone) : null,
      phoneTel: r.phone,
      createdAt: r.createdAt.toISOString(),
      replies: r.replies.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
    })),
  };
}

/**
 * Where to go after an action: the page the form was on (`back`, its filters and page) when that
 * is this screen on this site, else the screen itself. A `back` with a line break or another
 * control character, or naming another site, is ignored rather than put in a Location header.
 */
export function backTo(back: FormDataEntryValue | null): string {
  const path = safeRedirect(typeof back === "string" ? back : null, OWNER_LEADS_PATH);
  return new URL(path, "http://leads.invalid").pathname === OWNER_LEADS_PATH ? path : OWNER_LEADS_PATH;
}

export async function ownerLeadsAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const leadId = field("leadId").slice(0, 100);
  const here = backTo(form.get("back"));
  const db = getDatabase();
  try {
    if (intent === "reply") {
      await replyToLead(db, {
        viewer: leadViewer(viewer),
        leadId,
        body: field("body").slice(0, 20_000),
        requestId,
      });
      return redirectWithFlash(here, { kind: "success", text: "Reply sent by email; it is kept with the lead." });
    }
    if (intent === "status") {
      const status = field("status") as LeadStatus;
      await setLeadStatus(db, { viewer: leadViewer(viewer), leadId, status, requestId });
      return redirectWithFlash(here, { kind: "success", text: "Status saved." });
    }
    // A reservation request's answer (docs/product.md section 17); declining may carry a note.
    if (intent === "accept" || intent === "decline") {
      await answerReservation(db, {
        viewer: leadViewer(viewer),
        leadId,
        answer: intent,
        note: field("note").slice(0, 2_000),
        requestId,
      });
      return redirectWithFlash(here, {
        kind: "success",
        text: intent === "accept" ? RESERVATION_MESSAGES.accepted : RESERVATION_MESSAGES.declined,
      });
    }
  } catch (error) {
    // A lead this account may not see is a 404 page, as if it did not exist; the rest is a message.
    return flashRefusal(here, error, ["bad_request", "conflict"]);
  }
  throw new AppError("bad_request", 400, "Choose reply, status, accept or decline.");
}

/** GET /owner/leads.csv?listing=&status=: the leads as the screen filters them. */
export async function ownerLeadsCsv(viewer: SignedInViewer, request: Request): Promise<Response> {
  const { filter, status, kind } = await scope(viewer, new URL(request.url).searchParams);
  const { rows } = await leadsOf(getDatabase(), filter, { status, kind, page: 1, pageSize: CSV_MAX_ROWS });
  const now = serverNow();
  const header = [
    "date",
    "listing",
    "kind",
    "status",
    "reservation_status",
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
      r.kind,
      r.status,
      r.reservationStatus ? shownReservationStatus(r.reservationStatus, r.expiresAt, now) : null,
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

const withdrawDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const withdrawToken = (value: unknown) => String(value ?? "").slice(0, 200);

/** GET /leads/withdraw?token=: the visitor's question the receipt's link names, if any. */
export async function withdrawLeadPage(request: Request) {
  const token = withdrawToken(new URL(request.url).searchParams.get("token"));
  const lead = await leadByToken(getDatabase(), token);
  return {
    token,
    lead: lead
      ? { listing: lead.listing, sent: withdrawDate.format(lead.createdAt), withdrawn: lead.status === "withdrawn" }
      : null,
  };
}

/** POST /leads/withdraw: withdraws the question and deletes the contact details. */
export async function withdrawLeadAction(request: Request) {
  const form = await readForm(request);
  return { withdrawn: await withdrawLead(getDatabase(), withdrawToken(form.get("token"))) };
}
