import Globe from "lucide-react/icons/globe";
import MapPin from "lucide-react/icons/map-pin";
import Phone from "lucide-react/icons/phone";
import ShieldCheck from "lucide-react/icons/shield-check";
import { useState, type ChangeEvent } from "react";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Field, FormError } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { Select } from "../../components/ui/select";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { CLAIM_FIELD_LIMITS, CLAIMANT_ROLES } from "../../../domain/claims";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { claimFormPage, fileClaimAction } from "../../../server/claims/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/claim-location";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Claim ${args.data.listing.name}` : "Claim a listing", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { listing?: { name: string } } | undefined)?.listing?.name;
    return name ? `Claim ${name}` : "Claim a listing";
  },
};

export async function loader({ params, context }: Route.LoaderArgs) {
  return claimFormPage(context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return fileClaimAction(request, context.get(viewerContext), params.locationId, context.get(requestIdContext));
}

const ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";

export default function ClaimForm({ loaderData }: Route.ComponentProps) {
  const { listing, claimState, blocked, needsConfirmation, defaults, limits } = loaderData;
  const form = useFormState();
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const maxMb = Math.round(limits.maxBytes / 1024 / 1024);

  // A hint before sending 30 MB for nothing; the server checks again, by content.
  function checkFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.currentTarget.files ?? [])];
    const tooBig = files.find((f) => f.size > limits.maxBytes);
    const problem =
      files.length > limits.maxFiles
        ? `Attach at most ${limits.maxFiles} files (you chose ${files.length}).`
        : tooBig
          ? `'${tooBig.name}' is larger than ${maxMb} MB.`
          : null;
    event.currentTarget.setCustomValidity(problem ?? "");
    setFileProblem(problem);
  }

  const evidenceErrors = [...(form.error("evidence") ?? []), ...(fileProblem ? [fileProblem] : [])];
  const hadErrors = Object.keys(form.fieldErrors).length > 0 || form.formError !== undefined;
  return (
    <>
      <PageHeader
        title={`Claim ${listing.name}`}
        description="Tell us who you are and how you are connected to this business."
      />

      <section aria-label="The listing" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <Link to={`/location/${listing.slug}`} className="font-semibold text-brand-700 hover:underline">
          {listing.name}
        </Link>
        <ul className="mt-2 space-y-1 text-sm text-slate-700">
          {listing.address && (
            <li className="flex items-center gap-2">
              <MapPin className="size-4 text-slate-500" aria-hidden="true" /> {listing.address}
            </li>
          )}
          {listing.phone && (
            <li className="flex items-center gap-2">
              <Phone className="size-4 text-slate-500" aria-hidden="true" /> {listing.phone}
            </li>
          )}
          {listing.website && (
            <li className="flex items-center gap-2 break-all">
              <Globe className="size-4 shrink-0 text-slate-500" aria-hidden="true" /> {listing.website}
            </li>
          )}
        </ul>
      </section>

      {blocked ? (
        <div role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950">
          <p>{blocked}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            {needsConfirmation ? (
              <Form method="post" action="/owner/verify-email/resend">
                <input type="hidden" name="returnTo" value={`/owner/claim/${listing.placeId}`} />
                <SubmitButton action="/owner/verify-email/resend" size="sm">
                  Send the link again
                </SubmitButton>
              </Form>
            ) : claimState === "yours" ? (
              <Link to={`/owner/locations/${listing.placeId}/update`} className={buttonClasses("primary", "sm")}>
                Update the listing
              </Link>
            ) : (
              <Link to="/owner/claims" className={buttonClasses("primary", "sm")}>
                My claims
              </Link>
            )}
            <Link to="/owner/claim" className={buttonClasses("secondary", "sm")}>
              Claim another listing
            </Link>
          </div>
        </div>
      ) : (
        <Form method="post" encType="multipart/form-data" className="mt-6 max-w-2xl space-y-5" noValidate={false}>
          {claimState === "managed" && (
            <p role="note" className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
              This listing already has a verified owner. Your claim will be reviewed as a transfer request: include
              evidence that you now run the business (a bill of sale, a lease, a recent utility bill).
            </p>
          )}
          <FormError message={form.formError} />
          <Field label="Your name" name="claimantName" error={form.error("claimantName")}>
            {(control) => (
              <Input
                {...control}
                autoComplete="name"
                required
                maxLength={CLAIM_FIELD_LIMITS.name}
                defaultValue={form.value("claimantName") ?? defaults.claimantName}
              />
            )}
          </Field>
          <Field label="Your role at the business" name="claimantRole" error={form.error("claimantRole")}>
            {(control) => (
              <Select {...control} required defaultValue={form.value("claimantRole") ?? ""}>
                <option value="" disabled>
                  Choose one
                </option>
                {CLAIMANT_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Business phone"
              name="businessPhone"
              hint="A number that reaches the facility."
              error={form.error("businessPhone")}
            >
              {(control) => (
                <Input
                  {...control}
                  type="tel"
                  autoComplete="tel"
                  required
                  maxLength={CLAIM_FIELD_LIMITS.phone}
                  defaultValue={form.value("businessPhone")}
                />
              )}
            </Field>
            <Field
              label="Business email"
              name="businessEmail"
              hint="An address at the facility's own domain is verified fastest."
              error={form.error("businessEmail")}
            >
              {(control) => (
                <Input
                  {...control}
                  type="email"
                  autoComplete="email"
                  required
                  maxLength={CLAIM_FIELD_LIMITS.email}
                  defaultValue={form.value("businessEmail") ?? defaults.businessEmail}
                />
              )}
            </Field>
          </div>
          <Field
            label="Message (optional)"
            name="message"
            hint="Anything that helps us verify you quickly."
            error={form.error("message")}
          >
            {(control) => (
              <Textarea
                {...control}
                rows={4}
                maxLength={CLAIM_FIELD_LIMITS.message}
                defaultValue={form.value("message")}
              />
            )}
          </Field>
          <Field
            label="Evidence (optional, up to 3 files)"
            name="evidence"
            hint={`PDF, JPEG or PNG, up to ${maxMb} MB each: a business licence, a utility bill or a lease showing the facility's address.${
              hadErrors ? " Files are not kept after an error: attach them again." : ""
            }`}
            error={evidenceErrors.length > 0 ? evidenceErrors : undefined}
          >
            {(control) => (
              <input
                {...control}
                type="file"
                multiple
                accept={ACCEPT}
                onChange={checkFiles}
                className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700 hover:file:bg-brand-100"
              />
            )}
          </Field>
          <div>
            <Checkbox
              name="consent"
              required
              invalid={Boolean(form.error("consent"))}
              aria-describedby={form.error("consent") ? "consent-error" : undefined}
              label="I am authorised to manage this business's listing, and the information I give is true."
            />
            {form.error("consent") && (
              <p id="consent-error" className="mt-1 text-sm text-red-700">
                {form.error("consent")!.join(" ")}
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton>
              <ShieldCheck className="size-4" aria-hidden="true" /> Send claim
            </SubmitButton>
            <Link to="/owner/claim" className={buttonClasses("ghost")}>
              Cancel
            </Link>
          </div>
        </Form>
      )}
    </>
  );
}
