import { Form, Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { EmptyState } from "../../components/ui/empty-state";
import { Input } from "../../components/ui/input";
import { SubmitButton } from "../../components/ui/submit-button";
import { privatePageMeta } from "../../lib/meta";
import { useFormState } from "../../lib/forms";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { availabilityAction, availabilityPage } from "../../../server/listings/availability";
import CalendarCheck from "lucide-react/icons/calendar-check";
import type { Route } from "./+types/location-availability";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Availability of ${args.data.name}` : "Availability", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { name?: string } | undefined)?.name;
    return name ? `Availability of ${name}` : "Availability";
  },
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return availabilityPage(request, context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return availabilityAction(request, context.get(viewerContext), params.locationId, context.get(requestIdContext));
}

/**
 * Every size's availability on one screen (docs/product.md section 17), quick on a phone: a
 * status per size, optionally how many spaces are open, and "Still correct" to confirm them all.
 */
export default function Availability({ loaderData }: Route.ComponentProps) {
  const { sizes, statuses, version, summary } = loaderData;
  const form = useFormState();
  return (
    <>
      <PageHeader
        title={`Availability of ${loaderData.name}`}
        description={
          summary
            ? `Visitors see: ${summary}. After ${loaderData.staleAfterDays} days without an update they see “not confirmed recently”.`
            : "Say which sizes have space: visitors filter on it, and a full size takes a waitlist."
        }
        actions={
          <Link to={`/location/${loaderData.slug}`} className={buttonClasses("secondary")}>
            View the public page
          </Link>
        }
      />
      <FormError className="mt-4" message={form.formError} />
      {sizes.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<CalendarCheck />}
          title="No sizes listed yet"
          text="Add the sizes you offer in the listing editor first; their availability is set here."
          action={
            <Link
              to={`/owner/locations/${encodeURIComponent(loaderData.placeId)}/update`}
              className={buttonClasses("primary")}
            >
              Open the listing editor
            </Link>
          }
        />
      ) : (
        <>
          <Form method="post" className="mt-6 space-y-3" noValidate>
            <input type="hidden" name="version" value={version} />
            <ul className="space-y-3">
              {sizes.map((size, i) => (
                <li key={size.key} className="rounded-lg border border-slate-200 bg-white p-4">
                  <input type="hidden" name={`sizes[${i}].key`} value={size.key} />
                  <fieldset>
                    <legend className="font-semibold text-slate-900">
                      {size.label}
                      {size.updated && (
                        <span
                          className={`ml-2 text-sm font-normal ${size.stale ? "text-amber-700" : "text-slate-600"}`}
                        >
                          {size.updated}
                        </span>
                      )}
                      {size.waiting > 0 && (
                        <span className="ml-2 text-sm font-normal text-slate-600">
                          · {size.waiting} {size.waiting === 1 ? "person waits" : "people wait"}
                        </span>
                      )}
                    </legend>
                    <div className="mt-2 flex flex-wrap gap-2">
                      {[{ value: "", label: "Not stated" }, ...statuses].map((status) => (
                        <label
                          key={status.value}
                          className="flex min-h-11 items-center gap-2 rounded-md border border-slate-300 px-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                        >
                          <input
                            type="radio"
                            name={`sizes[${i}].availability`}
                            value={status.value}
                            defaultChecked={(size.availability ?? "") === status.value}
                            className="accent-brand-500"
                          />
                          {status.label}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                  <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
                    Open spaces (optional)
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      name={`sizes[${i}].openSpaces`}
                      defaultValue={size.openSpaces ?? ""}
                      className="w-24"
                      invalid={Boolean(form.error(`sizes[${i}].openSpaces`))}
                    />
                  </label>
                  {form.error(`sizes[${i}].openSpaces`) && (
                    <p className="mt-1 text-sm text-red-700">{form.error(`sizes[${i}].openSpaces`)![0]}</p>
                  )}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-3">
              <SubmitButton name="intent" value="save">
                Save availability
              </SubmitButton>
            </div>
          </Form>
          <Form method="post" className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
            <input type="hidden" name="version" value={version} />
            <p className="text-sm text-slate-700">
              Nothing changed? Confirm it in one tap: every size shows as updated today.
            </p>
            <SubmitButton className="mt-2" variant="secondary" name="intent" value="confirm">
              Still correct
            </SubmitButton>
          </Form>
        </>
      )}
    </>
  );
}
