import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "../ui/button";
import { controlClasses } from "../ui/input";
import { PasswordStrengthMeter } from "./password-strength-meter";

/** What a sign-in or sign-up action answers when it does not redirect. */
export interface AuthActionData {
  formError?: string;
  fieldErrors?: Partial<Record<"name" | "email" | "password", string>>;
  values?: { name?: string; email?: string };
}

export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {intro && <div className="mt-2 text-slate-600">{intro}</div>}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}

/**
 * The form of the sign-in and sign-up pages: posts to its own page (works without JavaScript) and,
 * when the answer names a problem, moves focus to the first field it names, so keyboard and
 * screen-reader users land where the fix is.
 */
export function AuthForm({ data, children }: { data: AuthActionData | undefined; children: ReactNode }) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (data?.fieldErrors && Object.keys(data.fieldErrors).length > 0) {
      ref.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
    }
  }, [data]);
  return (
    <Form method="post" noValidate ref={ref}>
      {children}
    </Form>
  );
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

export function Field({
  label,
  name,
  type = "text",
  autoComplete,
  defaultValue,
  error,
  hint,
  required = true,
  minLength,
  onValue,
}: {
  label: string;
  name: string;
  type?: "text" | "email" | "password";
  autoComplete: string;
  defaultValue?: string;
  error?: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  minLength?: number;
  /** Called with the value as it is typed. */
  onValue?: (value: string) => void;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        required={required}
        minLength={minLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={onValue ? (event) => onValue(event.currentTarget.value) : undefined}
        className={controlClasses("mt-1")}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({ children, pendingText }: { children: ReactNode; pendingText: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return (
    <Button type="submit" pending={pending} className="w-full">
      {pending ? pendingText : children}
    </Button>
  );
}

/**
 * Email and password, as sign-in (the current password) or sign-up (a new one, with a strength
 * hint) asks for them.
 */
export function CredentialFields({ data, kind }: { data: AuthActionData | undefined; kind: "current" | "new" }) {
  const [password, setPassword] = useState("");
  return (
    <>
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={data?.values?.email}
        error={data?.fieldErrors?.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete={kind === "new" ? "new-password" : "current-password"}
        hint={
          kind === "new" ? (
            <>
              At least 8 characters.
              <PasswordStrengthMeter password={password} />
            </>
          ) : undefined
        }
        minLength={kind === "new" ? 8 : undefined}
        error={data?.fieldErrors?.password}
        onValue={kind === "new" ? setPassword : undefined}
      />
    </>
  );
}

/** The sign-in form shared by /login and /business/login. */
/** A confirmation carried to this page by a redirect ("Your password is changed…"). */
export function Notice({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="status"
      className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      {message}
    </p>
  );
}

export function SignInForm({
  data,
  notice,
  redirectTo,
  signUpHref,
}: {
  data: AuthActionData | undefined;
  notice?: string;
  redirectTo: string | null;
  signUpHref: string;
}) {
  return (
    <>
      <Notice message={notice} />
      <FormError message={data?.formError} />
      <AuthForm data={data}>
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <CredentialFields data={data} kind="current" />
        <p className="-mt-2 mb-4 text-right text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Forgot password?
          </Link>
        </p>
        <label className="mb-6 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="remember" defaultChecked className="size-4 rounded border-slate-300" />
          Keep me signed in on this device
        </label>
        <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
      </AuthForm>
      <p className="mt-6 text-center text-sm text-slate-600">
        New here?{" "}
        <Link to={signUpHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Create an account
        </Link>
      </p>
    </>
  );
}
