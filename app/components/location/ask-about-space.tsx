import { useFormStamp } from "../../lib/auth";
import { useEffect, useRef, useState, type ComponentProps } from "react";
import { Form, useNavigation } from "react-router";
import {
  COVER_WANTS,
  COVER_WANT_LABELS,
  LEAD_LIMITS,
  RV_TYPES,
  RV_TYPE_LABELS,
  type CoverWant,
} from "../../../domain/leads";
import { Button } from "../ui/button";
import { controlClasses } from "../ui/input";

/** What the form starts with: from the link's `?length=&cover=`, or the results the visitor came from. */
export interface AskPrefill {
  rvLengthFeet?: string | undefined;
  cover?: CoverWant | undefined;
}

export type AskResult =
  | { lead: "sent"; text: string }
  | { lead: "error"; message: string; fieldErrors: Record<string, string[]>; values: Record<string, string> };

const input = controlClasses("mt-1");
const label = "block text-sm font-medium text-slate-800";

function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {messages.join(" ")}
    </p>
  );
}

/** A labelled input of the form, described by its error. */
function TextField({
  name,
  label: text,
  errors,
  ...props
}: { name: string; label: string; errors: Record<string, string[]> } & ComponentProps<"input">) {
  const messages = errors[name];
  return (
    <div>
      <label htmlFor={`ask-${name}`} className={label}>
        {text}
      </label>
      <input
        id={`ask-${name}`}
        name={name}
        aria-describedby={messages?.length ? `ask-${name}-error` : undefined}
        aria-invalid={messages?.length ? true : undefined}
        className={input}
        {...props}
      />
      <FieldError id={`ask-${name}-error`} messages={messages} />
    </div>
  );
}

/**
 * The server's answer to the form, in view and focused when it arrives: the form it replaces was
 * longer, so on a phone the page would otherwise show what comes after (the nearby cards) with
 * focus lost on the body, and people would send again. Focus makes screen readers read it.
 */
function Answer({
  role,
  answer,
  className,
  children,
}: {
  role: "status" | "alert";
  /** The action's answer: a new one (the same error sent again too) is brought into view again. */
  answer: AskResult;
  className: string;
  children: string;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
  }, [answer]);
  return (
    <p
      ref={ref}
      role={role}
      tabIndex={-1}
      className={`${className} focus:outline-2 focus:outline-offset-2 focus:outline-brand-500`}
    >
      {children}
    </p>
  );
}

/**
 * "Ask about a space" (docs/product.md section 14): a form on the facility page that posts to the
 * page and works without JavaScript. A hidden field people leave empty and the signed time the
 * page was served tell bots apart; the answer replaces the form with its confirmation.
 */
export function AskAboutSpace({
  facility,
  stamp,
  result,
  prefill,
  reservable,
}: {
  facility: string;
  stamp: string;
  result: AskResult | undefined;
  prefill: AskPrefill;
  /** The listing has an owner, who can accept a reservation request (docs/product.md section 17). */
  reservable: boolean;
}) {
  const navigation = useNavigation();
  const freshStamp = useFormStamp(stamp);
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "lead";
  const failed = result?.lead === "error" ? result : undefined;
  const values = failed?.values ?? {};
  const errors = failed?.fieldErrors ?? {};
  const describedBy = (name: string) => (errors[name]?.length ? `ask-${name}-error` : undefined);
  const [reserve, setReserve] = useState(values.kind === "reservation");
  return (
    <section id="ask" aria-labelledby="ask-h" className="scroll-mt-20 rounded-card border border-slate-200 p-4 sm:p-6">
      <h2 id="ask-h" className="text-xl font-semibold text-slate-900">
        Ask about a space
      </h2>
      {result?.lead === "sent" ? (
        <Answer answer={result} className="mt-3 rounded-md bg-emerald-50 p-3 text-emerald-900" role="status">
          {result.text}
        </Answer>
      ) : (
        <>
          <p className="mt-1 text-slate-700">
            Send {facility} your RV&apos;s details; they answer you by email. We send you a copy.
          </p>
          <Form
            // A prefill known only after hydration (router state) starts the form afresh with it.
            key={`${prefill.rvLengthFeet ?? ""}-${prefill.cover ?? ""}`}
            method="post"
            preventScrollReset
            className="mt-4 grid gap-4 sm:grid-cols-2"
            noValidate={false}
          >
            <input type="hidden" name="intent" value="lead" />
            <input type="hidden" name="stamp" value={freshStamp} />
            {/* People never see this field; a bot that fills it is ignored. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label>
                Company website
                <input type="text" name="company_website" tabIndex={-1} autoComplete="off" defaultValue="" />
              </label>
            </div>
            {failed && (
              <Answer answer={failed} role="alert" className="rounded-md bg-red-50 p-3 text-red-800 sm:col-span-2">
                {failed.message}
              </Answer>
            )}
            {reservable && (
              <fieldset className="sm:col-span-2">
                <legend className={label}>What would you like?</legend>
                <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
                  {(
                    [
                      ["question", "Ask a question"],
                      ["reservation", "Request to reserve"],
                    ] as const
                  ).map(([k, text]) => (
                    <label key={k} className="flex min-h-8 items-center gap-2 text-slate-700">
                      <input
                        type="radio"
                        name="kind"
                        value={k}
                        defaultChecked={reserve === (k === "reservation")}
                        onChange={() => setReserve(k === "reservation")}
                        className="accent-brand-500"
                      />
                      {text}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <div>
              <label htmlFor="ask-rvType" className={label}>
                RV type
              </label>
              <select
                id="ask-rvType"
                name="rvType"
                required
                defaultValue={values.rvType ?? ""}
                aria-describedby={describedBy("rvType")}
                aria-invalid={errors.rvType ? true : undefined}
                className={input}
              >
                <option value="" disabled>
                  Choose…
                </option>
                {RV_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {RV_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
              <FieldError id="ask-rvType-error" messages={errors.rvType} />
            </div>
            <TextField
              name="rvLengthFeet"
              label="Length (feet)"
              errors={errors}
              defaultValue={values.rvLengthFeet ?? prefill.rvLengthFeet ?? ""}
              type="number"
              inputMode="numeric"
              min={LEAD_LIMITS.lengthMinFeet}
              max={LEAD_LIMITS.lengthMaxFeet}
              required
            />
            <fieldset className="sm:col-span-2">
              <legend className={label}>Kind of space</legend>
              <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
                {COVER_WANTS.map((c) => (
                  <label key={c} className="flex min-h-8 items-center gap-2 text-slate-700">
                    <input
                      type="radio"
                      name="cover"
                      value={c}
                      required
                      defaultChecked={(values.cover ?? prefill.cover ?? "any") === c}
                      className="accent-brand-500"
                    />
                    {COVER_WANT_LABELS[c]}
                  </label>
                ))}
              </div>
              <FieldError id="ask-cover-error" messages={errors.cover} />
            </fieldset>
            <TextField
              name="moveIn"
              label={reserve ? "Move-in date" : "Move-in date (optional)"}
              errors={errors}
              defaultValue={values.moveIn ?? ""}
              type="date"
              required={reserve}
            />
            <TextField
              name="name"
              label="Your name"
              errors={errors}
              defaultValue={values.name ?? ""}
              autoComplete="name"
              required
              maxLength={LEAD_LIMITS.nameMax}
            />
            <TextField
              name="email"
              label="Email"
              errors={errors}
              defaultValue={values.email ?? ""}
              type="email"
              autoComplete="email"
              required
              maxLength={LEAD_LIMITS.emailMax}
            />
            <TextField
              name="phone"
              label="Phone (optional)"
              errors={errors}
              defaultValue={values.phone ?? ""}
              type="tel"
              autoComplete="tel"
              maxLength={LEAD_LIMITS.phoneMax}
            />
            <div className="sm:col-span-2">
              <label htmlFor="ask-message" className={label}>
                Message
              </label>
              <textarea
                id="ask-message"
                name="message"
                rows={4}
                required
                maxLength={LEAD_LIMITS.messageMax}
                defaultValue={values.message ?? ""}
                placeholder="When you need the space, for how long, anything else they should know."
                aria-describedby={describedBy("message")}
                aria-invalid={errors.message ? true : undefined}
                className={input}
              />
              <FieldError id="ask-message-error" messages={errors.message} />
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={sending}>
                {sending ? "Sending…" : reserve ? "Send my request" : "Send my question"}
              </Button>
              <p className="mt-2 text-sm text-slate-600">
                Your email and phone go to the facility only, and are deleted after 180 days.
              </p>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
