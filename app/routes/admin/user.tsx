import Ban from "lucide-react/icons/ban";
import LogOut from "lucide-react/icons/log-out";
import ShieldCheck from "lucide-react/icons/shield-check";
import Trash2 from "lucide-react/icons/trash";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ClaimStatusBadge } from "../../components/claims/claim-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { PromotionStatusBadge, TierBadge } from "../../components/promotions/status-badges";
import { Badge } from "../../components/ui/badge";
import { Button, buttonClasses } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { Select } from "../../components/ui/select";
import { SubmitButton } from "../../components/ui/submit-button";
import { Textarea } from "../../components/ui/textarea";
import { useFormState } from "../../lib/forms";
import { formatDate, formatDateTime, sentence } from "../../lib/format";
import { privatePageMeta } from "../../lib/meta";
import { BAN_REASON_MAX, ROLE_LABELS, roleLabel } from "../../../domain/users";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { adminUserAction, adminUserPage } from "../../../server/users/pages";
import type { Route } from "./+types/user";
import type { ReviewStatus } from "../../../domain/reviews";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? args.data.user.email : "Account", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => (match.data as { user?: { email: string } } | undefined)?.user?.email ?? "Account",
};

export async function loader({ params, context }: Route.LoaderArgs) {
  return adminUserPage(context.get(viewerContext), params.userId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return adminUserAction(request, context.get(viewerContext), params.userId, context.get(requestIdContext));
}

type Data = Route.ComponentProps["loaderData"];
const card = "rounded-lg border border-slate-200 bg-white p-4 sm:p-6";
const manageHref = (id: string) => `/admin/manage/${encodeURIComponent(id)}`;

/**
 * One account (docs/product.md section 12, "Accounts"): who it is, what it owns, asked for and
 * bought, where it is signed in, what it did, and the administrator's controls over it. An
 * administrator's own account shows everything but the controls.
 */
export default function AdminUser({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  const { user } = data;
  return (
    <>
      <PageHeader
        title={user.email}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={user.role === "admin" ? "brand" : "neutral"}>{roleLabel(user.role)}</Badge>
            {user.banned && <Badge tone="danger">Banned</Badge>}
            <Badge tone={user.emailVerified ? "success" : "warning"}>
              {user.emailVerified ? "Email confirmed" : "Email not confirmed"}
            </Badge>
          </span>
        }
        actions={
          <Link to="/admin/users" className={buttonClasses("ghost")}>
            All users
          </Link>
        }
      />
      {user.banned && (
        <p role="status" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          This account is banned: it cannot sign in. Reason: {sentence(user.banReason || "none given")}
        </p>
      )}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="account-h" className={card}>
          <h2 id="account-h" className="text-lg font-semibold text-slate-900">
            Account
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-600">Name</dt>
            <dd className="break-words">{user.name || "None given"}</dd>
            <dt className="text-slate-600">Email</dt>
            <dd className="break-all">{user.email}</dd>
            <dt className="text-slate-600">Joined</dt>
            <dd>{formatDate(user.createdAt)}</dd>
            <dt className="text-slate-600">Last sign-in</dt>
            <dd>{user.lastLoginAt ? `${formatDateTime(user.lastLoginAt)} UTC` : "Never"}</dd>
            <dt className="text-slate-600">Account id</dt>
            <dd className="break-all font-mono text-xs leading-5">{user.id}</dd>
          </dl>
        </section>
        {data.isSelf ? (
          <section aria-labelledby="controls-h" className={card}>
            <h2 id="controls-h" className="text-lg font-semibold text-slate-900">
              This is your account
            </h2>
            <p className="mt-2 text-sm text-slate-600">
              Administrators cannot change their own role, ban or delete themselves. Your name, email, password and
              devices are in your{" "}
              <Link to="/owner/settings" className="text-brand-700 underline">
                account settings
              </Link>
              .
            </p>
          </section>
        ) : (
          <RoleAndBan data={data} />
        )}
      </div>
      <Sessions data={data} />
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <ListSection id="listings" title={`Listings (${data.listings.length})`} empty="Owns no listing.">
          {data.listings.map((l) => (
            <LinkRow
              key={l.placeId}
              to={manageHref(l.placeId)}
              title={l.name}
              detail={[l.city, l.state].filter(Boolean).join(", ")}
            >
              <span className="flex gap-1">
                <TierBadge tier={l.tier} />
                {l.deletedAt ? (
                  <Badge tone="danger">Deleted</Badge>
                ) : l.hiddenAt ? (
                  <Badge tone="warning">Hidden</Badge>
                ) : null}
              </span>
            </LinkRow>
          ))}
        </ListSection>
        <ListSection id="claims" title={`Claims (${data.claims.length})`} empty="Has filed no claim.">
          {data.claims.map((c) => (
            <LinkRow
              key={c.id}
              to={`/admin/claims/${encodeURIComponent(c.id)}`}
              title={c.listingName}
              detail={`Filed ${formatDate(c.createdAt)}`}
            >
              <ClaimStatusBadge status={c.status} />
            </LinkRow>
          ))}
        </ListSection>
        <ListSection id="reviews" title={`Reviews (${data.reviews.length})`} empty="Has written no review.">
          {data.reviews.map((r) => (
            <LinkRow
              key={r.id}
              // A published review is on the facility page; the others wait or were decided in the queue.
              to={r.status === "published" ? `/location/${r.slug}#reviews` : "/admin/manage?section=reviews"}
              title={`${r.stars}★ ${r.title}`}
              detail={`${r.listingName} · ${formatDate(r.createdAt)}`}
            >
              <Badge tone={REVIEW_STATUS_TONE[r.status]}>{REVIEW_STATUS_TEXT[r.status]}</Badge>
            </LinkRow>
          ))}
        </ListSection>
        <ListSection id="promotions" title={`Promotions (${data.promotions.length})`} empty="Has bought no promotion.">
          {data.promotions.map((p) => (
            <LinkRow
              key={p.id}
              to={manageHref(p.locationId)}
              title={p.listingName}
              detail={`${p.tier}, ${p.interval === "year" ? "yearly" : "monthly"}${
                p.periodEnd ? `, until ${formatDate(p.periodEnd)}` : ""
              }`}
            >
              <PromotionStatusBadge status={p.status} />
            </LinkRow>
          ))}
        </ListSection>
        <ListSection
          id="audit"
          title="Activity"
          empty="No console activity yet."
          note="The latest changes made by or to this account, newest first."
        >
          {data.audit.map((a) => (
            <li key={a.id} className="py-2 text-sm">
              <span className="font-mono text-xs text-slate-800">{a.action}</span>{" "}
              <span className="text-slate-600">
                on {a.subjectType}{" "}
                {a.subjectType === "user" && a.subjectId === user.id ? "(this account)" : a.subjectId}
              </span>
              <span className="block text-xs text-slate-600">
                {formatDateTime(a.at)} UTC by {a.actorId === user.id ? "this account" : (a.actorEmail ?? "the system")}
              </span>
            </li>
          ))}
        </ListSection>
      </div>
      {!data.isSelf && <DeleteAccount data={data} />}
    </>
  );
}

/** One row of a section's list: a link with a line of detail under it, and badges at the end. */
const REVIEW_STATUS_TEXT: Record<ReviewStatus, string> = {
  held: "Held for a check",
  published: "Published",
  rejected: "Rejected",
  removed: "Removed",
};
const REVIEW_STATUS_TONE: Record<ReviewStatus, "warning" | "success" | "neutral" | "danger"> = {
  held: "warning",
  published: "success",
  rejected: "neutral",
  removed: "danger",
};

function LinkRow({ to, title, detail, children }: { to: string; title: string; detail: string; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
      <span className="min-w-0">
        <Link to={to} className="font-medium text-brand-700 hover:underline">
          {title}
        </Link>
        <span className="block text-xs text-slate-600">{detail}</span>
      </span>
      {children}
    </li>
  );
}

function ListSection({
  id,
  title,
  empty,
  note,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  note?: string;
  children: ReactNode[];
}) {
  return (
    <section aria-labelledby={`${id}-h`} className={card}>
      <h2 id={`${id}-h`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {note && <p className="mt-1 text-sm text-slate-600">{note}</p>}
      {children.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">{children}</ul>
      )}
    </section>
  );
}

function RoleAndBan({ data }: { data: Data }) {
  const { user } = data;
  const ban = useFormState({ intent: "ban" });
  const role = useFormState({ intent: "role" });
  return (
    <section aria-labelledby="controls-h" className={card}>
      <h2 id="controls-h" className="text-lg font-semibold text-slate-900">
        Role and access
      </h2>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="role" />
        <label htmlFor="user-role" className="block text-sm font-medium text-slate-700">
          Role
        </label>
        <p className="text-sm text-slate-600">
          Administrators run this console. Business owners and users manage only the listings they own.
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Select id="user-role" name="role" defaultValue={user.role} key={user.role}>
            {data.roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </Select>
          <SubmitButton variant="secondary">
            <ShieldCheck className="size-4" aria-hidden="true" /> Change role
          </SubmitButton>
        </div>
        {role.error("role") && <p className="mt-1 text-sm text-red-700">{role.error("role")}</p>}
      </Form>
      <hr className="my-5 border-slate-200" />
      {user.banned ? (
        <Form method="post">
          <input type="hidden" name="intent" value="unban" />
          <p className="text-sm text-slate-600">Lifting the ban lets the account sign in again.</p>
          <SubmitButton variant="secondary" className="mt-2">
            Lift the ban
          </SubmitButton>
        </Form>
      ) : (
        <Form method="post" id="ban-form">
          <input type="hidden" name="intent" value="ban" />
          <Field
            label="Reason for a ban"
            name="reason"
            hint="Other administrators read it here and in the audit trail; the account holder is not told."
            error={ban.error("reason")}
          >
            {(control) => (
              <Textarea
                {...control}
                rows={2}
                required
                minLength={3}
                maxLength={BAN_REASON_MAX}
                defaultValue={ban.value("reason")}
              />
            )}
          </Field>
          <ConfirmDialog
            trigger={
              <Button type="button" variant="danger">
                <Ban className="size-4" aria-hidden="true" /> Ban account
              </Button>
            }
            title={`Ban ${user.email}?`}
            text={`They are signed out everywhere at once (${data.sessions.length} active session${data.sessions.length === 1 ? "" : "s"}) and cannot sign in until you lift the ban. Their listings, claims and promotions stay as they are.`}
            confirmLabel="Ban account"
            tone="danger"
            form="ban-form"
          />
          <noscript>
            <Button type="submit" variant="danger" className="mt-2">
              Ban account
            </Button>
          </noscript>
        </Form>
      )}
    </section>
  );
}

function Sessions({ data }: { data: Data }) {
  const { sessions } = data;
  return (
    <section aria-labelledby="sessions-h" className={`mt-6 ${card}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="sessions-h" className="text-lg font-semibold text-slate-900">
            Signed-in devices ({sessions.length})
          </h2>
          <p className="mt-1 text-sm text-slate-600">Ending a session signs that device out at its next request.</p>
        </div>
        {!data.isSelf && sessions.length > 0 && (
          <Form method="post" id="revoke-all-form">
            <input type="hidden" name="intent" value="revoke-sessions" />
            <ConfirmDialog
              trigger={
                <Button type="button" variant="secondary">
                  <LogOut className="size-4" aria-hidden="true" /> Sign out everywhere
                </Button>
              }
              title={`Sign ${data.user.email} out everywhere?`}
              text={`All ${sessions.length} session${sessions.length === 1 ? " ends" : "s end"}. They can sign in again with their password.`}
              confirmLabel="Sign out everywhere"
              form="revoke-all-form"
            />
            <noscript>
              <Button type="submit" variant="secondary">
                Sign out everywhere
              </Button>
            </noscript>
          </Form>
        )}
      </div>
      {sessions.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Not signed in anywhere.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0 flex-1">
                <span className="block [overflow-wrap:anywhere] text-slate-800">{s.userAgent || "Unknown device"}</span>
                <span className="block text-xs text-slate-600">
                  {s.ipAddress ? `${s.ipAddress} · ` : ""}signed in {formatDateTime(s.createdAt)} UTC · last used{" "}
                  {formatDateTime(s.updatedAt)} UTC
                </span>
              </span>
              {!data.isSelf && (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-sessions" />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <SubmitButton variant="ghost" size="sm">
                    End session
                  </SubmitButton>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DeleteAccount({ data }: { data: Data }) {
  const form = useFormState({ intent: "delete" });
  const { user } = data;
  const pending = data.claims.filter((c) => c.status === "pending").length;
  return (
    <section aria-labelledby="delete-h" className="mt-6 rounded-lg border border-red-200 bg-white p-4 sm:p-6">
      <h2 id="delete-h" className="text-lg font-semibold text-red-800">
        Delete this account
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        This cannot be undone. {data.listings.length} listing{data.listings.length === 1 ? "" : "s"} will lose{" "}
        {data.listings.length === 1 ? "its" : "their"} owner, {pending} pending claim{pending === 1 ? " is" : "s are"}{" "}
        withdrawn, and every session ends. The audit trail keeps what the account did. To keep the account but stop it
        signing in, ban it instead.
      </p>
      <Form method="post" className="mt-3 max-w-md">
        <input type="hidden" name="intent" value="delete" />
        <Field label={`Type ${user.email} to confirm`} name="confirmEmail" error={form.error("confirmEmail")}>
          {(control) => (
            <Input {...control} type="text" autoComplete="off" spellCheck={false} maxLength={254} required />
          )}
        </Field>
        <SubmitButton variant="danger">
          <Trash2 className="size-4" aria-hidden="true" /> Delete account
        </SubmitButton>
      </Form>
    </section>
  );
}
