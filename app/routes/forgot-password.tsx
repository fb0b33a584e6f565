import { Form, Link, useActionData } from "react-router";
import { AuthCard, Notice } from "../components/auth/auth-form";
import { Field, FormError } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { SubmitButton } from "../components/ui/submit-button";
import { formStateOf } from "../lib/forms";
import { privatePageMeta } from "../lib/meta";
import { forgotPasswordAction } from "../../server/auth/pages";
import type { Route } from "./+types/forgot-password";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Forgot your password?", args);
}

export function action({ request }: Route.ActionArgs) {
  return forgotPasswordAction(request);
}

/**
 * "Forgot password?" from /login and /business/login (docs/product.md section 10). The answer is the same whether
 * or not the address has an account, so the page cannot be used to find out who has one.
 */
export default function ForgotPassword() {
  const answer = useActionData<typeof action>();
  const sent = answer && "sent" in answer ? answer : undefined;
  const form = formStateOf(answer);
  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the email you sign in with. We will send you a link to choose a new password."
    >
      {sent ? (
        <>
          <Notice
            message={`If an account uses ${sent.email}, we have sent a reset link to it. The link works once and for one hour; check your spam folder if it does not arrive within a few minutes.`}
          />
          <p className="text-center text-sm text-slate-600">
            <Link to="/login" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Back to sign in
            </Link>
          </p>
        </>
      ) : (
        <>
          <FormError message={form.formError} />
          <Form method="post" noValidate>
            <Field label="Email" name="email" error={form.error("email")}>
              {(control) => (
                <Input {...control} type="email" autoComplete="email" required defaultValue={form.value("email")} />
              )}
            </Field>
            <SubmitButton className="w-full">Send reset link</SubmitButton>
          </Form>
          <p className="mt-6 text-center text-sm text-slate-600">
            Remembered it?{" "}
            <Link to="/login" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Sign in
            </Link>
          </p>
        </>
      )}
    </AuthCard>
  );
}
