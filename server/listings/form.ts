import { z } from "zod";
import { AMENITY_FLAGS } from "../../domain/amenities";
import { normalizeUsPhone } from "../../domain/claim-form";
import {
  AVAILABILITIES,
  BUSINESS_STATUSES,
  clockLabel,
  DAY_MODES,
  GATE_MODES,
  LISTING_LIMITS as L,
  WEEK_DAYS,
  type SizeOffer,
} from "../../domain/listings";
import { normalizeWebsite } from "../../domain/web-address";
import { stateByCode } from "../geo/states";
import type { DayHours } from "./hours";

/**
 * The listing edit form (docs/product.md section 10), parsed in the action. Every refusal names
 * its field ("Phone: …", "Monday: …") so the message is clear even read away from the field.
 * Server-side only: the page takes its limits from domain/listings.ts.
 */

const optionalText = (label: string, max: number) =>
  z
    .string()
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`)
    .transform((v) => v.replace(/\r\n?/g, "\n").trim() || null)
    .optional()
    .transform((v) => v ?? null);

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (time: string) => {
  const m = TIME.exec(time)!;
  return Number(m[1]) * 60 + Number(m[2]);
};
const time = z.string().regex(TIME, "Enter a time such as 08:00.").optional();

const daySchema = z.object({
  mode: z.enum(DAY_MODES, { error: "Choose closed, open 24 hours or opening times." }).default("closed"),
  open1: time,
  close1: time,
  open2: time,
  close2: time,
});

const sizeSchema = z.object({
  offered: z.boolean().default(false),
  width: z.number().int("Enter whole feet.").min(1, "Enter a width of at least 1 foot.").max(L.maxSizeFeet).optional(),
  length: z
    .number()
    .int("Enter whole feet.")
    .min(1, "Enter a length of at least 1 foot.")
    .max(L.maxSizeFeet)
    .optional(),
  price: z
    .number({ error: "Enter the monthly price in whole dollars, e.g. 145." })
    .int("Enter the monthly price in whole dollars, e.g. 145.")
    .min(0, "A price cannot be negative.")
    .max(L.maxMonthlyPrice, `Enter a monthly price below $${L.maxMonthlyPrice.toLocaleString("en-US")}.`)
    .optional(),
  availability: z.enum(AVAILABILITIES, { error: "Choose available, few left, waitlist or full." }).optional(),
});

type DayInput = z.output<typeof daySchema>;

/**
 * The ranges of one week of the form (`hours` or `gateHours`): both times of a range, a closing
 * after its opening, two ranges that do not overlap. `prefix` tells the gate's week from the
 * office's in the message ("Gate access on Monday: …").
 */
function checkWeek(days: readonly DayInput[], key: "hours" | "gateHours", prefix: string, ctx: z.RefinementCtx) {
  days.forEach((day, i) => {
    const name = `${prefix}${WEEK_DAYS[i]!}`;
    if (day.mode !== "hours") return;
    const at = (field: string) => [key, i, field];
    if (!day.open1 || !day.close1) {
      ctx.addIssue({
        code: "custom",
        path: at("open1"),
        message: `${name}: enter the opening and closing time, or choose closed.`,
      });
      return;
    }
    const ranges: [string, string, "open1" | "open2"][] = [[day.open1, day.close1, "open1"]];
    if (day.open2 || day.close2) {
      if (!day.open2 || !day.close2) {
        ctx.addIssue({
          code: "custom",
          path: at("open2"),
          message: `${name}: enter both times of the second range, or neither.`,
        });
        return;
      }
      ranges.push([day.open2, day.close2, "open2"]);
    }
    const spans = ranges.map(([o, c, field]) => {
      const close = minutesOf(c) === 0 ? 1440 : minutesOf(c);
      return { open: minutesOf(o), close, field };
    });
    for (const span of spans)
      if (span.close <= span.open)
        ctx.addIssue({
          code: "custom",
          path: at(span.field),
          message: `${name}: the closing time must be after the opening time.`,
        });
    if (spans.length === 2) {
      const [a, b] = [...spans].sort((x, y) => x.open - y.open) as [(typeof spans)[0], (typeof spans)[0]];
      if (b.open < a.close)
        ctx.addIssue({
          code: "custom",
          path: at("open2"),
          message: `${name}: the two ranges overlap (${clockLabel(a.open)} – ${clockLabel(a.close)} and ${clockLabel(b.open)} – ${clockLabel(b.close)}).`,
        });
    }
  });
}

export const listingFormSchema = z
  .object({
    version: z.number({ error: "Reload the page: the form is missing its version." }).int().min(1),
    name: z
      .string({ error: "Name: enter the facility's name." })
      .trim()
      .min(2, "Name: enter the facility's name.")
      .max(L.name, `Name must be at most ${L.name} characters.`),
    address: optionalText("Address", L.address),
    latitude: z
      .number({ error: "Latitude: enter a number such as 30.2672." })
      .min(-90, "Latitude must be between -90 and 90.")
      .max(90, "Latitude must be between -90 and 90.")
      .optional(),
    longitude: z
      .number({ error: "Longitude: enter a number such as -97.7431." })
      .min(-180, "Longitude must be between -180 and 180.")
      .max(180, "Longitude must be between -180 and 180.")
      .optional(),
    description: optionalText("The description", L.description),
    phone: z
      .string()
      .max(L.phone, "Phone: enter a US phone number with area code, e.g. (512) 555-0142.")
      .optional()
      .transform((v, ctx) => {
        if (!v?.trim()) return null;
        const e164 = normalizeUsPhone(v);
        if (!e164) {
          ctx.addIssue({
            code: "custom",
            message: "Phone: enter a US phone number with area code, e.g. (512) 555-0142.",
          });
          return z.NEVER;
        }
        return e164;
      }),
    website: z
      .string()
      .max(L.website, `Website must be at most ${L.website} characters.`)
      .optional()
      .transform((v, ctx) => {
        if (!v?.trim()) return null;
        const url = normalizeWebsite(v);
        if (!url) {
          ctx.addIssue({
            code: "custom",
            message: "Website: enter a web address starting with http:// or https://, e.g. https://yourfacility.com.",
          });
          return z.NEVER;
        }
        return url;
      }),
    amenities: z.array(z.enum(AMENITY_FLAGS, { error: "Choose amenities from the list." })).default([]),
    parkingOptions: optionalText("Parking", L.optionText),
    paymentOptions: optionalText("Payment", L.optionText),
    accessibilityOptions: optionalText("Accessibility", L.optionText),
    coveredClearanceFeet: z
      .number({ error: "Covered height clearance: enter feet, e.g. 14." })
      .min(
        L.minClearanceFeet,
        `Covered height clearance: enter between ${L.minClearanceFeet} and ${L.maxClearanceFeet} feet.`,
      )
      .max(
        L.maxClearanceFeet,
        `Covered height clearance: enter between ${L.minClearanceFeet} and ${L.maxClearanceFeet} feet.`,
      )
      .optional()
      .transform((v) => v ?? null),
    hours: z.array(daySchema).length(7, "Reload the page: the opening hours are incomplete."),
    gateMode: z
      .enum(GATE_MODES, { error: "Gate access hours: choose the office hours or hours of their own." })
      .default("same"),
    // Sent by every form; a client that leaves them out while choosing "own" is refused below.
    gateHours: z.array(daySchema).length(7, "Reload the page: the gate access hours are incomplete.").optional(),
    sizes: z
      .array(sizeSchema)
      .max(14 + L.customSizes + 50)
      .default([]),
    confirmPrices: z.boolean().default(false),
  })
  .superRefine((form, ctx) => {
    checkWeek(form.hours, "hours", "", ctx);
    if (form.gateMode === "own") {
      if (form.gateHours) checkWeek(form.gateHours, "gateHours", "Gate access on ", ctx);
      else
        ctx.addIssue({
          code: "custom",
          path: ["gateMode"],
          message: "Reload the page: the gate access hours are incomplete.",
        });
    }
    const seen = new Set<string>();
    form.sizes.forEach((size, i) => {
      if (!size.offered) return;
      if (size.width === undefined || size.length === undefined) {
        if (size.width !== undefined || size.length !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["sizes", i, "width"],
            message: "Sizes: enter both the width and the length.",
          });
        return;
      }
      const key = `${size.width}x${size.length}`;
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: ["sizes", i, "width"], message: `Sizes: ${key} is listed twice.` });
      seen.add(key);
    });
  });

export type ListingFormInput = z.output<typeof listingFormSchema>;

/** A week of the form (the office's `hours` or the gate's) as the hours module reads it. */
export function daysOf(week: readonly DayInput[]): DayHours[] {
  return week.map((day, i) => {
    const ranges = (
      [
        [day.open1, day.close1],
        [day.open2, day.close2],
      ] as const
    )
      .filter(([o, c]) => o && c)
      .map(([o, c]) => ({ open: minutesOf(o!), close: minutesOf(c!) === 0 ? 1440 : minutesOf(c!) }))
      .sort((a, b) => a.open - b.open);
    return { day: WEEK_DAYS[i]!, mode: day.mode, ranges };
  });
}

/** The sizes offered, standard and custom, with price and availability, by area. */
export function sizesOf(input: ListingFormInput): SizeOffer[] {
  return input.sizes
    .filter((s) => s.offered && s.width !== undefined && s.length !== undefined)
    .map((s) => ({
      width: s.width!,
      length: s.length!,
      monthlyPrice: s.price ?? null,
      availability: s.availability ?? null,
    }))
    .sort((a, b) => a.width * a.length - b.width * b.length || a.width - b.width);
}

/**
 * The fields only the administrator's editor has (docs/product.md section 12). An empty state or
 * status is "not known"; a state must be a US postal code the catalogue knows.
 */
export const adminListingFieldsSchema = z.object({
  city: optionalText("City", L.city),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .max(2, "State: choose a state from the list.")
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!stateByCode(v)) {
        ctx.addIssue({ code: "custom", message: "State: choose a state from the list." });
        return z.NEVER;
      }
      return v;
    }),
  businessStatus: z
    .enum(BUSINESS_STATUSES, { error: "Business status: choose one from the list." })
    .optional()
    .transform((v) => v ?? null),
});
