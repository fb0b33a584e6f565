import Check from "lucide-react/icons/check";
import History from "lucide-react/icons/rotate-ccw-clock";
import Pencil from "lucide-react/icons/pencil";
import RotateCcw from "lucide-react/icons/rotate-ccw";
import X from "lucide-react/icons/x";
import { useState } from "react";
import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ChangeList } from "../../components/moderation/change-list";
import { Badge } from "../../components/ui/badge";
import { Button, buttonClasses } from "../../components/ui/button";
import { ConfirmDialog, Dialog } from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Select } from "../../components/ui/select";
import { Field, FormError } from "../../components/ui/field";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { useFormState } from "../../lib/forms";
import { REVISION_KIND_LABELS } from "../../../domain/listings";
import { LISTING_REPORT_LABELS } from "../../../domain/work-queue";
import { LISTING_PROBLEM_LABELS } from "../../../domain/listing-problems";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { manageListingAction, manageListingPage } from "../../../server/listings/admin-pages";
import type { Route } from "./+types/manage-location";
import { formatDateTime } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Manage ${args.data.name}` : "Manage a listing", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { name?: string } | undefined)?.name;
    return name ?? "Listing";
  },
};

export async function loader({ request, params }: Route.LoaderArgs) {
  return manageListingPage(request, params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return manageListingAction(request, context.get(viewerContext), params.locationId, context.get(requestIdContext));
}

const card = "rounded-lg border border-slate-200 bg-white p-4 sm:p-6";

type Data = Route.ComponentProps["loaderData"];

/**
 * One listing as an administrator moderates it (docs/product.md section 10): its summary, the
 * change its owner sent (approve or reject), and its history, each revision restorable. The full
 * admin editor is to come as a section between the waiting change and the history.
 */
export default function ManageListing({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  const manageHref = `/admin/manage/${encodeURIComponent(data.placeId)}`;
  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={data.tier === "Free" ? "neutral" : "brand"}>{data.tier}</Badge>
            {data.place && <span>{data.place}</span>}
            {data.pending && <Badge tone="warning">Change waiting for review</Badge>}
          </span>
        }
        actions={
          <>
            <Link to={`${manageHref}/edit`} className={buttonClasses("primary")}>
              <Pencil className="size-4" aria-hidden="true" /> Edit listing
            </Link>
            <Link to={`${manageHref}/photos`} className={buttonClasses("secondary")}>
              Photos ({data.photoCount})
            </Link>
            <Link to={`/location/${data.slug}`} className={buttonClasses("secondary")}>
              Facility page
            </Link>
            <Link to="/admin/manage" className={buttonClasses("ghost")}>
              Back to the queue
            </Link>
          </>
        }
      />
      {(data.hidden || data.deleted) && (
        <p role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {data.deleted
            ? "This listing is deleted: its page answers “removed” and its owner no longer sees it. Restore it below."
            : "This listing is hidden: visitors cannot find it or open its page. Its owner still sees it."}
        </p>
      )}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Summary data={data} />
        <PendingChange data={data} />
      </div>
      <OpenItems data={data} />
      <ListingControls data={data} />
      <RevisionHistory data={data} />
    </>
  );
}

function Summary({ data }: { data: Data }) {
  return (
    <section aria-labelledby="summary-h" className={card}>
      <h2 id="summary-h" className="text-lg font-semibold text-slate-900">
        Listing
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-600">Name</dt>
        <dd className="break-words">{data.name}</dd>
        <dt className="text-slate-600">Address</dt>
        <dd className="break-words">{data.address ?? "No address"}</dd>
        <dt className="text-slate-600">Map position</dt>
        <dd>{data.latitude !== null && data.longitude !== null ? `${data.latitude}, ${data.longitude}` : "None"}</dd>
        <dt className="text-slate-600">{data.owners.length > 1 ? "Owners" : "Owner"}</dt>
        <dd className="break-all">
          {data.owners.length === 0
            ? "No owner yet"
            : data.owners.map((o) => (
                <span key={o.email} className="block">
                  {o.name ? `${o.name} (${o.email})` : o.email}
                </span>
              ))}
        </dd>
        <dt className="text-slate-600">Tier</dt>
        <dd>{data.tier}</dd>
        <dt className="text-slate-600">Listing id</dt>
        <dd className="break-all font-mono text-xs leading-5">{data.placeId}</dd>
      </dl>
    </section>
  );
}

/** The listing's open visitor reports and data problems (docs/product.md section 12), each one click away. */
function OpenItems({ data }: { data: Data }) {
  if (data.reports.length === 0 && data.problems.length === 0) return null;
  const item = (type: "report" | "problem", id: number, intent: "resolve" | "dismiss", label: string) => (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="id" value={id} />
      <SubmitButton name="intent" value={intent} variant={intent === "resolve" ? "secondary" : "ghost"} size="sm">
        {label}
      </SubmitButton>
    </Form>
  );
  return (
    <section aria-labelledby="open-items-h" className={`mt-6 ${card}`}>
      <h2 id="open-items-h" className="text-lg font-semibold text-slate-900">
        Reports and data problems
      </h2>
      <ul className="mt-3 divide-y divide-slate-100">
        {data.reports.map((r) => (
          <li key={`r${r.id}`} className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 flex-1">
              <span className="font-medium text-slate-800">Visitor: {LISTING_REPORT_LABELS[r.kind]}</span>
              {r.message && <span className="block whitespace-pre-line text-slate-700">“{r.message}”</span>}
              <span className="block text-xs text-slate-600">{formatDateTime(r.createdAt)} UTC</span>
            </span>
            <span className="flex gap-2">
              {item("report", r.id, "resolve", "Resolved")}
              {item("report", r.id, "dismiss", "Dismiss")}
            </span>
          </li>
        ))}
        {data.problems.map((p) => (
          <li key={`p${p.id}`} className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 flex-1">
              <span className="font-medium text-slate-800">Check: {LISTING_PROBLEM_LABELS[p.kind]}</span>
              {p.detail && <span className="block text-slate-700">{p.detail}</span>}
              {p.otherId && (
                <Link
                  to={`/admin/manage/${encodeURIComponent(p.otherId)}`}
                  className="block text-brand-700 hover:underline"
                >
                  The other listing
                </Link>
              )}
            </span>
            <span className="flex gap-2">{item("problem", p.id, "dismiss", "Not a problem")}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Who sees the listing, its tier and its owner (docs/product.md section 12). Each is a small form
 * of its own; the consequential ones ask first.
 */
function ListingControls({ data }: { data: Data }) {
  const form = useFormState({ intent: "owner-assign" });
  // A transfer or removal refused as a whole (the previous owner's card billing could not be
  // stopped at Stripe) is said above both owner forms.
  const ownerError = useFormState({ intent: ["owner-assign", "owner-remove"] }).formError;
  const owner = data.owners[0];
  const hideOrShow = data.hidden ? "show" : "hide";
  const deleteOrRestore = data.deleted ? "restore" : "delete";
  return (
    <section aria-labelledby="controls-h" className={`mt-6 ${card}`}>
      <h2 id="controls-h" className="text-lg font-semibold text-slate-900">
        Visibility, tier and owner
      </h2>
      <div className="mt-4 grid gap-6 md:grid-cols-3">
        <Form method="post" id="visibility-form">
          <input type="hidden" name="intent" value="visibility" />
          <h3 className="text-sm font-semibold text-slate-800">Visibility</h3>
          <p className="mt-1 text-sm text-slate-600">
            {data.deleted ? "Deleted" : data.hidden ? "Hidden from visitors" : "Listed: visitors find it"}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {!data.deleted && (
              <SubmitButton name="action" value={hideOrShow} variant="secondary" size="sm">
                {data.hidden ? "Show to visitors" : "Hide from visitors"}
              </SubmitButton>
            )}
            <ConfirmDialog
              trigger={
                <Button type="button" size="sm" variant={data.deleted ? "secondary" : "danger"}>
                  {data.deleted ? "Restore listing" : "Delete listing"}
                </Button>
              }
              title={data.deleted ? `Restore ${data.name}?` : `Delete ${data.name}?`}
              text={
                data.deleted
                  ? "It comes back as it was before the delete."
                  : "Its page will answer “removed”, search and the sitemap leave it out, and its owner loses it from their console. You can restore it here."
              }
              confirmLabel={data.deleted ? "Restore listing" : "Delete listing"}
              tone={data.deleted ? "primary" : "danger"}
              form="visibility-form"
              name="action"
              value={deleteOrRestore}
            />
          </div>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="tier" />
          <h3 className="text-sm font-semibold text-slate-800">
            <label htmlFor="listing-tier">Tier</label>
          </h3>
          <p className="mt-1 text-sm text-slate-600">Places the listing in search. A promotion sets it too.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Select id="listing-tier" name="tier" defaultValue={data.tier} key={data.tier}>
              {data.tiers.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Select>
            <SubmitButton variant="secondary">Set tier</SubmitButton>
          </div>
        </Form>
        <div>
          <h3 className="text-sm font-semibold text-slate-800">Owner</h3>
          <p className="mt-1 text-sm break-all text-slate-600">{owner ? owner.email : "No owner"}</p>
          <FormError message={ownerError} />
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="owner-assign" />
            <Field label={owner ? "Transfer to (email)" : "Assign to (email)"} name="email" error={form.error("email")}>
              {(c) => (
                <Input {...c} type="email" autoComplete="off" maxLength={254} defaultValue={form.value("email")} />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <SubmitButton variant="secondary" size="sm">
                {owner ? "Transfer" : "Assign"}
              </SubmitButton>
            </div>
          </Form>
          {owner && (
            <Form method="post" id="owner-remove-form" className="mt-2">
              <input type="hidden" name="intent" value="owner-remove" />
              <ConfirmDialog
                trigger={
                  <Button type="button" size="sm" variant="ghost">
                    Remove owner
                  </Button>
                }
                title={`Remove ${owner.email} as owner?`}
                text="They lose this listing from their console. Promotions they bought for it end (a card subscription is cancelled at Stripe) and they are told by email; its history stays."
                confirmLabel="Remove owner"
                tone="danger"
                form="owner-remove-form"
              />
            </Form>
          )}
        </div>
      </div>
    </section>
  );
}

function PendingChange({ data }: { data: Data }) {
  const form = useFormState({ intent: ["approve", "reject"] });
  const pending = data.pending;
  return (
    <section aria-labelledby="pending-h" className={card}>
      <h2 id="pending-h" className="text-lg font-semibold text-slate-900">
        Waiting for review
      </h2>
      {!pending ? (
        <p className="mt-2 text-sm text-slate-600">
          Nothing waits: the facility page shows everything the owner saved.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Sent {formatDateTime(pending.submittedAt)} UTC
            {pending.submittedBy
              ? ` by ${pending.submittedByName || pending.submittedBy} (${pending.submittedBy})`
              : ""}
            . The facility page shows the values on the left until you approve.
          </p>
          <ChangeList className="mt-3" lines={pending.lines} />
          <Form method="post" className="mt-4">
            <FormError message={form.formError} />
            <input type="hidden" name="locationId" value={data.placeId} />
            <input type="hidden" name="submittedAt" value={pending.submittedAt} />
            <Field
              label="Note or reason"
              name="reason"
              hint="Optional when approving; required when rejecting. The owner reads it in their email."
              error={form.error("reason")}
            >
              {(control) => <Textarea {...control} rows={3} maxLength={1000} defaultValue={form.value("reason")} />}
            </Field>
            <div className="flex flex-wrap gap-2">
              <SubmitButton name="intent" value="approve">
                <Check className="size-4" aria-hidden="true" /> Approve
              </SubmitButton>
              <SubmitButton name="intent" value="reject" variant="danger">
                <X className="size-4" aria-hidden="true" /> Reject
              </SubmitButton>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

const kindTone = (kind: string) =>
  kind === "rejected" ? "danger" : kind === "pending" ? "warning" : kind === "approved" ? "success" : "neutral";

function RevisionHistory({ data }: { data: Data }) {
  return (
    <section aria-labelledby="history-h" className="mt-8">
      <h2 id="history-h" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <History className="size-5 text-slate-500" aria-hidden="true" /> History
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Every change, newest first. Restoring puts back the values a change replaced, as a new change.
      </p>
      {data.revisions.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No changes yet: the listing is as it was imported.
        </p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {data.revisions.map((r) => (
            <li key={r.id} className="p-4">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                <Badge tone={kindTone(r.kind)}>{REVISION_KIND_LABELS[r.kind] ?? r.kind}</Badge>
                <span className="font-medium text-slate-800">{r.fieldLabels.join(", ")}</span>
                <span className="text-slate-600">
                  by {r.actorEmail ?? "the system"}, {formatDateTime(r.createdAt)} UTC
                </span>
              </div>
              {r.reason && <p className="mt-1 text-sm text-slate-600">Reason: {r.reason}</p>}
              <ChangeList className="mt-2" lines={r.lines} />
              {r.photos && (
                <PhotoRevisionNote
                  state={r.photos}
                  photosHref={`/admin/manage/${encodeURIComponent(data.placeId)}/photos`}
                />
              )}
              {r.restorable && <RestoreControl revision={r} data={data} />}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const PHOTO_REVISION_NOTES = {
  after: "The listing shows these photos now.",
  before: "The listing shows the photos from before this change again: a later change put them back.",
  later: "The photos changed again after this; the listing shows the newest ones.",
} as const;

/**
 * What a photo change means today. It has no Restore (the files of a replaced photo may be gone):
 * a deleted photo comes back from Recently deleted on the Photos screen.
 */
function PhotoRevisionNote({ state, photosHref }: { state: keyof typeof PHOTO_REVISION_NOTES; photosHref: string }) {
  return (
    <p className="mt-2 text-sm text-slate-600">
      {PHOTO_REVISION_NOTES[state]} A change of photos cannot be restored here; a deleted photo comes back from Recently
      deleted on the{" "}
      <Link to={photosHref} className="text-brand-700 underline hover:no-underline">
        Photos screen
      </Link>
      .
    </p>
  );
}

/**
 * Restore asks first, saying exactly what changes: in a dialog, or without JavaScript in the page
 * (the trigger is a link to `?restore={id}`, which the loader answers with the question inline).
 */
function RestoreControl({ revision, data }: { revision: Data["revisions"][number]; data: Data }) {
  const [open, setOpen] = useState(false);
  const formId = `restore-${revision.id}`;
  if (revision.restoreLines.length === 0)
    return <p className="mt-2 text-sm text-slate-600">The listing shows the values from before this change.</p>;
  const question =
    "The listing changes as follows and the facility page shows it at once. The history keeps this change too.";
  const submit = <SubmitButton form={formId}>Restore these values</SubmitButton>;
  const inline = data.confirmRestore === revision.id;
  return (
    <Form method="post" id={formId} className="mt-3" onSubmit={() => setOpen(false)}>
      <input type="hidden" name="intent" value="restore" />
      <input type="hidden" name="revisionId" value={revision.id} />
      <input type="hidden" name="version" value={data.version} />
      {inline ? (
        <div
          role="group"
          aria-labelledby={`${formId}-h`}
          className="rounded-md border border-amber-200 bg-amber-50 p-3"
        >
          <p id={`${formId}-h`} className="font-medium text-slate-900">
            Restore the earlier values?
          </p>
          <p className="mt-1 text-sm text-slate-600">{question}</p>
          <ChangeList className="mt-2" lines={revision.restoreLines} beforeWord="today" afterWord="after restoring" />
          <div className="mt-3 flex flex-wrap gap-2">
            {submit}
            <Link to="?" className={buttonClasses("secondary")}>
              Cancel
            </Link>
          </div>
        </div>
      ) : (
        <Dialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Link
              to={`?restore=${revision.id}`}
              preventScrollReset
              className={buttonClasses("secondary", "sm")}
              onClick={(event) => {
                event.preventDefault();
                setOpen(true);
              }}
            >
              <RotateCcw className="size-4" aria-hidden="true" /> Restore
            </Link>
          }
          title="Restore the earlier values?"
          description={question}
          footer={
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              {submit}
            </>
          }
        >
          <ChangeList lines={revision.restoreLines} beforeWord="today" afterWord="after restoring" />
        </Dialog>
      )}
    </Form>
  );
}
