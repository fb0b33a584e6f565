import ArrowLeft from "lucide-react/icons/arrow-left";
import { Form, Link } from "react-router";
import type { Route } from "./+types/location-waitlist";
import { WAITLIST_RV_LENGTH } from "../../domain/waitlist";
import { Field, FormError } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { Select } from "../components/ui/select";
import { SubmitButton } from "../components/ui/submit-button";
import { useFormState } from "../lib/forms";
import { waitlistAction, waitlistPage } from "../../server/waitlist/pages";

export function meta({ data }: Route.MetaArgs) {
  return [
    { title: data ? `Join the waitlist at ${data.listing.name}` : "Join a waitlist" },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return waitlistPage(request, params.slug);
}

export async function action({ request, params }: Route.ActionArgs) {
  return waitlistAction(request, params.slug);
}

/**
 * Joining the waitlist of a full size (docs/product.md section 17). A plain form that works before
 * the page's script runs; the address is confirmed by the link we email to it.
 */
export default function JoinWaitlist({ loaderData, actionData }: Route.ComponentProps) {
  const { listing, sizes } = loaderData;
  const form = useFormState();
  const back = `/location/${listing.slug}`;
  const joined = actionData && "joined" in actionData ? actionData : null;
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <Link to={`${back}#sizes`} className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700">
        <ArrowLeft className="size-4" aria-hidden="true" /> Back to {listing.name}
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">Join the waitlist at {listing.name}</h1>
      {joined ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 px-3 py-2 text-emerald-900">
          {joined.message}
        </p>
      ) : sizes.length === 0 ? (
        <p className="mt-4 text-slate-700">
          No size here is full right now, so there is no waitlist to join.{" "}
          <Link to={`${back}#ask`} className="text-brand-700 underline">
            Ask the facility about a space
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="mt-3 text-slate-700">
            We email you when the owner marks the size as available. You confirm your address first; every email has a
            link to leave the waitlist. The facility sees how many people wait, not who.
          </p>
          <Form method="post" className="mt-6 space-y-4" noValidate>
            <FormError message={form.formError} />
            <Field label="Size" name="size" error={form.error("size")}>
              {(control) => (
                <Select {...control} defaultValue={form.value("size") ?? loaderData.size}>
                  {sizes.map((s) => (
                    <option key={s.key} value={s.key}>
                      {s.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Your email" name="email" error={form.error("email")}>
              {(control) => (
                <Input
                  {...control}
                  type="email"
                  autoComplete="email"
                  maxLength={254}
                  defaultValue={form.value("email") ?? loaderData.email}
                />
              )}
            </Field>
            <Field
              label="Your RV's length (feet)"
              name="rvLengthFeet"
              hint={`From ${WAITLIST_RV_LENGTH.min} to ${WAITLIST_RV_LENGTH.max} feet.`}
              error={form.error("rvLengthFeet")}
            >
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="decimal"
                  min={WAITLIST_RV_LENGTH.min}
                  max={WAITLIST_RV_LENGTH.max}
                  step="0.5"
                  className="max-w-32"
                  defaultValue={form.value("rvLengthFeet") ?? ""}
                />
              )}
            </Field>
            <SubmitButton>Join the waitlist</SubmitButton>
          </Form>
        </>
      )}
    </div>
  );
}
