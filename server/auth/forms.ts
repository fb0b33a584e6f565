import { accountMarkerCookie } from "./account-marker";
import { APIError } from "better-auth";
import { z } from "zod";
import type { FormFailure } from "../../domain/forms";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { parseFormSubmission } from "../http/form-action";
import { clientIp, createBackoffLimiter, createRateLimiter } from "../http/rate-limit";
import {
  createSharedBackoffLimiter,
  createSharedRateLimiter,
  localRateLimiter,
  type SharedRateLimiter,
} from "../http/shared-rate-limit";
import { logger } from "../logger";
import { existingAccountEmail, signInLink } from "./account-emails";
import { afterAnswer } from "./account-work";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, getAuth } from "./auth";

/**
 * Sign-in, sign-up and sign-out as services for the /login, /signup and /business/login actions:
 * server-side validation with messages a person can act on, limits per IP and per account, and
 * better-auth underneath. A wrong password never says which field was wrong.
 */
function duration(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (seconds >= 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

export const MESSAGES = {
  email: "Enter a valid email address, like name@example.com.",
  passwordRequired: "Enter your password.",
  passwordLength: `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`,
  passwordTooLong: `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`,
  name: "Enter your name.",
  wrongCredentials: "That email and password do not match an account.",
  /** Shown only after the right password (better-auth checks it before the ban), so it tells nobody else. */
  suspended: "This account has been suspended by an administrator, so it cannot sign in.",
  tooMany: (seconds: number) => `Too many attempts. Please wait ${duration(seconds)} and try again.`,
  failed: "We could not sign you in right now. Please try again in a moment.",
} as const;

const email = z
  .string({ error: MESSAGES.email })
  .trim()
  .toLowerCase()
  .max(254, MESSAGES.email)
  .pipe(z.email({ error: MESSAGES.email }));
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true" || v === "1");

export const signInSchema = z.object({
  email,
  // No account's password is longer than sign-up allows; better-auth refuses such input anyway.
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong),
  remember: checkbox,
});

export const signUpSchema = z.object({
  name: z
    .string({ error: MESSAGES.name })
    .trim()
    .min(1, MESSAGES.name)
    .max(80, "Use at most 80 characters for your name."),
  email,
  password: z
    .string({ error: MESSAGES.passwordLength })
    .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordLength)
    .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong),
});

export type FieldErrors = Partial<Record<"name" | "email" | "password", string>>;

export type FormResult =
  | { ok: true; headers: Headers }
  | {
      ok: false;
      status: number;
      formError?: string;
      fieldErrors?: FieldErrors;
      values: { name?: string; email?: string };
    };

/**
 * A sign-up that passed the checks: "check your email", the same whether or not the address has
 * an account (the account, or the email to its owner, is made after the answer).
 */
export type SignUpResult = { ok: true; sent: true; email: string } | Extract<FormResult, { ok: false }>;

/**
 * Sign-in limits, each answering "Too many attempts. Please wait N minutes and try again.":
 * - per (account, address): 10 failed attempts per 15 minutes. The tight one: it stops one
 *   machine guessing one password, and is the only one a single stranger can reach, so they
 *   lock out nobody but themselves.
 * - per address: 20 failed attempts per 15 minutes, across accounts (password spraying).
 * - per account, from every address: 30 attempts free, then a growing wait between attempts
 *   (1 s, 2 s, 4 s … at most 60 s) until 15 minutes pass without one. A distributed guesser is
 *   slowed to about one guess a minute, and the owner waits at most a minute, never 15.
 * Only failed password checks count: a success gives its hits back. Sign-ups: 10 per address an
 * hour, and 3 per email address an hour (each sends that address an email). docs/operations.md,
 * "Sign-in, sign-up and redirects".
 */
export const LIMITS = {
  signInPerAccountIp: { name: "sign-in-account-ip", windowMs: 15 * 60_000, max: 10 },
  signInPerIp: { name: "sign-in-ip", windowMs: 15 * 60_000, max: 20 },
  signUpPerIp: { name: "sign-up-ip", windowMs: 60 * 60_000, max: 10 },
  signUpPerEmail: { name: "sign-up-email", windowMs: 60 * 60_000, max: 3 },
} as const;
export const ACCOUNT_BACKOFF = {
  name: "sign-in-account",
  free: 30,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  quietMs: 15 * 60_000,
} as const;

type Limits = Record<keyof typeof LIMITS | "signInPerAccount", SharedRateLimiter>;
/** Counters in this process's memory; `now` lets a test move the clock. */
export const inMemoryLimits = (now: () => number = Date.now): Limits => ({
  signInPerAccountIp: localRateLimiter(createRateLimiter({ ...LIMITS.signInPerAccountIp, now })),
  signInPerIp: localRateLimiter(createRateLimiter({ ...LIMITS.signInPerIp, now })),
  signInPerAccount: localRateLimiter(createBackoffLimiter({ ...ACCOUNT_BACKOFF, now })),
  signUpPerIp: localRateLimiter(createRateLimiter({ ...LIMITS.signUpPerIp, now })),
  signUpPerEmail: localRateLimiter(createRateLimiter({ ...LIMITS.signUpPerEmail, now })),
});
/** Per-process counters until the server installs the shared ones (tests keep these). */
let limits: Limits = inMemoryLimits();

/** For tests: counters with their own clock, or fresh ones. */
export function useRateLimits(next: Limits): void {
  limits = next;
}

/**
 * Counts sign-in and sign-up attempts in the database from now on, so that every app instance
 * behind a load balancer shares one budget (server/app.ts boot).
 */
export function shareRateLimits(db: Database): void {
  limits = {
    signInPerAccountIp: createSharedRateLimiter(db, LIMITS.signInPerAccountIp),
    signInPerIp: createSharedRateLimiter(db, LIMITS.signInPerIp),
    signInPerAccount: createSharedBackoffLimiter(db, ACCOUNT_BACKOFF),
    signUpPerIp: createSharedRateLimiter(db, LIMITS.signUpPerIp),
    signUpPerEmail: createSharedRateLimiter(db, LIMITS.signUpPerEmail),
  };
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

/** The form pipeline's messages (server/http/form-action.ts), the first for each field, as the auth forms show them. */
function fieldErrorsOf(failure: FormFailure): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, messages] of Object.entries(failure.fieldErrors)) {
    const key = name as keyof FieldErrors;
    if (messages[0] !== undefined) errors[key] ??= messages[0];
  }
  return errors;
}

/** Only the Set-Cookie headers of better-auth's answer travel on to the page's response. */
function cookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { code?: string };
    return body.code;
  } catch {
    return undefined;
  }
}

function limited(
  retryAfterSeconds: number,
  values: { name?: string; email?: string },
): Extract<FormResult, { ok: false }> {
  return { ok: false, status: 429, formError: MESSAGES.tooMany(retryAfterSeconds), values };
}

export async function signIn(request: Request, form: FormData): Promise<FormResult> {
  const values = { email: text(form, "email")?.trim() };
  const address = clientIp(request);
  const ip = await limits.signInPerIp.hit(address);
  if (!ip.ok) return limited(ip.retryAfterSeconds, values);
  const parsed = parseFormSubmission(signInSchema, form);
  if (!parsed.ok) {
    await limits.signInPerIp.refund(address);
    return { ok: false, status: 400, fieldErrors: fieldErrorsOf(parsed), values };
  }
  // The schema lower-cases the email, so every spelling of an address shares its counters.
  const account = parsed.data.email;
  const pair = `${account}|${address}`;
  const perPair = await limits.signInPerAccountIp.hit(pair);
  if (!perPair.ok) {
    await limits.signInPerIp.refund(address);
    return limited(perPair.retryAfterSeconds, values);
  }
  const perAccount = await limits.signInPerAccount.hit(account);
  if (!perAccount.ok) {
    // No password was checked, so nothing counts against this address (or the owner could be
    // walled in by retrying while strangers keep the account waiting).
    await limits.signInPerIp.refund(address);
    await limits.signInPerAccountIp.refund(pair);
    return limited(perAccount.retryAfterSeconds, values);
  }

  const response = await call(() =>
    getAuth().api.signInEmail({
      body: { email: account, password: parsed.data.password, rememberMe: parsed.data.remember },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (response.ok) {
    // Only failures count: people behind one address may all sign in. The account's backoff only
    // gets this attempt back: a success must not hand a distributed guesser a fresh budget.
    await limits.signInPerIp.refund(address);
    await limits.signInPerAccountIp.reset(pair);
    await limits.signInPerAccount.refund(account);
    const headers = cookiesOf(response);
    headers.append("Set-Cookie", accountMarkerCookie(true));
    return { ok: true, headers };
  }
  const code = await errorCode(response);
  if (code === "BANNED_USER") return { ok: false, status: 403, formError: MESSAGES.suspended, values };
  if (response.status === 401 || code === "INVALID_EMAIL_OR_PASSWORD") {
    return { ok: false, status: 401, formError: MESSAGES.wrongCredentials, values };
  }
  logger.warn({ status: response.status, code }, "sign-in failed");
  return { ok: false, status: 500, formError: MESSAGES.failed, values };
}

/**
 * /signup: checks the form and the limits, then answers "check your email" at once, the same for
 * an address with an account and one without; nobody is signed in. After the answer
 * (server/auth/account-work.ts), a new address gets its account and the confirmation link, whose
 * sign-in goes on to `redirectTo`; a known one gets an email telling its owner to sign in or reset
 * the password, and nothing changes.
 */
export async function signUp(
  request: Request,
  form: FormData,
  { redirectTo }: { redirectTo?: string } = {},
): Promise<SignUpResult> {
  const values = { name: text(form, "name")?.trim(), email: text(form, "email")?.trim() };
  const ip = await limits.signUpPerIp.hit(clientIp(request));
  if (!ip.ok) return limited(ip.retryAfterSeconds, values);
  const parsed = parseFormSubmission(signUpSchema, form);
  if (!parsed.ok) return { ok: false, status: 400, fieldErrors: fieldErrorsOf(parsed), values };
  const { name, email, password } = parsed.data;
  const perEmail = await limits.signUpPerEmail.hit(email);
  if (!perEmail.ok) return limited(perEmail.retryAfterSeconds, values);
  afterAnswer("sign-up", () => createAccountOrTellOwner({ name, email, password, redirectTo }));
  return { ok: true, sent: true, email };
}

async function createAccountOrTellOwner(input: { name: string; email: string; password: string; redirectTo?: string }) {
  const auth = getAuth();
  // With autoSignIn off, better-auth answers a known address with a made-up user and writes
  // nothing; a new account gets its confirmation email, with the destination in its link.
  const { user } = await auth.api.signUpEmail({
    body: {
      name: input.name,
      email: input.email,
      password: input.password,
      ...(input.redirectTo ? { callbackURL: input.redirectTo } : {}),
    },
  });
  const context = await auth.$context;
  if (await context.internalAdapter.findUserById(user.id)) return;
  const existing = await context.internalAdapter.findUserByEmail(input.email);
  if (!existing || (existing.user as { isAnonymous?: boolean }).isAnonymous) return;
  const baseURL = String(auth.options.baseURL);
  await existingAccountEmail(getDatabase(), existing.user, {
    signIn: signInLink(baseURL, input.redirectTo),
    reset: new URL("/forgot-password", baseURL).toString(),
  });
}

/** Ends the session (if any) and returns the headers that clear its cookies, the account marker's too. */
export async function signOut(request: Request): Promise<Headers> {
  const response = await call(() => getAuth().api.signOut({ headers: request.headers, asResponse: true }));
  const headers = cookiesOf(response);
  headers.append("Set-Cookie", accountMarkerCookie(false));
  return headers;
}

/** better-auth answers errors as Responses with asResponse, but may still throw an APIError. */
async function call(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof APIError) {
      return Response.json({ code: error.body?.code, message: error.message }, { status: error.statusCode });
    }
    throw error;
  }
}
