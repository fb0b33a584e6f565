import { getConfig, invoiceIssuer, publicOrigin, type InvoiceIssuerSettings } from "../config";
import type { Database } from "../db/client";
import type { InvoiceRow, PromotionRow } from "../db/schema";
import { enqueueEmail } from "../email";
import type { PromotionSettings } from "./common";

/**
 * The messages a promotion sends (docs/product.md section 11), queued in the caller's transaction
 * so they leave if and only if the change committed. Plain text.
 */
const site = () => publicOrigin(getConfig());
const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : "");

interface Party {
  email: string;
  name: string | null;
}

const hello = (to: Party) => `Hello${to.name ? ` ${to.name}` : ""},`;

export function formatAmount(cents: number, currency: string): string {
  const whole = Math.trunc(cents / 100).toLocaleString("en-US");
  const rest = String(cents % 100).padStart(2, "0");
  return currency === "usd" ? `$${whole}.${rest}` : `${whole}.${rest} ${currency.toUpperCase()}`;
}

export function invoiceIssued(
  db: Database,
  to: Party,
  o: {
    invoice: InvoiceRow;
    listingName: string;
    planName: string;
    interval: "month" | "year";
    settings: Pick<PromotionSettings, "INVOICE_PAYMENT_INSTRUCTIONS"> & InvoiceIssuerSettings;
  },
) {
  const { invoice } = o;
  const issuer = invoiceIssuer(o.settings);
  return enqueueEmail(db, {
    kind: "promotion.invoice",
    to: to.email,
    subject: `Invoice ${invoice.number} for ${o.listingName}`,
    text: [
      hello(to),
      "",
      `Here is invoice ${invoice.number} for the ${o.planName} plan (${o.interval === "year" ? "yearly" : "monthly"}) for ${o.listingName}.`,
      "",
      `Amount due: ${formatAmount(invoice.amountCents, invoice.currency)}`,
      `Due by: ${day(invoice.dueAt)}`,
      "",
      "How to pay:",
      o.settings.INVOICE_PAYMENT_INSTRUCTIONS,
      `Billing contact: ${issuer.email}`,
      "",
      "Your listing is promoted as soon as we record your payment.",
      "",
      `View or print this invoice: ${site()}/owner/invoices/${invoice.id}`,
      `Issued by: ${[issuer.name, ...issuer.address].join(", ")}${issuer.taxId ? ` (tax ID ${issuer.taxId})` : ""}`,
    ].join("\n"),
  });
}

export function paymentReceived(
  db: Database,
  to: Party,
  o: { invoice: InvoiceRow; listingName: string; promotion: PromotionRow },
) {
  // A renewal for another plan, paid before its period begins, switches the tier then (section 11).
  const tier = o.invoice.tier ?? o.promotion.tier;
  const later =
    tier !== o.promotion.tier && o.invoice.periodStart && o.invoice.paidAt && o.invoice.periodStart > o.invoice.paidAt;
  return enqueueEmail(db, {
    kind: "promotion.paid",
    to: to.email,
    subject: later
      ? `Payment received: ${o.listingName} becomes ${tier} on ${day(o.invoice.periodStart)}`
      : `Payment received: ${o.listingName} is now ${tier}`,
    text: [
      hello(to),
      "",
      `We recorded your payment of ${formatAmount(o.invoice.amountCents, o.invoice.currency)} for invoice ${o.invoice.number}.`,
      later
        ? `${o.listingName} stays ${o.promotion.tier} until ${day(o.invoice.periodStart)}, then is listed as ${tier} until ${day(o.promotion.periodEnd)}.`
        : `${o.listingName} is listed as ${tier} until ${day(o.promotion.periodEnd)}.`,
      "We email the invoice for the next period before this one ends; the plan continues once it is paid.",
      "To stop, cancel the plan on your dashboard: nothing more is billed.",
      "",
      `Your receipt: ${site()}/owner/invoices/${o.invoice.id}`,
    ].join("\n"),
  });
}

export function promotionEnded(db: Database, to: Party, o: { listingName: string; tier: string }) {
  return enqueueEmail(db, {
    kind: "promotion.ended",
    to: to.email,
    subject: `The promotion of ${o.listingName} has ended`,
    text: [
      hello(to),
      "",
      `The promotion of ${o.listingName} has ended; the listing is now ${o.tier}.`,
      "",
      `Promote it again: ${site()}/owner`,
    ].join("\n"),
  });
}

/**
 * The buyer of a promotion on a listing moved to another account, or whose ownership was removed
 * (docs/product.md section 11): billing belongs to the buyer, so it ended with the ownership, and nothing of it
 * passes to the listing's next owner.
 */
export function billingEndedByTransfer(
  db: Database,
  to: Party,
  o: { listingName: string; tier: string; provider: string; pending: boolean; removed: boolean },
) {
  const what = o.pending ? `your request for the ${o.tier} plan` : `your ${o.tier} promotion`;
  const billing =
    o.provider === "stripe"
      ? "Your card subscription for it is cancelled at Stripe: your card will not be charged for it again."
      : "Its open invoices are void: nothing more is owed for it.";
  return enqueueEmail(db, {
    kind: "promotion.transferred",
    to: to.email,
    subject: `You no longer manage ${o.listingName}: its promotion has ended`,
    text: [
      hello(to),
      "",
      o.removed
        ? `An administrator removed you as the owner of ${o.listingName}.`
        : `An administrator moved ${o.listingName} to another account.`,
      `Promotions belong to the account that bought them, so ${what} has ended today and nothing of it passes to the listing's next owner.`,
      billing,
      "Your receipts stay available from the links in their emails. If you think you are owed a refund for unused time, reply to this email.",
      "",
      `Your listings: ${site()}/owner`,
    ].join("\n"),
  });
}
