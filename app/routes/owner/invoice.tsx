import Printer from "lucide-react/icons/printer";
import { Link } from "react-router";
import type { ConsoleHandle } from "../../components/console/handle";
import { InvoiceStatusBadge } from "../../components/promotions/status-badges";
import { Button } from "../../components/ui/button";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { invoicePage } from "../../../server/promotions/pages";
import type { Route } from "./+types/invoice";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Invoice ${args.data.invoice.number}` : "Invoice", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const number = (match.data as { invoice?: { number: string } } | undefined)?.invoice?.number;
    return number ? `Invoice ${number}` : "Invoice";
  },
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return invoicePage(request, context.get(viewerContext), params.invoiceId);
}

/** One invoice or receipt, laid out to print on its own (the console's frame is hidden in print). */
export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { invoice, line, listing, billTo, issuer, paymentInstructions } = loaderData;
  return (
    <article className="max-w-3xl rounded-lg border border-slate-200 bg-white p-6 print:border-0 print:p-0">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">
            {invoice.status === "paid" ? "Receipt" : "Invoice"}{" "}
            <span className="whitespace-nowrap">{invoice.number}</span>
          </h1>
          <p className="mt-1 text-sm text-slate-600">Issued {invoice.issued}</p>
        </div>
        <div className="flex items-center gap-2">
          <InvoiceStatusBadge status={invoice.status} />
          <Button variant="secondary" size="sm" className="print:hidden" onClick={() => window.print()}>
            <Printer className="size-4" aria-hidden="true" /> Print or save as PDF
          </Button>
        </div>
      </header>
      <div className="mt-6 grid gap-6 text-sm sm:grid-cols-2">
        <div>
          <h2 className="font-semibold text-slate-900">From</h2>
          <p className="mt-1 text-slate-700">
            <span className="block font-medium text-slate-900">{issuer.name}</span>
            {issuer.address.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
            <a href={`mailto:${issuer.email}`} className="block break-all text-brand-700 hover:underline">
              {issuer.email}
            </a>
            {issuer.taxId && <span className="block">Tax ID {issuer.taxId}</span>}
          </p>
        </div>
        <div>
          <h2 className="font-semibold text-slate-900">Bill to</h2>
          <p className="mt-1 text-slate-700">
            {billTo ? (
              <>
                {billTo.name && <span className="block">{billTo.name}</span>}
                <span className="block break-all">{billTo.email}</span>
              </>
            ) : (
              "The owner of the listing"
            )}
            <span className="block">{listing.name}</span>
            {listing.address && <span className="block">{listing.address}</span>}
          </p>
        </div>
      </div>
      <table className="mt-6 w-full text-left text-sm">
        <caption className="sr-only">Invoice lines</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 font-semibold">
              Description
            </th>
            <th scope="col" className="py-2 font-semibold">
              Period
            </th>
            <th scope="col" className="py-2 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-slate-200 align-top">
            <td className="py-2 pr-4">{line}</td>
            <td className="py-2 pr-4">{invoice.period}</td>
            <td className="py-2 text-right tabular-nums">{invoice.amount}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2} className="pt-2 text-right font-normal text-slate-600">
              Subtotal
            </th>
            <td className="pt-2 text-right tabular-nums">{invoice.amount}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={2} className="py-1 text-right font-normal text-slate-600">
              Sales tax (not charged)
            </th>
            <td className="py-1 text-right tabular-nums">{invoice.noTax}</td>
          </tr>
          <tr className="border-t border-slate-300">
            <th scope="row" colSpan={2} className="py-2 text-right font-semibold">
              {invoice.status === "paid" ? "Total paid" : invoice.status === "void" ? "Total (void)" : "Total due"}
            </th>
            <td className="py-2 text-right font-semibold tabular-nums">{invoice.amount}</td>
          </tr>
        </tfoot>
      </table>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        {invoice.status === "open" && invoice.due && (
          <>
            <dt className="text-slate-600">Due</dt>
            <dd className="font-medium">{invoice.due}</dd>
          </>
        )}
        {invoice.paid && (
          <>
            <dt className="text-slate-600">Paid</dt>
            <dd>{invoice.paid}</dd>
          </>
        )}
        {invoice.voided && (
          <>
            <dt className="text-slate-600">Void</dt>
            <dd>
              {invoice.voided}
              {invoice.voidReason ? `: ${invoice.voidReason}` : ""}
            </dd>
          </>
        )}
      </dl>
      {invoice.status === "open" && (
        <section className="mt-6 rounded-md bg-slate-50 p-4 text-sm print:bg-transparent print:p-0">
          <h2 className="font-semibold text-slate-900">How to pay</h2>
          <p className="mt-1 whitespace-pre-line text-slate-700">{paymentInstructions}</p>
          <p className="mt-2 text-slate-700">
            Payment reference: <strong className="tabular-nums">{invoice.number}</strong>. Billing contact:{" "}
            <a href={`mailto:${issuer.email}`} className="break-all text-brand-700 hover:underline">
              {issuer.email}
            </a>
          </p>
        </section>
      )}
      {invoice.hostedInvoiceUrl && (
        <p className="mt-4 text-sm print:hidden">
          <a href={invoice.hostedInvoiceUrl} rel="noopener noreferrer" className="text-brand-700 hover:underline">
            Open this invoice on Stripe
          </a>
        </p>
      )}
      <p className="mt-6 text-sm print:hidden">
        <Link to="/owner" className="text-brand-700 hover:underline">
          Back to the dashboard
        </Link>
      </p>
    </article>
  );
}
