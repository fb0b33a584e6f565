import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { redirect } from "react-router";
import { z } from "zod";
import { isTier, type Tier } from "../../domain/tiers";
import { requireListingOwner } from "../auth/guards";
import { ownedListings } from "../auth/ownership";
import type { SignedInViewer } from "../auth/viewer";
import { getConfig, invoiceIssuer, publicOrigin } from "../config";
import { getDatabase } from "../db";
import { locations, type PromotionRow } from "../db/schema";
import { AppError, notFound } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { formRefusal } from "../http/refusal";
import { changePlan } from "./change-plan";
import {
  cancelStripeAtPeriodEnd,
  changeStripePlan,
  handleStripeWebhook,
  openCustomerPortal,
  startCheckout,
  syncCheckoutSession,
} from "./stripe";
import { formatAmount } from "./emails";
import { INTERVALS, PAID_TIERS, planFor, type Interval } from "./plans";
import { paymentProvider } from "./provider";
import {
  openInvoiceOf,
  promotionById,
  promotionSummaryOf,
  type PromotionSummary,
  type PromotionSummaryInvoice,
} from "./queries";
import { invoiceForViewer } from "./summary";
import { cancelAtPeriodEnd, issueInvoice, requestPromotion } from "./service";
import { PROMOTION_MESSAGES, requireBuyerOrAdmin } from "./common";
import { type Actor, actorOf } from "../auth/actor";

/**
 * The loader and action bodies of the owner's promotion screens (docs/product.md section 11):
 * /owner/promote, /owner/checkout, /owner/checkout/success and /owner/invoices/{id}. Each takes
 * the viewer the console's guard put in context; who may act on a listing is checked again by the
 * service on every write.
 */
const MAX_ID = 200;
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
export const dateText = (d: Date | null | undefined) => (d ? dateFormat.format(d) : null);

export const INTERVAL_WORDS: Record<Interval, { adjective: string; per: string }> = {
  month: { adjective: "Monthly", per: "per month" },
  year: { adjective: "Yearly", per: "per year" },
};

export const promotePath = (locationId?: string) =>
  locationId ? `/owner/promote?listing=${encodeURIComponent(locationId)}` : "/owner/promote";
export const checkoutPath = (promotionId: string) => `/owner/checkout?promotion=${encodeURIComponent(promotionId)}`;
export const successPath = (promotionId: string) =>
  `/owner/checkout/success?promotion=${encodeURIComponent(promotionId)}`;
export const invoicePath = (invoiceId: string) => `/owner/invoices/${encodeURIComponent(invoiceId)}`;

/** The plans as the screens show them: prices in dollars, what a year saves. */
export function plansForDisplay(settings = getConfig()) {
  const { currency, plans } = settings.promotionPlans;
  return plans.map((plan) => {
    const saving = plan.prices.month * 12 - plan.prices.year;
    return {
      tier: plan.tier,
      name: plan.name,
      features: plan.features,
      month: formatAmount(plan.prices.month, currency),
      year: formatAmount(plan.prices.year, currency),
      yearSaving: saving > 0 ? `Save ${formatAmount(saving, currency)} a year` : null,
    };
  });
}

/** A live promotion in words, for the dashboard and the promote screen. */
export function liveView(live: PromotionSummary["promotion"]) {
  if (!live) return null;
  const end = dateText(live.periodEnd);
  let statusText: string;
  if (live.status === "pending") statusText = "Waiting for payment";
  else if (live.status === "past_due") statusText = `Payment overdue since ${end}`;
  else if (live.cancelAtPeriodEnd) statusText = `Cancelled: active until ${end}`;
  else if (live.provider === "invoice") statusText = `Active until ${end}; renews when the next invoice is paid`;
  else if (live.provider === "admin") statusText = `Granted by the directory until ${end}`;
  else statusText = `Renews on ${end}`;
  const next = live.nextTier
    ? `${live.nextTier}, ${live.nextInterval === "year" ? "yearly" : "monthly"}, from ${end}`
    : null;
  return {
    id: live.id,
    next,
    tier: live.tier,
    interval: live.interval as Interval,
    provider: live.provider,
    status: live.status,
    cancelAtPeriodEnd: live.cancelAtPeriodEnd,
    periodEnd: end,
    statusText,
  };
}

export function invoiceView(i: PromotionSummaryInvoice, listingName: string) {
  return {
    id: i.id,
    number: i.number,
    status: i.status,
    listingName,
    tier: i.tier ?? i.promotionTier,
    amount: formatAmount(i.amountCents, i.currency),
    issued: dateText(i.issuedAt)!,
    due: dateText(i.dueAt),
    paid: dateText(i.paidAt),
    hostedInvoiceUrl: i.hostedInvoiceUrl,
  };
}

async function tiersOf(ids: string[]): Promise<Map<string, Tier>> {
  if (ids.length === 0) return new Map();
  const rows = await getDatabase()
    .select({ placeId: locations.placeId, tier: locations.tier })
    .from(locations)
    .where(inArray(locations.placeId, ids));
  return new Map(rows.map((r) => [r.placeId, isTier(r.tier) ? r.tier : "Free"]));
}

/** A listing with its tier, its live promotion in words and that promotion's open invoice. */
function withBilling<L extends { name: string }>(listing: L, tier: Tier, billing: PromotionSummary | undefined) {
  const live = billing?.promotion ?? null;
  const open = live ? billing!.invoices.find((i) => i.status === "open" && i.promotionId === live.id) : undefined;
  return {
    ...listing,
    tier,
    live: liveView(live),
    openInvoice: open ? invoiceView(open, listing.name) : null,
  };
}

/** The owner's listings with their tier, live promotion and bills. */
export async function ownerBilling(viewer: SignedInViewer) {
  const db = getDatabase();
  const listings = await ownedListings(db, viewer.userId);
  const ids = listings.map((l) => l.placeId);
  const [tiers, billing] = await Promise.all([
    tiersOf(ids),
    promotionSummaryOf(db, ids, { buyerUserId: viewer.userId }),
  ]);
  const rows = listings.map((l) => withBilling(l, tiers.get(l.placeId) ?? "Free", billing.get(l.placeId)));
  const invoices = listings
    .flatMap((l) => (billing.get(l.placeId)?.invoices ?? []).map((i) => ({ i, name: l.name })))
    .sort((a, b) => b.i.issuedAt.getTime() - a.i.issuedAt.getTime())
    .slice(0, 20)
    .map(({ i, name }) => invoiceView(i, name));
  return { listings: rows, invoices };
}

/** /owner/promote[?listing=id] */
export async function promotePage(request: Request, viewer: SignedInViewer) {
  const settings = getConfig();
  const url = new URL(request.url);
  const { listings, invoices } = await ownerBilling(viewer);
  const wanted = url.searchParams.get("listing")?.slice(0, MAX_ID) || null;
  let selected = wanted ? listings.find((l) => l.placeId === wanted) : listings.length === 1 ? listings[0] : undefined;
  if (wanted && !selected) {
    // Not one of the viewer's listings: an admin may still open it; anyone else is refused.
    await requireListingOwner(request, wanted, viewer);
    const db = getDatabase();
    const [row] = await db
      .select({
        placeId: locations.placeId,
        name: locations.name,
        slug: locations.slug,
        city: locations.city,
        state: locations.state,
      })
      .from(locations)
      .where(inArray(locations.placeId, [wanted]));
    const billing = await promotionSummaryOf(db, [wanted]);
    const tier = (await tiersOf([wanted])).get(wanted) ?? "Free";
    selected = withBilling(row!, tier, billing.get(wanted));
  }
  return {
    provider: paymentProvider(settings),
    graceDays: settings.PROMOTION_GRACE_DAYS,
    plans: plansForDisplay(settings),
    listings,
    selected: selected ?? null,
    openInvoices: invoices.filter((i) => i.status === "open"),
    /** The form's one-time key: submitting twice makes one promotion (docs/product.md section 11). */
    key: randomUUID(),
  };
}

const id = z.string({ error: "Reload the page and try again." }).trim().min(1).max(MAX_ID);
const tierField = z.enum(PAID_TIERS, { error: PROMOTION_MESSAGES.unknownPlan });
const intervalField = z.enum(INTERVALS, { error: PROMOTION_MESSAGES.unknownInterval });

const promoteSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("request"),
      locationId: id,
      tier: tierField,
      interval: intervalField,
      key: z.string({ error: "Reload the page and try again." }).min(8).max(200),
    }),
    z.object({ intent: z.literal("change"), promotionId: id, tier: tierField, interval: intervalField }),
    z.object({ intent: z.literal("cancel"), promotionId: id }),
    z.object({ intent: z.literal("renew"), promotionId: id }),
    z.object({ intent: z.literal("portal"), promotionId: id }),
  ],
  { error: "Reload the page and try again." },
);

/** A refusal the owner can act on (400, 409) is shown in the form; 403 and 404 are error pages. */
function inForm(error: unknown, result: Parameters<typeof formFailure>[0]) {
  return formRefusal(result, error, ["bad_request", "conflict"]);
}

/**
 * Plan changes are applied by the provider that bills the promotion. Kept apart so the screens do
 * not know which one it is.
 */
async function changePlanOf(
  promotion: PromotionRow,
  input: { actor: Actor; tier: string; interval: string; requestId: string | null },
): Promise<{ message: string; redirectTo?: string }> {
  const db = getDatabase();
  const { promotion: after, changed } =
    promotion.provider === "stripe"
      ? await changeStripePlan(db, { ...input, promotionId: promotion.id })
      : await changePlan(db, { ...input, promotionId: promotion.id });
  const plan = `${after.tier}, ${after.interval === "year" ? "yearly" : "monthly"}`;
  if (after.status === "pending")
    return changed
      ? { message: `Your request is now for ${plan}.`, redirectTo: checkoutPath(after.id) }
      : { message: `Your request is already for ${plan}.`, redirectTo: checkoutPath(after.id) };
  if (promotion.provider === "stripe")
    return {
      message: changed
        ? `Your plan is now ${plan}. Stripe charges or credits the difference on your card.`
        : `The plan stays ${plan}.`,
    };
  if (after.nextTier)
    return {
      message: `From ${dateText(after.periodEnd)} the plan is ${after.nextTier}, ${after.nextInterval === "year" ? "yearly" : "monthly"}; the next invoice is for that plan.`,
    };
  return { message: changed ? `No change is scheduled: the plan stays ${plan}.` : `The plan stays ${plan}.` };
}

/**
 * Who may act on the listing the form names is settled before anything else: someone else's
 * listing is refused (403) whatever the rest of the form says. The service checks again.
 */
async function requireFormListing(request: Request, viewer: SignedInViewer, form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const promotionId = text("promotionId");
  const locationId = text("locationId");
  if (promotionId.length > MAX_ID || locationId.length > MAX_ID) throw notFound(PROMOTION_MESSAGES.listingGone);
  if (promotionId) {
    const promotion = await promotionById(getDatabase(), promotionId);
    if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
    await requireListingOwner(request, promotion.locationId, viewer);
    await requireBuyerOrAdmin(getDatabase(), actorOf(viewer), promotion);
  } else if (locationId) {
    await requireListingOwner(request, locationId, viewer);
  }
}

export async function promoteAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  await requireFormListing(request, viewer, form);
  const result = parseFormSubmission(promoteSchema, form);
  if (!result.ok) return formFailure(result);
  const db = getDatabase();
  const input = result.data;
  const actor = actorOf(viewer);
  try {
    if (input.intent === "request") {
      const { promotion } = await requestPromotion(db, {
        actor,
        locationId: input.locationId,
        tier: input.tier,
        interval: input.interval,
        idempotencyKey: input.key,
        provider: paymentProvider(),
        requestId,
      });
      return redirect(checkoutPath(promotion.id), 303);
    }
    const promotion = await promotionById(db, input.promotionId);
    if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
    if (input.intent === "change") {
      const changed = await changePlanOf(promotion, { actor, tier: input.tier, interval: input.interval, requestId });
      return redirectWithFlash(changed.redirectTo ?? promotePath(promotion.locationId), {
        kind: "success",
        text: changed.message,
      });
    }
    if (input.intent === "renew") {
      const { invoice, created } = await issueInvoice(db, { actor, promotionId: promotion.id, requestId });
      return redirectWithFlash(invoicePath(invoice.id), {
        kind: "success",
        text: created
          ? `Invoice ${invoice.number} for the next period is on its way to ${viewer.email}.`
          : `Invoice ${invoice.number} is already open for the next period.`,
      });
    }
    if (input.intent === "portal") {
      const { url } = await openCustomerPortal(db, {
        actor,
        promotionId: promotion.id,
        returnUrl: `${publicOrigin(getConfig())}${promotePath(promotion.locationId)}`,
      });
      return redirect(url, 303);
    }
    const after =
      promotion.provider === "stripe"
        ? await cancelStripeAtPeriodEnd(db, { actor, promotionId: promotion.id, requestId })
        : await cancelAtPeriodEnd(db, { actor, promotionId: promotion.id, requestId });
    return redirectWithFlash(promotePath(promotion.locationId), {
      kind: "success",
      text:
        after.status === "void"
          ? "Your request is cancelled and its invoice voided: nothing is owed."
          : `${after.tier} stays active until ${dateText(after.periodEnd)}, then ends. You will not be billed again.`,
    });
  } catch (error) {
    return inForm(error, result);
  }
}

/**
 * The promotion named in ?promotion=, if the viewer may see it: its buyer while owning the listing,
 * or an admin (a listing's later owner may not: billing belongs to the account that bought it).
 */
async function promotionOfQuery(request: Request, viewer: SignedInViewer) {
  const promotionId = new URL(request.url).searchParams.get("promotion")?.slice(0, MAX_ID);
  if (!promotionId) throw redirect(promotePath());
  const promotion = await promotionById(getDatabase(), promotionId);
  if (!promotion) throw notFound(PROMOTION_MESSAGES.promotionGone);
  await requireListingOwner(request, promotion.locationId, viewer);
  await requireBuyerOrAdmin(getDatabase(), actorOf(viewer), promotion);
  return promotion;
}

async function listingNameOf(locationId: string) {
  const [row] = await getDatabase()
    .select({ name: locations.name, slug: locations.slug })
    .from(locations)
    .where(inArray(locations.placeId, [locationId]));
  return row ?? { name: "your listing", slug: "" };
}

function promotionView(promotion: PromotionRow, settings = getConfig()) {
  const plan = planFor(settings.promotionPlans, promotion.tier);
  const interval = promotion.interval as Interval;
  const cents = plan?.prices[interval] ?? 0;
  return {
    id: promotion.id,
    locationId: promotion.locationId,
    tier: promotion.tier,
    planName: plan?.name ?? promotion.tier,
    features: plan?.features ?? [],
    interval,
    intervalText: INTERVAL_WORDS[interval].adjective,
    amount: `${formatAmount(cents, settings.promotionPlans.currency)} ${INTERVAL_WORDS[interval].per}`,
    provider: promotion.provider,
    status: promotion.status,
    periodStart: dateText(promotion.periodStart),
    periodEnd: dateText(promotion.periodEnd),
    cancelAtPeriodEnd: promotion.cancelAtPeriodEnd,
    endReason: promotion.endReason,
  };
}

/** /owner/checkout?promotion=id: what will be charged, then the payment by the provider. */
export async function checkoutPage(request: Request, viewer: SignedInViewer) {
  const settings = getConfig();
  const promotion = await promotionOfQuery(request, viewer);
  if (promotion.status === "active" || promotion.status === "past_due") throw redirect(successPath(promotion.id), 303);
  const open = await openInvoiceOf(getDatabase(), promotion.id);
  return {
    promotion: promotionView(promotion, settings),
    listing: await listingNameOf(promotion.locationId),
    openInvoice: open ? { id: open.id, number: open.number } : null,
    dueDays: settings.INVOICE_DUE_DAYS,
  };
}

export async function checkoutAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const promotion = await promotionOfQuery(request, viewer);
  const result = parseFormSubmission(z.object({ intent: z.literal("pay") }), await readForm(request));
  if (!result.ok) return formFailure(result);
  try {
    if (promotion.provider === "invoice") {
      await issueInvoice(getDatabase(), { actor: actorOf(viewer), promotionId: promotion.id, requestId });
      return redirect(successPath(promotion.id), 303);
    }
    const { url } = await startCheckout(getDatabase(), {
      actor: actorOf(viewer),
      promotionId: promotion.id,
      origin: publicOrigin(getConfig()),
    });
    // Stripe's own payment page: the one redirect off this site, to an address Stripe gave.
    if (!url.startsWith("https://") && !url.startsWith("http://"))
      throw new AppError("bad_gateway", 502, "Stripe did not return a payment page.");
    return redirect(url, 303);
  } catch (error) {
    return inForm(error, result);
  }
}

/** /owner/checkout/success?promotion=id: what is active and until when; reading it changes nothing. */
export async function checkoutSuccessPage(request: Request, viewer: SignedInViewer) {
  const settings = getConfig();
  let promotion = await promotionOfQuery(request, viewer);
  const db = getDatabase();
  const sessionId = new URL(request.url).searchParams.get("session_id");
  // Back from Stripe before its webhook: ask Stripe, and activate exactly as the webhook would.
  if (promotion.provider === "stripe" && promotion.status === "pending" && sessionId)
    promotion = await syncCheckoutSession(db, { actor: actorOf(viewer), promotionId: promotion.id, sessionId });
  const open = await openInvoiceOf(db, promotion.id);
  return {
    promotion: promotionView(promotion, settings),
    listing: await listingNameOf(promotion.locationId),
    email: viewer.email,
    invoice: open
      ? {
          id: open.id,
          number: open.number,
          amount: formatAmount(open.amountCents, open.currency),
          due: dateText(open.dueAt),
        }
      : null,
    paymentInstructions: settings.INVOICE_PAYMENT_INSTRUCTIONS,
  };
}

/**
 * /owner/invoices/{id}: one invoice or receipt, printable, for the account billed (its buyer, also
 * after the listing moved to someone else: it is their receipt) or an admin; never for a listing's
 * later owner, as it names the buyer.
 */
export async function invoicePage(_request: Request, viewer: SignedInViewer, invoiceId: string) {
  if (invoiceId.length > MAX_ID) throw notFound(PROMOTION_MESSAGES.invoiceGone);
  const settings = getConfig();
  const found = await invoiceForViewer(getDatabase(), actorOf(viewer), invoiceId);
  const { invoice, promotion, listing, buyer } = found;
  const plan = planFor(settings.promotionPlans, promotion.tier);
  const interval = promotion.interval as Interval;
  return {
    invoice: {
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      amount: formatAmount(invoice.amountCents, invoice.currency),
      // Promotions are billed without sales tax; the invoice says so with its own line.
      noTax: formatAmount(0, invoice.currency),
      issued: dateText(invoice.issuedAt)!,
      due: dateText(invoice.dueAt),
      paid: dateText(invoice.paidAt),
      voided: dateText(invoice.voidedAt),
      voidReason: invoice.voidReason,
      period:
        invoice.periodStart && invoice.periodEnd
          ? `${dateText(invoice.periodStart)} to ${dateText(invoice.periodEnd)}`
          : `One ${interval} from the day the payment is recorded`,
      hostedInvoiceUrl: invoice.hostedInvoiceUrl,
    },
    line: `${plan?.name ?? promotion.tier} plan, ${INTERVAL_WORDS[interval].adjective.toLowerCase()}: ${listing.name}`,
    listing,
    billTo: buyer?.email ? { name: buyer.name, email: buyer.email } : null,
    issuer: invoiceIssuer(settings),
    paymentInstructions: settings.INVOICE_PAYMENT_INSTRUCTIONS,
  };
}

/** POST /api/stripe/webhook: Stripe's signed events (docs/api.md); the raw body is what is signed. */
export async function stripeWebhookAction(request: Request): Promise<Response> {
  const raw = Buffer.from(await request.arrayBuffer());
  const answer = await handleStripeWebhook(getDatabase(), raw, request.headers.get("stripe-signature"));
  return Response.json(answer.body, { status: answer.status });
}
