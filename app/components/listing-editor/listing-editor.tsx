import Clock from "lucide-react/icons/clock";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { PinPicker } from "../map/pin-picker";
import { ChangeList } from "../moderation/change-list";
import { Badge } from "../ui/badge";
import { Checkbox } from "../ui/checkbox";
import { Field, FormError } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { HoursWeek, useWeekRows } from "./hours-editor";
import { SubmitButton } from "../ui/submit-button";
import { Textarea } from "../ui/textarea";
import { AMENITY_GROUPS, AMENITY_LABELS } from "../../../domain/amenities";
import { useFormState, type FormState } from "../../lib/forms";
import {
  AVAILABILITIES,
  AVAILABILITY_LABELS,
  LISTING_FIELD_LABELS,
  LISTING_LIMITS,
  REVISION_KIND_LABELS,
  type ListingField,
} from "../../../domain/listings";
import type { Route as OwnerEditRoute } from "../../routes/owner/+types/location-update";
import { formatDateTime, formatNumber } from "../../lib/format";

const fieldLabel = (field: string) => LISTING_FIELD_LABELS[field as ListingField] ?? field;

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The coordinate inputs' ids, for the map that sets them (the pin to drag). */
const LATITUDE_INPUT = "listing-latitude";
const LONGITUDE_INPUT = "listing-longitude";

/** The owner's edit page's data; the administrator's editor loads the same and more. */
export type ListingEditData = OwnerEditRoute.ComponentProps["loaderData"];

export interface ListingEditorProps {
  data: ListingEditData;
  /** The page's title area (each console words it its own way). */
  header: ReactNode;
  /** The "Name and location" section's note: owners' key fields wait for review, admins' do not. */
  locationNote: string;
  /** More fields in that section (the administrator's city, state and business status). */
  locationFields?: ReactNode;
  /** The owner's page lists the listing's history under the form; the administrator's has its own. */
  showHistory?: boolean;
}

/**
 * The one listing editor (docs/product.md sections 10 and 12): the owner's update screen and the
 * administrator's listing editor render this form, posting the same fields to their own action.
 */
export function ListingEditor({ data, header, locationNote, locationFields, showHistory = true }: ListingEditorProps) {
  const loaderData = data;
  const { values, sizeRows, pending, revisions } = loaderData;
  const form = useFormState();
  // After a refused save the page shows what was typed (without JavaScript too), else the listing.
  const echoed = Object.keys(form.values).length > 0;
  const text = (name: keyof typeof values & string) => (echoed ? (form.value(name) ?? "") : String(values[name]));
  const checked = (name: string, initial: boolean) => (echoed ? form.value(name) === "on" : initial);
  const amenityOn = (flag: string) =>
    echoed ? form.valuesOf("amenities").includes(flag) : values.amenities.includes(flag as never);

  return (
    <>
      {header}

      {pending && (
        <div role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="flex items-center gap-2 font-medium">
            <Clock className="size-4" aria-hidden="true" /> Pending review
          </p>
          <p className="mt-1">
            Sent {formatDateTime(pending.submittedAt)} UTC. Until an administrator approves it, the public page shows
            the current values.
          </p>
          <ul className="mt-2 list-disc pl-5">
            {pending.changes.map((c) => (
              <li key={c.field}>
                {fieldLabel(c.field)}: <span className="font-medium">{c.value || "(empty)"}</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      <Form method="post" className="mt-6 space-y-6" noValidate>
        <input type="hidden" name="version" value={loaderData.version} />
        <FormError message={form.formError} />
        {Object.keys(form.fieldErrors).length > 0 && !form.formError && (
          <FormError message="Some fields need a change: see the messages below." />
        )}

        <Section title="Name and location" description={locationNote}>
          <Field label="Name" name="name" error={form.error("name")}>
            {(c) => <Input {...c} defaultValue={text("name")} maxLength={LISTING_LIMITS.name} required />}
          </Field>
          <Field label="Address" name="address" error={form.error("address")}>
            {(c) => <Input {...c} defaultValue={text("address")} maxLength={LISTING_LIMITS.address} />}
          </Field>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field label="Latitude" name="latitude" id={LATITUDE_INPUT} error={form.error("latitude")}>
              {(c) => <Input {...c} inputMode="decimal" defaultValue={text("latitude")} />}
            </Field>
            <Field label="Longitude" name="longitude" id={LONGITUDE_INPUT} error={form.error("longitude")}>
              {(c) => <Input {...c} inputMode="decimal" defaultValue={text("longitude")} />}
            </Field>
          </div>
          {/* Owners and administrators both drag the pin rather than type coordinates (docs/product.md section 10). */}
          <PinPicker
            latInput={LATITUDE_INPUT}
            lngInput={LONGITUDE_INPUT}
            tileUrl={loaderData.map.tileUrl}
            attribution={loaderData.map.attribution}
          />
          {locationFields}
        </Section>

        <Section title="About the facility">
          <Field
            label="Description"
            name="description"
            hint={`Plain text; leave an empty line between paragraphs. At most ${formatNumber(LISTING_LIMITS.description)} characters.`}
            error={form.error("description")}
          >
            {(c) => (
              <Textarea {...c} rows={6} defaultValue={text("description")} maxLength={LISTING_LIMITS.description} />
            )}
          </Field>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field label="Phone" name="phone" hint="A US number with area code." error={form.error("phone")}>
              {(c) => <Input {...c} type="tel" autoComplete="tel" defaultValue={text("phone")} />}
            </Field>
            <Field
              label="Website"
              name="website"
              hint="Starting with https:// or http://."
              error={form.error("website")}
            >
              {(c) => <Input {...c} type="url" inputMode="url" defaultValue={text("website")} />}
            </Field>
          </div>
        </Section>

        <HoursSection key={loaderData.version} data={loaderData} form={form} echoed={echoed} />

        <Section title="Amenities">
          <div className="grid gap-6 sm:grid-cols-2">
            {AMENITY_GROUPS.map((group) => (
              <fieldset key={group.title}>
                <legend className="text-sm font-semibold text-slate-800">{group.title}</legend>
                <div className="mt-2 space-y-2">
                  {group.flags.map((flag) => (
                    <Checkbox
                      key={flag}
                      name="amenities"
                      value={flag}
                      defaultChecked={amenityOn(flag)}
                      label={AMENITY_LABELS[flag]}
                    />
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
          <div className="mt-6 grid gap-x-4 sm:grid-cols-3">
            <Field label="Parking" name="parkingOptions" error={form.error("parkingOptions")}>
              {(c) => <Textarea {...c} rows={2} defaultValue={text("parkingOptions")} />}
            </Field>
            <Field label="Payment" name="paymentOptions" error={form.error("paymentOptions")}>
              {(c) => <Textarea {...c} rows={2} defaultValue={text("paymentOptions")} />}
            </Field>
            <Field label="Accessibility" name="accessibilityOptions" error={form.error("accessibilityOptions")}>
              {(c) => <Textarea {...c} rows={2} defaultValue={text("accessibilityOptions")} />}
            </Field>
          </div>
          <Field
            label="Covered height clearance (feet)"
            name="coveredClearanceFeet"
            hint="The lowest clearance of your covered spaces, so tall RVs know they fit."
            error={form.error("coveredClearanceFeet")}
            className="max-w-xs"
          >
            {(c) => <Input {...c} inputMode="decimal" defaultValue={text("coveredClearanceFeet")} />}
          </Field>
        </Section>

        <Section
          title="Sizes and prices"
          description="Tick the sizes you offer. Price and availability are optional; the public page shows the date you last confirmed them."
        >
          {/* A table from 640 px; below, each size is a small card with its own captions (no sideways scrolling). */}
          <div>
            <table className="block w-full text-left text-sm sm:table">
              <thead className="hidden text-slate-600 sm:table-header-group">
                <tr>
                  <th scope="col" className="py-2 font-medium">
                    Size (feet)
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Monthly price ($)
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Availability
                  </th>
                </tr>
              </thead>
              <tbody className="block sm:table-row-group">
                {sizeRows.map((row, i) => {
                  const name = (field: string) => `sizes[${i}].${field}`;
                  const value = (field: string, initial: string) =>
                    echoed ? (form.value(name(field)) ?? "") : initial;
                  const errors = [
                    ...(form.error(name("width")) ?? []),
                    ...(form.error(name("length")) ?? []),
                    ...(form.error(name("price")) ?? []),
                    ...(form.error(name("availability")) ?? []),
                  ];
                  const label = row.custom
                    ? row.width
                      ? `${row.width}' x ${row.length}'`
                      : "another size"
                    : `${row.width}' x ${row.length}'`;
                  return (
                    <tr
                      key={row.key}
                      className="grid grid-cols-2 gap-x-3 gap-y-1 border-t border-slate-100 py-2 align-top sm:table-row sm:py-0"
                    >
                      <td className="col-span-2 sm:py-2 sm:pr-3">
                        {row.custom ? (
                          <span className="flex items-center gap-1">
                            <input type="hidden" name={name("offered")} value="on" />
                            <Input
                              name={name("width")}
                              inputMode="numeric"
                              defaultValue={value("width", row.width ? String(row.width) : "")}
                              aria-label={`Width of ${label}`}
                              placeholder="W"
                              className="w-16"
                            />
                            x
                            <Input
                              name={name("length")}
                              inputMode="numeric"
                              defaultValue={value("length", row.length ? String(row.length) : "")}
                              aria-label={`Length of ${label}`}
                              placeholder="L"
                              className="w-16"
                            />
                          </span>
                        ) : (
                          <>
                            <input type="hidden" name={name("width")} value={row.width ?? ""} />
                            <input type="hidden" name={name("length")} value={row.length ?? ""} />
                            <Checkbox
                              name={name("offered")}
                              defaultChecked={checked(name("offered"), row.offered)}
                              label={label}
                            />
                          </>
                        )}
                        {errors.length > 0 && (
                          <p className="mt-1 text-red-700" role="alert">
                            {errors.join(" ")}
                          </p>
                        )}
                      </td>
                      <td className="sm:py-2 sm:pr-3">
                        <span className="block text-xs text-slate-600 sm:hidden" aria-hidden="true">
                          Monthly price ($)
                        </span>
                        <Input
                          name={name("price")}
                          inputMode="numeric"
                          defaultValue={value("price", row.price === null ? "" : String(row.price))}
                          aria-label={`Monthly price of ${label}`}
                          className="w-full sm:w-28"
                        />
                      </td>
                      <td className="sm:py-2">
                        <span className="block text-xs text-slate-600 sm:hidden" aria-hidden="true">
                          Availability
                        </span>
                        <Select
                          name={name("availability")}
                          defaultValue={value("availability", row.availability ?? "")}
                          aria-label={`Availability of ${label}`}
                        >
                          <option value="">Not said</option>
                          {AVAILABILITIES.map((a) => (
                            <option key={a} value={a}>
                              {AVAILABILITY_LABELS[a]}
                            </option>
                          ))}
                        </Select>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Checkbox
            name="confirmPrices"
            className="mt-4"
            label={`These prices and availability are current${
              loaderData.pricesConfirmedAt
                ? ` (last confirmed ${formatDateTime(loaderData.pricesConfirmedAt)} UTC)`
                : ""
            }`}
          />
        </Section>

        <div className="flex justify-end">
          <SubmitButton>Save changes</SubmitButton>
        </div>
      </Form>

      {showHistory && (
        <section aria-labelledby="history-heading" className="mt-10">
          <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
            History
          </h2>
          {revisions.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No changes yet.</p>
          ) : (
            <ol className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
              {revisions.map((r) => (
                <li key={r.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-3 text-sm">
                  <Badge tone={r.kind === "rejected" ? "danger" : r.kind === "pending" ? "warning" : "neutral"}>
                    {REVISION_KIND_LABELS[r.kind] ?? r.kind}
                  </Badge>
                  <span className="text-slate-800">{r.fields.map(fieldLabel).join(", ")}</span>
                  <span className="text-slate-600">
                    by {r.actorEmail ?? "the system"}, {formatDateTime(r.createdAt)} UTC
                  </span>
                  {r.reason && <span className="w-full text-slate-600">Reason: {r.reason}</span>}
                  <ChangeList className="w-full" lines={r.lines} />
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </>
  );
}

/**
 * The office hours and the gate access hours (docs/product.md section 10). The gate's week shows
 * only while "Different hours for the gate" is chosen: a CSS rule on the choice, so it works
 * without JavaScript too.
 */
function HoursSection({ data, form, echoed }: { data: ListingEditData; form: FormState; echoed: boolean }) {
  const [office, setOffice] = useWeekRows("hours", data.hours, form, echoed);
  const [gate, setGate] = useWeekRows("gateHours", data.gateHours, form, echoed);
  const gateMode = echoed ? (form.value("gateMode") ?? "same") : data.gateMode;
  const gateError = form.error("gateMode");
  return (
    <>
      <Section title="Office hours" description="For each day: closed, open 24 hours, or one or two time ranges.">
        <HoursWeek name="hours" days={data.hours} form={form} rows={office} setRows={setOffice} />
        <p className="mt-3 text-sm text-slate-600">
          The second range is optional (for a lunch break). Times are ignored on closed and 24-hour days.
        </p>
      </Section>

      <Section
        title="Gate access hours"
        description="When customers can reach their RV through the gate, if that differs from the office hours."
      >
        <div className="group">
          <fieldset aria-describedby={gateError ? "gate-mode-error" : undefined}>
            <legend className="sr-only">Gate access hours</legend>
            <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
              <Radio
                name="gateMode"
                value="same"
                defaultChecked={gateMode !== "own"}
                label="Same as the office hours"
              />
              <Radio
                name="gateMode"
                value="own"
                defaultChecked={gateMode === "own"}
                label="Different hours for the gate"
              />
            </div>
            {gateError && (
              <p id="gate-mode-error" className="mt-1 text-sm text-red-700" role="alert">
                {gateError.join(" ")}
              </p>
            )}
          </fieldset>
          <div className="mt-4 group-has-[[data-gate-same]:checked]:hidden">
            <HoursWeek
              name="gateHours"
              days={data.gateHours}
              form={form}
              rows={gate}
              setRows={setGate}
              qualifier="gate"
              officeRows={office}
            />
          </div>
        </div>
      </Section>
    </>
  );
}

function Radio({
  name,
  value,
  label,
  defaultChecked,
}: {
  name: string;
  value: string;
  label: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800 sm:min-h-0">
      <input
        type="radio"
        name={name}
        value={value}
        defaultChecked={defaultChecked}
        data-gate-same={value === "same" ? "" : undefined}
        className="size-4 shrink-0 accent-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      />
      {label}
    </label>
  );
}
