import type { ReactNode } from "react";
import { Form } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { ConfirmDialog } from "../../components/ui/dialog";
import { Field, FormError } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { SubmitButton } from "../../components/ui/submit-button";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { settingsAction, settingsLoader } from "../../../server/account/pages";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/settings";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Account settings", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Settings" };

export function loader({ context }: Route.LoaderArgs) {
  return settingsLoader(context.get(viewerContext));
}

export function action({ request, context }: Route.ActionArgs) {
  return settingsAction(request, context.get(viewerContext), context.get(requestIdContext));
}

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = `settings-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      <div className="mt-4 max-w-md">{children}</div>
    </section>
  );
}

const Intent = ({ value }: { value: string }) => <input type="hidden" name="intent" value={value} />;

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { account, otherSessions, listings, pendingClaims, preferences, canDelete } = loaderData;
  const nameForm = useFormState({ intent: "name" });
  const passwordForm = useFormState({ intent: "password" });
  const emailForm = useFormState({ intent: "email" });
  const sessionsForm = useFormState({ intent: "sessions" });
  const notificationsForm = useFormState({ intent: "notifications" });
  const deleteForm = useFormState({ intent: "delete" });
  return (
    <>
      <PageHeader title="Account settings" description="Your name, sign-in details, emails and account." />
      <div className="mt-6 space-y-6">
        <Section title="Display name" description="Shown to administrators beside your claims and changes.">
          <Form method="post" noValidate>
            <Intent value="name" />
            <FormError message={nameForm.formError} />
            <Field label="Name" name="name" error={nameForm.error("name")}>
              {(control) => (
                <Input
                  {...control}
                  autoComplete="name"
                  required
                  defaultValue={nameForm.value("name") ?? account.name}
                />
              )}
            </Field>
            <SubmitButton name="intent" value="name">
              Save name
            </SubmitButton>
          </Form>
        </Section>

        <Section
          title="Email address"
          description={
            <>
              You sign in with <strong className="text-slate-800">{account.email}</strong>{" "}
              {account.emailVerified ? (
                <Badge tone="success">Confirmed</Badge>
              ) : (
                <Badge tone="warning">Not confirmed</Badge>
              )}
              <span className="mt-1 block">
                To change it, enter the new address: we send a link to it, and the change is made when you open it.
              </span>
            </>
          }
        >
          <Form method="post" noValidate>
            <Intent value="email" />
            <FormError message={emailForm.formError} />
            <Field label="New email" name="newEmail" error={emailForm.error("newEmail")}>
              {(control) => (
                <Input
                  {...control}
                  type="email"
                  autoComplete="email"
                  required
                  defaultValue={emailForm.value("newEmail")}
                />
              )}
            </Field>
            <SubmitButton name="intent" value="email">
              Send confirmation link
            </SubmitButton>
          </Form>
        </Section>

        <Section title="Password" description="Changing it signs you out on every other device.">
          <Form method="post" noValidate>
            <Intent value="password" />
            <FormError message={passwordForm.formError} />
            <Field label="Current password" name="currentPassword" error={passwordForm.error("currentPassword")}>
              {(control) => <Input {...control} type="password" autoComplete="current-password" required />}
            </Field>
            <Field
              label="New password"
              name="newPassword"
              hint="At least 8 characters."
              error={passwordForm.error("newPassword")}
            >
              {(control) => <Input {...control} type="password" autoComplete="new-password" required minLength={8} />}
            </Field>
            <Field label="New password again" name="confirmPassword" error={passwordForm.error("confirmPassword")}>
              {(control) => <Input {...control} type="password" autoComplete="new-password" required minLength={8} />}
            </Field>
            <SubmitButton name="intent" value="password">
              Change password
            </SubmitButton>
          </Form>
        </Section>

        <Section
          title="Sessions"
          description={
            otherSessions === 0
              ? "You are signed in on this device only."
              : `You are also signed in on ${otherSessions === 1 ? "1 other device or browser" : `${otherSessions} other devices or browsers`}.`
          }
        >
          <Form method="post">
            <Intent value="sessions" />
            <FormError message={sessionsForm.formError} />
            <SubmitButton variant="secondary" name="intent" value="sessions" disabled={otherSessions === 0}>
              Sign out of other sessions
            </SubmitButton>
          </Form>
        </Section>

        <Section title="Email notifications" description="Emails you asked for, like reset links, always arrive.">
          <Form method="post">
            <Intent value="notifications" />
            <FormError message={notificationsForm.formError} />
            <fieldset className="space-y-3">
              <legend className="sr-only">Send me an email</legend>
              <Checkbox
                name="claimResults"
                defaultChecked={preferences["claim-results"]}
                label="When an administrator decides on my claim"
              />
              <Checkbox
                name="moderationResults"
                defaultChecked={preferences["moderation-results"]}
                label="When a change to my listing is approved or rejected"
              />
              <Checkbox
                name="monthlyPerformance"
                defaultChecked={preferences["monthly-performance"]}
                label="A monthly summary of how my listings performed"
              />
              <Checkbox
                name="newReviews"
                defaultChecked={preferences["new-reviews"]}
                label="When someone reviews one of my listings"
              />
            </fieldset>
            <SubmitButton className="mt-4" name="intent" value="notifications">
              Save preferences
            </SubmitButton>
          </Form>
        </Section>

        <Section
          title="Delete my account"
          description={
            canDelete
              ? `This cannot be undone. ${
                  listings > 0
                    ? `The ${listings === 1 ? "listing" : `${listings} listings`} you manage will have no owner. `
                    : ""
                }${pendingClaims > 0 ? `Your pending ${pendingClaims === 1 ? "claim is" : "claims are"} withdrawn. ` : ""}The record of what you changed is kept.`
              : "An administrator account cannot be deleted here. Ask another administrator to remove your role first."
          }
        >
          {canDelete && (
            <Form method="post" id="delete-account" noValidate>
              <Intent value="delete" />
              <FormError message={deleteForm.formError} />
              <Field label="Your password" name="password" error={deleteForm.error("password")}>
                {(control) => <Input {...control} type="password" autoComplete="current-password" required />}
              </Field>
              <ConfirmDialog
                trigger={<Button variant="danger">Delete my account</Button>}
                title="Delete your account?"
                text="You will be signed out, your listings released and your pending claims withdrawn. This cannot be undone."
                confirmLabel="Delete my account for good"
                tone="danger"
                form="delete-account"
              />
              <noscript>
                <Button type="submit" variant="danger" className="mt-2">
                  Delete my account for good
                </Button>
              </noscript>
            </Form>
          )}
        </Section>
      </div>
    </>
  );
}
