import { randomUUID } from "node:crypto";
import { z } from "zod";
import { MAX_TEXT_FILTER_LENGTH } from "../../domain/input-limits";
import { clampPage, oneOf, parseTableParams } from "../../domain/table-params";
import type { SignedInViewer } from "../auth/viewer";
import { getConfig } from "../config";
import { getDatabase } from "../db";
import { INVOICE_STATUSES, PROMOTION_PROVIDERS, PROMOTION_STATUSES } from "../db/schema";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal, formRefusal, isRefusal } from "../http/refusal";
import {
  ADMIN_INVOICE_SORTS,
  ADMIN_PROMOTION_SORTS,
  adminInvoiceList,
  adminPromotionList,
  promotionCounts,
  type AdminInvoiceSort,
  type AdminPromotionSort,
} from "./admin-queries";
import { formatAmount } from "./emails";
import { dateText } from "./pages";
import { endPromotionWithBilling } from "./stripe";
import { INTERVALS, PAID_TIERS } from "./plans";
import { grantPromotion, markInvoicePaid, voidInvoice } from "./service";
import { PROMOTION_MESSAGES } from "./common";
import { actorOf } from "../auth/actor";

/**
 * /admin/promotions (docs/product.md section 11): invoices to mark paid or void, promotions to
 * end, and grants. Two tabs of one screen, each a server-sorted table whose filters live in the
 * URL. Every decision names a reason where the rules ask for one and leaves audit rows.
 */
export const ADMIN_PROMOTIONS_PAGE_SIZE = 25;
const MAX_ID = 200;
const REASON_MAX = 500;

export async function adminPromotionsPage(request: Request) {
  const params = new URL(request.url).searchParams;
  const view = params.get("view") === "promotions" ? "promotions" : "invoices";
  const q = (params.get("q") ?? "").slice(0, MAX_TEXT_FILTER_LENGTH).trim();
  const db = getDatabase();
  const counts = await promotionCounts(db);
  const plans = getConfig().promotionPlans.plans.map((p) => ({ tier: p.tier, name: p.name }));
  const grantKey = randomUUID();

  if (view === "invoices") {
    const table = parseTableParams<AdminInvoiceSort>(params, {
      sortable: ADMIN_INVOICE_SORTS,
      defaultSort: "issued",
      defaultDir: "desc",
    });
    const status = oneOf(params.get("status"), [...INVOICE_STATUSES, "all"] as const, "open");
    const query = { status, q, sort: table.sort, dir: table.dir, pageSize: ADMIN_PROMOTIONS_PAGE_SIZE };
    let list = await adminInvoiceList(db, { ...query, page: table.page });
    const page = clampPage(table.page, list.total, ADMIN_PROMOTIONS_PAGE_SIZE);
    if (page !== table.page) list = await adminInvoiceList(db, { ...query, page });
    return {
      view,
      counts,
      plans,
      grantKey,
      q,
      status,
      provider: "all",
      tier: "all",
      sort: table.sort as string,
      dir: table.dir,
      page,
      pageSize: ADMIN_PROMOTIONS_PAGE_SIZE,
      total: list.total,
      invoices: list.rows.map((r) => ({
        ...r,
        amount: formatAmount(r.amountCents, r.currency),
        issued: dateText(r.issuedAt)!,
        due: dateText(r.dueAt),
        paid: dateText(r.paidAt),
        overdue: r.status === "open" && r.dueAt !== null && r.dueAt.getTime() < Date.now(),
      })),
      promotions: [],
    };
  }

  const table = parseTableParams<AdminPromotionSort>(params, {
    sortable: ADMIN_PROMOTION_SORTS,
    defaultSort: "ends",
    defaultDir: "asc",
  });
  const status = oneOf(params.get("status"), [...PROMOTION_STATUSES, "live", "all"] as const, "live");
  const provider = oneOf(params.get("provider"), [...PROMOTION_PROVIDERS, "all"] as const, "all");
  const tier = oneOf(params.get("tier"), [...PAID_TIERS, "all"] as const, "all");
  const query = { status, provider, tier, q, sort: table.sort, dir: table.dir, pageSize: ADMIN_PROMOTIONS_PAGE_SIZE };
  let list = await adminPromotionList(db, { ...query, page: table.page });
  const page = clampPage(table.page, list.total, ADMIN_PROMOTIONS_PAGE_SIZE);
  if (page !== table.page) list = await adminPromotionList(db, { ...query, page });
  return {
    view,
    counts,
    plans,
    grantKey,
    q,
    status,
    provider,
    tier,
    sort: table.sort as string,
    dir: table.dir,
    page,
    pageSize: ADMIN_PROMOTIONS_PAGE_SIZE,
    total: list.total,
    invoices: [],
    promotions: list.rows.map((r) => ({
      ...r,
      start: dateText(r.periodStart),
      end: dateText(r.periodEnd),
      created: dateText(r.createdAt)!,
      live: r.status === "pending" || r.status === "active" || r.status === "past_due",
    })),
  };
}

const id = z.string({ error: "Reload the page and try again." }).trim().min(1).max(MAX_ID);
const reason = z
  .string({ error: PROMOTION_MESSAGES.reasonNeeded })
  .trim()
  .min(3, PROMOTION_MESSAGES.reasonNeeded)
  .max(REASON_MAX, PROMOTION_MESSAGES.reasonNeeded);

const decisionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("paid"), invoiceId: id }),
    z.object({ intent: z.literal("void"), invoiceId: id, reason }),
    z.object({ intent: z.literal("end"), promotionId: id, reason }),
    z.object({
      intent: z.literal("grant"),
      locationId: z.string({ error: "Enter the listing's id." }).trim().min(1).max(MAX_ID),
      tier: z.enum(PAID_TIERS, { error: PROMOTION_MESSAGES.unknownPlan }),
      interval: z.enum(INTERVALS, { error: PROMOTION_MESSAGES.unknownInterval }),
      reason,
      key: z.string().min(8).max(200),
    }),
  ],
  { error: "Reload the page and try again." },
);

/**
 * A decision from either tab. Success and refusals a click cannot fix (another admin was first,
 * the invoice is paid already) go back to the same list with a toast; a missing reason or a bad
 * grant answers the form's errors.
 */
export async function adminPromotionsAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const back = `/admin/promotions${new URL(request.url).search}`;
  const result = parseFormSubmission(decisionSchema, await readForm(request));
  if (!result.ok) return formFailure(result);
  const db = getDatabase();
  const actor = actorOf(viewer);
  const input = result.data;
  try {
    switch (input.intent) {
      case "paid": {
        const { invoice, promotion, changed } = await markInvoicePaid(db, {
          actor,
          invoiceId: input.invoiceId,
          requestId,
        });
        return redirectWithFlash(back, {
          kind: changed ? "success" : "info",
          text: changed
            ? `Invoice ${invoice.number} is paid: ${promotion.tier} is active until ${dateText(promotion.periodEnd)}. The owner is emailed.`
            : `Invoice ${invoice.number} was already paid.`,
        });
      }
      case "void": {
        const { invoice } = await voidInvoice(db, {
          actor,
          invoiceId: input.invoiceId,
          reason: input.reason,
          requestId,
        });
        return redirectWithFlash(back, { kind: "success", text: `Invoice ${invoice.number} is void.` });
      }
      case "end": {
        // A card promotion's subscription is cancelled at Stripe first.
        const ended = await endPromotionWithBilling(db, {
          actor,
          promotionId: input.promotionId,
          reason: input.reason,
          requestId,
        });
        return redirectWithFlash(back, {
          kind: "success",
          text: `The ${ended.tier} promotion has ended; the listing is back on its previous plan.`,
        });
      }
      case "grant": {
        const granted = await grantPromotion(db, {
          actor,
          locationId: input.locationId,
          tier: input.tier,
          interval: input.interval,
          reason: input.reason,
          idempotencyKey: `grant:${input.key}`,
          requestId,
        });
        return redirectWithFlash("/admin/promotions?view=promotions", {
          kind: "success",
          text: `Granted ${granted.tier} until ${dateText(granted.periodEnd)}.`,
        });
      }
    }
  } catch (error) {
    if (input.intent !== "grant") return flashRefusal(back, error, ["bad_request", "not_found", "conflict"]);
    // A listing that is not there is said beside the listing field.
    if (isRefusal(error, ["not_found"]))
      return formRefusal(result, error, ["not_found"], { field: "locationId", status: 400 });
    return formRefusal(result, error, ["bad_request", "conflict"]);
  }
}
