import FileCheck2 from "lucide-react/icons/file-check-corner";
import Paperclip from "lucide-react/icons/paperclip";
import { Form, Link } from "react-router";
import { ClaimStatusBadge } from "../../components/claims/claim-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Button, buttonClasses } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { EmptyState } from "../../components/ui/empty-state";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { myClaims, withdrawClaimAction } from "../../../server/claims/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/claims";
import { formatDate } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("My claims", args);
}

export const handle: ConsoleHandle = { breadcrumb: "My claims" };

export async function loader({ context }: Route.LoaderArgs) {
  return myClaims(context.get(viewerContext));
}

export async function action({ request, context }: Route.ActionArgs) {
  return withdrawClaimAction(request, context.get(viewerContext), context.get(requestIdContext));
}

export default function MyClaims({ loaderData }: Route.ComponentProps) {
  const { claims } = loaderData;
  return (
    <>
      <PageHeader
        title="My claims"
        description="Claims you filed, newest first. We email you when an administrator decides."
        actions={
          <Link to="/owner/claim" className={buttonClasses("primary")}>
            Claim a listing
          </Link>
        }
      />
      {claims.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<FileCheck2 />}
          title="No claims yet"
          text="Claim your facility's listing to update it, see its analytics and promote it."
          action={
            <Link to="/owner/claim" className={buttonClasses("primary")}>
              Find your listing
            </Link>
          }
        />
      ) : (
        <ul className="mt-6 space-y-3">
          {claims.map((claim) => (
            <li key={claim.id} className="rounded-lg border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <Link to={`/location/${claim.listingSlug}`} className="font-medium text-brand-700 hover:underline">
                    {claim.listingName}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {[claim.listingCity, claim.listingState].filter(Boolean).join(", ")}
                    {claim.isTransfer ? " · transfer request" : ""}
                  </p>
                  <p className="mt-1 text-sm text-slate-600">
                    Filed {formatDate(claim.createdAt)}
                    {claim.decidedAt && claim.status !== "pending"
                      ? ` · ${claim.status} ${formatDate(claim.decidedAt)}`
                      : ""}
                  </p>
                </div>
                <ClaimStatusBadge status={claim.status} />
              </div>
              {claim.status === "rejected" && claim.decisionReason && (
                <p className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-900">
                  <span className="font-medium">Reason: </span>
                  {claim.decisionReason}
                </p>
              )}
              <div className="mt-3 flex flex-wrap items-center gap-2">
                {claim.evidence.map((file) => (
                  <a
                    key={file.id}
                    href={`/owner/claims/${claim.id}/evidence/${file.id}`}
                    className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline"
                  >
                    <Paperclip className="size-4" aria-hidden="true" /> {file.fileName}
                  </a>
                ))}
                {claim.status === "approved" && (
                  <Link to={`/owner/locations/${claim.locationId}/update`} className={buttonClasses("secondary", "sm")}>
                    Update the listing
                  </Link>
                )}
                {claim.status === "rejected" && (
                  <Link to={`/owner/claim/${claim.locationId}`} className={buttonClasses("secondary", "sm")}>
                    Claim again
                  </Link>
                )}
                {claim.status === "pending" && (
                  <Form method="post" id={`withdraw-${claim.id}`}>
                    <input type="hidden" name="intent" value="withdraw" />
                    <input type="hidden" name="claimId" value={claim.id} />
                    <ConfirmDialog
                      trigger={
                        <Button variant="secondary" size="sm">
                          Withdraw<span className="sr-only"> the claim for {claim.listingName}</span>
                        </Button>
                      }
                      title="Withdraw this claim?"
                      text={`Your claim for ${claim.listingName} will no longer be reviewed. You can file a new one later.`}
                      confirmLabel="Withdraw claim"
                      tone="danger"
                      form={`withdraw-${claim.id}`}
                    />
                    <noscript>
                      <Button type="submit" variant="secondary" size="sm">
                        Withdraw (no undo)
                      </Button>
                    </noscript>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
