import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ListingEditor } from "../../components/listing-editor/listing-editor";
import { buttonClasses } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { Input } from "../../components/ui/input";
import { Select } from "../../components/ui/select";
import { useFormState } from "../../lib/forms";
import { BUSINESS_STATUSES, BUSINESS_STATUS_LABELS, LISTING_LIMITS } from "../../../domain/listings";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { adminListingEditPage, adminUpdateListingAction } from "../../../server/listings/pages";
import type { Route } from "./+types/manage-location-edit";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Edit ${args.data.name}` : "Edit a listing", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Edit" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return adminListingEditPage(request, context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return adminUpdateListingAction(
    request,
    context.get(viewerContext),
    params.locationId,
    context.get(requestIdContext),
  );
}

/**
 * The administrator's listing editor (docs/product.md section 12): the owner's form, with every
 * field publishing at once, a pin to drag, and the fields only administrators set.
 */
export default function AdminEditListing({ loaderData }: Route.ComponentProps) {
  const form = useFormState();
  const echoed = Object.keys(form.values).length > 0;
  const value = (name: "city" | "state" | "businessStatus") =>
    echoed ? (form.value(name) ?? "") : loaderData.admin[name];
  const manage = `/admin/manage/${encodeURIComponent(loaderData.placeId)}`;
  return (
    <ListingEditor
      data={loaderData}
      showHistory={false}
      locationNote="Your changes publish as soon as you save."
      locationFields={
        <div className="mt-4 grid gap-x-4 sm:grid-cols-3">
          <Field label="City" name="city" error={form.error("city")}>
            {(c) => <Input {...c} defaultValue={value("city")} maxLength={LISTING_LIMITS.city} />}
          </Field>
          <Field label="State" name="state" error={form.error("state")}>
            {(c) => (
              <Select {...c} defaultValue={value("state")}>
                <option value="">Not known</option>
                {loaderData.states.map((s) => (
                  <option key={s.code} value={s.code}>
                    {s.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Business status" name="businessStatus" error={form.error("businessStatus")}>
            {(c) => (
              <Select {...c} defaultValue={value("businessStatus")}>
                <option value="">Not known</option>
                {BUSINESS_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {BUSINESS_STATUS_LABELS[s]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>
      }
      header={
        <PageHeader
          title={`Edit ${loaderData.name}`}
          description="Every field publishes when you save. If someone else saved the listing since you opened it, you are told and nothing is overwritten."
          actions={
            <>
              <Link to={manage} className={buttonClasses("secondary")}>
                Back to the listing
              </Link>
              <Link to={`${manage}/photos`} className={buttonClasses("secondary")}>
                Photos ({loaderData.photoCount})
              </Link>
            </>
          }
        />
      }
    />
  );
}
