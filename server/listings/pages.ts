import { SIZE_OPTIONS_LIST } from "../../domain/sizes";
import { LISTING_SAVED_PENDING_TEXT, LISTING_SAVED_TEXT } from "../../domain/listings";
import { requireListingOwner } from "../auth/guards";
import type { SignedInViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { AppError } from "../errors";
import type { FormSubmission } from "../../domain/forms";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { publicMapConfig } from "../http/public-config";
import { STATES } from "../geo/states";
import { readForm } from "../http/form";
import { formRefusal } from "../http/refusal";
import { updateListing } from "./edit";
import type { ListingChanges } from "./fields";
import { changeLines } from "./describe";
import { adminListingFieldsSchema, daysOf, listingFormSchema, sizesOf, type ListingFormInput } from "./form";
import { formatDayLine, parseOpeningHours, timeInputValue } from "./hours";
import { listingForEditing, listingsOf } from "./queries";
import { actorOf } from "../auth/actor";
import { sizeKey } from "../../domain/availability";

/**
 * The loader and action bodies of the owner's listing screens (docs/product.md section 10), so the
 * route modules stay thin. Each takes the viewer the console's guard put in context.
 */

/** Blank rows offered for sizes outside the 14 standard ones (more appear after each save). */
const BLANK_CUSTOM_ROWS = 2;

/** /owner/locations */
export async function myListingsPage(viewer: SignedInViewer) {
  return { listings: await listingsOf(getDatabase(), viewer.userId) };
}

export const editPath = (locationId: string) => `/owner/locations/${encodeURIComponent(locationId)}/update`;

/** A week of day lines as the editor's seven rows (mode, the line it cannot read, four times). */
function editorWeek(lines: readonly string[]) {
  return parseOpeningHours(lines).map((d) => ({
    day: d.day,
    mode: d.mode,
    line: d.line ?? null,
    times: [d.ranges[0]?.open, d.ranges[0]?.close, d.ranges[1]?.open, d.ranges[1]?.close].map((m) =>
      m === undefined ? "" : timeInputValue(m),
    ),
  }));
}

/** The form's week as day lines; a day the editor could not read keeps the line it had in `was`. */
function linesOf(week: NonNullable<ListingFormInput["gateHours"]>, was: readonly string[]): string[] {
  const before = parseOpeningHours(was);
  return daysOf(week).map((day, i) =>
    formatDayLine(day.mode === "keep" ? { ...day, line: before[i]!.line ?? `${day.day}: Closed` } : day),
  );
}

/** /owner/locations/{id}/update: the form's starting values, computed here so the page stays small. */
export async function listingEditPage(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  { includeDeleted = false }: { includeDeleted?: boolean } = {},
) {
  // The administrator's editor opens a deleted listing too (to restore it); the owner's does not.
  if (!includeDeleted) await requireListingOwner(request, locationId, viewer);
  const listing = await listingForEditing(getDatabase(), locationId);
  const { fields, pending } = listing;
  // The form shows the waiting key values, so saving it again keeps them waiting.
  const keyValue = (field: "name" | "address" | "latitude" | "longitude") =>
    pending && field in pending.changes ? pending.changes[field] : fields[field];
  const standard = new Set<string>(SIZE_OPTIONS_LIST);
  const offered = new Map(fields.sizes.map((s) => [sizeKey(s), s]));
  const sizeRows = [
    ...SIZE_OPTIONS_LIST.map((key) => {
      const [width, length] = key.split("x").map(Number) as [number, number];
      return { key, custom: false, width, length, size: offered.get(key) ?? null };
    }),
    ...fields.sizes
      .filter((s) => !standard.has(sizeKey(s)))
      .map((s) => ({ key: sizeKey(s), custom: true, width: s.width, length: s.length, size: s })),
    ...Array.from({ length: BLANK_CUSTOM_ROWS }, (_, i) => ({
      key: `blank-${i}`,
      custom: true,
      width: null,
      length: null,
      size: null,
    })),
  ].map((row) => ({
    key: row.key,
    custom: row.custom,
    offered: row.size !== null,
    width: row.width,
    length: row.length,
    price: row.size?.monthlyPrice ?? null,
    availability: row.size?.availability ?? null,
  }));
  return {
    placeId: listing.placeId,
    slug: listing.slug,
    photoCount: listing.photoCount,
    // The pin to drag (owners and administrators alike): the tile server the public maps use.
    map: publicMapConfig(),
    name: fields.name,
    version: listing.version,
    values: {
      name: String(keyValue("name") ?? ""),
      address: String(keyValue("address") ?? ""),
      latitude: keyValue("latitude") === null ? "" : String(keyValue("latitude")),
      longitude: keyValue("longitude") === null ? "" : String(keyValue("longitude")),
      description: fields.description ?? "",
      phone: fields.phone ?? "",
      website: fields.website ?? "",
      parkingOptions: fields.parkingOptions ?? "",
      paymentOptions: fields.paymentOptions ?? "",
      accessibilityOptions: fields.accessibilityOptions ?? "",
      coveredClearanceFeet: fields.coveredClearanceFeet === null ? "" : String(fields.coveredClearanceFeet),
      amenities: fields.amenities,
    },
    hours: editorWeek(fields.openingHours),
    // No gate hours of their own: the gate's editor starts from the office hours.
    gateMode: fields.gateHours.length > 0 ? ("own" as const) : ("same" as const),
    gateHours: editorWeek(fields.gateHours.length > 0 ? fields.gateHours : fields.openingHours),
    sizeRows,
    pricesConfirmedAt: listing.pricesConfirmedAt?.toISOString() ?? null,
    pending: pending
      ? {
          submittedAt: pending.submittedAt.toISOString(),
          submittedByEmail: pending.submittedByEmail,
          changes: Object.entries(pending.changes).map(([field, value]) => ({
            field,
            value: value === null || value === undefined ? "" : String(value),
          })),
        }
      : null,
    // The history in words, before → after, so the owner reads what changed (and what was refused).
    revisions: listing.revisions.map(({ before, after, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      lines: changeLines(r.fields, before, after),
    })),
  };
}

/** The listing's new values from a submitted editor form (a day the editor could not read keeps its line). */
function changesFrom(
  input: ListingFormInput,
  current: { openingHours: string[]; gateHours: string[] },
): ListingChanges {
  // The gate's editor starts from the office hours when the gate has none: its unreadable lines are those.
  const gateWas = current.gateHours.length > 0 ? current.gateHours : current.openingHours;
  return {
    name: input.name,
    address: input.address,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    description: input.description,
    phone: input.phone,
    website: input.website,
    openingHours: linesOf(input.hours, current.openingHours),
    gateHours: input.gateMode === "own" && input.gateHours ? linesOf(input.gateHours, gateWas) : [],
    amenities: input.amenities,
    parkingOptions: input.parkingOptions,
    paymentOptions: input.paymentOptions,
    accessibilityOptions: input.accessibilityOptions,
    sizes: sizesOf(input),
    coveredClearanceFeet: input.coveredClearanceFeet,
  };
}

/**
 * Saves an editor form for `viewer` (an owner, or an administrator whose key fields publish at
 * once); `extra` adds fields only the administrator's form has. A save over another one answers
 * 409 with the form kept, so nothing typed is lost.
 */
async function saveListingForm(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
  next: (saved: { pending: readonly string[] }) => Promise<Response>,
  extra?: (form: FormData) => FormSubmission<Partial<ListingChanges>>,
) {
  const form = await readForm(request);
  const result = parseFormSubmission(listingFormSchema, form);
  const more = extra?.(form);
  if (!result.ok || (more && !more.ok)) {
    const failed = !result.ok ? result : more!;
    const fieldErrors = {
      ...(result.ok ? {} : result.fieldErrors),
      ...(more && !more.ok ? more.fieldErrors : {}),
    };
    return formFailure(failed, 400, { fieldErrors });
  }
  const db = getDatabase();
  const current = await listingForEditing(db, locationId);
  const changes = { ...changesFrom(result.data, current.fields), ...(more?.ok ? more.data : {}) };
  let saved;
  try {
    saved = await updateListing(db, {
      actor: actorOf(viewer),
      locationId,
      changes,
      expectedVersion: result.data.version,
      confirmPrices: result.data.confirmPrices,
      requestId,
    });
  } catch (error) {
    return formRefusal(result, error, ["conflict"]);
  }
  return next(saved);
}

export async function updateListingAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  await requireListingOwner(request, locationId, viewer);
  return saveListingForm(request, viewer, locationId, requestId, (saved) =>
    redirectWithFlash(editPath(locationId), {
      kind: "success",
      text: saved.pending.length > 0 ? LISTING_SAVED_PENDING_TEXT : LISTING_SAVED_TEXT,
    }),
  );
}

export const adminEditPath = (locationId: string) => `/admin/manage/${encodeURIComponent(locationId)}/edit`;

/** /admin/manage/{id}/edit: the owner's editor's values, the administrator's own fields and the map. */
export async function adminListingEditPage(request: Request, viewer: SignedInViewer, locationId: string) {
  const page = await listingEditPage(request, viewer, locationId, { includeDeleted: true });
  const { fields } = await listingForEditing(getDatabase(), locationId);
  return {
    ...page,
    admin: { city: fields.city ?? "", state: fields.state ?? "", businessStatus: fields.businessStatus ?? "" },
    states: STATES.map((s) => ({ code: s.code, name: s.name })),
  };
}

/** POST /admin/manage/{id}/edit: every field publishes at once (the administrator is the reviewer). */
export async function adminUpdateListingAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  if (!viewer.isAdmin) throw new AppError("forbidden", 403, "Only administrators can use this editor.");
  return saveListingForm(
    request,
    viewer,
    locationId,
    requestId,
    () => redirectWithFlash(adminEditPath(locationId), { kind: "success", text: LISTING_SAVED_TEXT }),
    (form) => {
      const parsed = parseFormSubmission(adminListingFieldsSchema, form);
      return parsed.ok
        ? {
            ...parsed,
            data: { city: parsed.data.city, state: parsed.data.state, businessStatus: parsed.data.businessStatus },
          }
        : parsed;
    },
  );
}
