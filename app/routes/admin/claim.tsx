import Check from "lucide-react/icons/check";
import CircleAlert from "lucide-react/icons/circle-exclamation-point";
import FileText from "lucide-react/icons/file-text";
import ImageIcon from "lucide-react/icons/image";
import X from "lucide-react/icons/x";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ClaimStatusBadge } from "../../components/claims/claim-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Field, FormError } from "../../components/ui/field";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { adminClaim, decideClaimAction } from "../../../server/claims/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/claim";
import { formatDateTime } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Claim for ${args.data.listing.name}` : "Claim", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { listing?: { name: string } } | undefined)?.listing?.name;
    return name ? `Claim for ${name}` : "Claim";
  },
};

export async function loader({ params }: Route.LoaderArgs) {
  return adminClaim(params.claimId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return decideClaimAction(request, context.get(viewerContext), params.claimId, context.get(requestIdContext));
}

function Signal({ good, children }: { good: boolean | null; children: ReactNode }) {
  const Icon = good === null ? CircleAlert : good ? Check : X;
  const tone = good === null ? "text-amber-700" : good ? "text-emerald-700" : "text-red-700";
  return (
    <li className="flex items-start gap-2">
      <Icon className={`mt-0.5 size-4 shrink-0 ${tone}`} aria-hidden="true" />
      <span>{children}</span>
    </li>
  );
}

export default function AdminClaim({ loaderData }: Route.ComponentProps) {
  const { claim, claimant, listing, owner, evidence, signals, otherClaimsOnListing, decidedByEmail } = loaderData;
  const form = useFormState();
  const pending = claim.status === "pending";
  const others = signals.otherClaims;
  return (
    <>
      <PageHeader
        title={`Claim for ${listing.name}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <ClaimStatusBadge status={claim.status} />
            {claim.isTransfer && <span>Transfer request</span>}
            <span>Filed {formatDateTime(claim.createdAt)} UTC</span>
          </span>
        }
        actions={
          <Link to="/admin/claims" className="text-sm font-medium text-brand-700 hover:underline">
            Back to the queue
          </Link>
        }
      />
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="claimant-h" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="claimant-h" className="font-semibold text-slate-900">
            Claimant
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Name</dt>
            <dd>{claim.claimantName}</dd>
            <dt className="text-slate-600">Role</dt>
            <dd>{claim.claimantRole}</dd>
            <dt className="text-slate-600">Business phone</dt>
            <dd>{claim.businessPhone}</dd>
            <dt className="text-slate-600">Business email</dt>
            <dd className="break-all">{claim.businessEmail}</dd>
            <dt className="text-slate-600">Account</dt>
            <dd className="break-all">
              {claimant.email} ({claimant.role})
            </dd>
          </dl>
          {claim.message && (
            <blockquote className="mt-3 whitespace-pre-line border-l-4 border-slate-200 pl-3 text-sm text-slate-700">
              {claim.message}
            </blockquote>
          )}
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Evidence</h3>
          {evidence.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">No files attached.</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm">
              {evidence.map((file) => (
                <li key={file.id}>
                  <a
                    href={`/owner/claims/${claim.id}/evidence/${file.id}`}
                    target="_blank"
                    rel="noopener"
                    className="inline-flex items-center gap-1 text-brand-700 hover:underline"
                  >
                    {file.contentType.startsWith("image/") ? (
                      <ImageIcon className="size-4" aria-hidden="true" />
                    ) : (
                      <FileText className="size-4" aria-hidden="true" />
                    )}
                    {file.fileName}
                  </a>{" "}
                  <span className="text-slate-600">({Math.max(1, Math.round(file.sizeBytes / 1024))} kB)</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="listing-h" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="listing-h" className="font-semibold text-slate-900">
            Listing
          </h2>
          <p className="mt-3 text-sm">
            <Link to={`/location/${listing.slug}`} className="font-medium text-brand-700 hover:underline">
              {listing.name}
            </Link>
            <span className="block text-slate-600">{listing.address}</span>
            <span className="block text-slate-600">{listing.phoneNumber ?? "No phone on the listing"}</span>
            <span className="block break-all text-slate-600">{listing.website ?? "No website on the listing"}</span>
            <span className="block text-slate-600">
              {owner ? `Managed by ${owner.name || owner.email} (${owner.email})` : "No owner yet"}
            </span>
          </p>
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Signals</h3>
          <ul className="mt-1 space-y-1 text-sm">
            <Signal good={signals.emailMatchesWebsite}>
              {signals.websiteHost
                ? `Email domain ${signals.emailDomain} ${signals.emailMatchesWebsite ? "matches" : "does not match"} the website ${signals.websiteHost}`
                : `Email domain ${signals.emailDomain}; the listing has no website to compare`}
            </Signal>
            {signals.freeMailProvider && <Signal good={null}>{signals.emailDomain} is a free email provider</Signal>}
            <Signal good={signals.phoneMatchesListing}>
              Business phone {signals.phoneMatchesListing ? "matches" : "does not match"} the listing's phone
            </Signal>
            <Signal good={signals.accountAgeDays >= 7 ? true : null}>
              Account created {signals.accountAgeDays === 0 ? "today" : `${signals.accountAgeDays} days ago`}
            </Signal>
            <Signal good={others.rejected > 0 || others.pending > 2 ? null : true}>
              Other claims by this account: {others.pending} pending, {others.approved} approved, {others.rejected}{" "}
              rejected, {others.withdrawn} withdrawn
            </Signal>
          </ul>
          {otherClaimsOnListing.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-900">Other claims on this listing</h3>
              <ul className="mt-1 space-y-1 text-sm">
                {otherClaimsOnListing.map((other) => (
                  <li key={other.id} className="flex flex-wrap items-center gap-2">
                    <Link to={`/admin/claims/${other.id}`} className="text-brand-700 hover:underline">
                      {other.claimantName}
                    </Link>
                    <ClaimStatusBadge status={other.status} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>

      <section aria-labelledby="decision-h" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="decision-h" className="font-semibold text-slate-900">
          Decision
        </h2>
        {pending ? (
          <Form method="post" className="mt-3 max-w-2xl space-y-4">
            <FormError message={form.formError} />
            <Field
              label="Reason"
              name="reason"
              hint="Required to reject: the claimant reads it in their email and under My claims. Optional to approve: it is kept with the decision for administrators."
              error={form.error("reason")}
            >
              {(control) => <Textarea {...control} rows={3} maxLength={1000} defaultValue={form.value("reason")} />}
            </Field>
            {form.error("decision") && <p className="text-sm text-red-700">{form.error("decision")!.join(" ")}</p>}
            <div className="flex flex-wrap gap-2">
              <SubmitButton name="decision" value="approve">
                <Check className="size-4" aria-hidden="true" /> Approve{claim.isTransfer ? " transfer" : ""}
              </SubmitButton>
              <SubmitButton name="decision" value="reject" variant="danger">
                <X className="size-4" aria-hidden="true" /> Reject
              </SubmitButton>
            </div>
            {claim.isTransfer && owner && (
              <p className="text-sm text-slate-600">
                Approving moves the listing from {owner.email} to {claimant.email}; both are emailed.
              </p>
            )}
          </Form>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            {claim.status === "withdrawn"
              ? "Withdrawn by the claimant"
              : `${claim.status[0]!.toUpperCase()}${claim.status.slice(1)}`}
            {claim.decidedAt ? ` on ${formatDateTime(claim.decidedAt)} UTC` : ""}
            {decidedByEmail ? ` by ${decidedByEmail}` : ""}
            {claim.decisionReason ? `: ${claim.decisionReason}` : "."}
          </p>
        )}
      </section>
    </>
  );
}
