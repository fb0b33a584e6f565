import { useState } from "react";
import { Form, Link } from "react-router";
import { AuthCard } from "../components/auth/auth-form";
import { PasswordStrengthMeter } from "../components/auth/password-strength-meter";
import { Field, FormError } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { SubmitButton } from "../components/ui/submit-button";
import { useFormState } from "../lib/forms";
import { privatePageMeta } from "../lib/meta";
import { resetPasswordAction, resetPasswordPageData } from "../../server/auth/pages";
import { requestIdContext } from "../../server/http/request-context";
import type { Route } from "./+types/reset-password";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Choose a new password", args);
}

export function loader({ request }: Route.LoaderArgs) {
  return resetPasswordPageData(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return resetPasswordAction(request, context.get(requestIdContext));
}

/** The page the reset email links to (docs/product.md section 10): a new password twice, by the sign-up rules. */
export default function ResetPassword({ loaderData }: Route.ComponentProps) {
  const { token, valid } = loaderData;
  const form = useFormState();
  const [password, setPassword] = useState("");
  if (!valid) {
    return (
      <AuthCard title="This link no longer works">
        <p className="text-slate-700">
          A reset link works once and for one hour. This one has expired or was already used.
        </p>
        <p className="mt-6">
          <Link to="/forgot-password" className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Ask for a new link
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" intro="You will sign in with it from now on, on every device.">
      <FormError message={form.formError} />
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          name="password"
          hint={
            <>
              At least 8 characters.
              <PasswordStrengthMeter password={password} />
            </>
          }
          error={form.error("password")}
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="New password again" name="confirmPassword" error={form.error("confirmPassword")}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" required minLength={8} />}
        </Field>
        <SubmitButton className="w-full">Set new password</SubmitButton>
      </Form>
    </AuthCard>
  );
}
