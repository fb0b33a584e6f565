/**
 * Amenities and sizes as bit masks, so that a filter is one AND per location instead of a loop
 * over flags and dimensions (docs/product.md section 5).
 */
import {
  AMENITY_FLAGS,
  TEXT_AMENITIES,
  isAmenityFlag,
  type AmenityFilter,
  type AmenityFlag,
  type TextAmenity,
} from "../../domain/amenities";
import { SIZE_OPTIONS_LIST, sizeOptionDimensions, type SizeOption } from "../../domain/sizes";
import { sizeKey } from "../../domain/availability";

/** Bit i is AMENITY_FLAGS[i]. */
export const AMENITY_BIT = Object.fromEntries(AMENITY_FLAGS.map((flag, i) => [flag, 1 << i])) as Record<
  AmenityFlag,
  number
>;

/** The text amenities sit above the 18 flags: bit set when the text is non-empty. */
export const TEXT_AMENITY_BIT = Object.fromEntries(
  TEXT_AMENITIES.map((name, i) => [name, 1 << (AMENITY_FLAGS.length + i)]),
) as Record<TextAmenity, number>;

/** Covered and uncovered parking are alternatives when both are selected (docs/product.md section 5). */
export const PARKING_BITS = AMENITY_BIT.has_covered_parking | AMENITY_BIT.has_uncovered_parking;

/** Bit k is SIZE_OPTIONS_LIST[k]. */
export const SIZE_BIT = Object.fromEntries(SIZE_OPTIONS_LIST.map((size, k) => [size, 1 << k])) as Record<
  SizeOption,
  number
>;

const SIZE_WIDTHS = SIZE_OPTIONS_LIST.map((s) => sizeOptionDimensions(s).width);
const SIZE_LENGTHS = SIZE_OPTIONS_LIST.map((s) => sizeOptionDimensions(s).length);

/** A dimension is usable when both sides are positive finite numbers; anything else is ignored. */
function usableDimension(value: unknown): value is { width: number; length: number } {
  if (typeof value !== "object" || value === null) return false;
  const { width, length } = value as { width?: unknown; length?: unknown };
  return (
    typeof width === "number" &&
    typeof length === "number" &&
    Number.isFinite(width) &&
    Number.isFinite(length) &&
    width > 0 &&
    length > 0
  );
}

/**
 * Bit k set when some dimension is at least as wide AND as long as size option k. A location
 * without a parseable dimension gets 0, so it fails every size filter (docs/product.md section 5).
 */
export function sizeMaskOf(dimensions: readonly unknown[] | null | undefined): number {
  let mask = 0;
  if (!Array.isArray(dimensions)) return mask;
  for (const d of dimensions) {
    if (!usableDimension(d)) continue;
    for (let k = 0; k < SIZE_WIDTHS.length; k++) {
      if (d.width >= SIZE_WIDTHS[k]! && d.length >= SIZE_LENGTHS[k]!) mask |= 1 << k;
    }
  }
  return mask;
}

/** The longest usable size in feet (My RV, docs/product.md), 0 when there is none. */
export function longestLengthOf(dimensions: readonly unknown[] | null | undefined): number {
  let longest = 0;
  if (!Array.isArray(dimensions)) return longest;
  for (const d of dimensions) if (usableDimension(d) && d.length > longest) longest = d.length;
  return longest;
}

/** The location's own sizes as "WxL" (what a card lists), unparseable entries left out. */
export function sizeLabelsOf(dimensions: readonly unknown[] | null | undefined): string[] {
  if (!Array.isArray(dimensions)) return [];
  return dimensions.filter(usableDimension).map((d) => sizeKey(d));
}

/** The 18 flags (true means present) and the 3 text amenities (non-empty means present). */
export function amenityMaskOf(
  flags: Partial<Record<AmenityFlag, boolean | null | undefined>>,
  texts: Partial<Record<TextAmenity, string | null | undefined>> = {},
): number {
  let mask = 0;
  for (const flag of AMENITY_FLAGS) if (flags[flag] === true) mask |= AMENITY_BIT[flag];
  // "Non-empty" means some non-space character, as the loader's SQL (`~ '\S'`) decides.
  for (const name of TEXT_AMENITIES) if (/\S/.test(texts[name] ?? "")) mask |= TEXT_AMENITY_BIT[name];
  return mask;
}

/** The flags of a mask, in AMENITY_FLAGS order (text amenity bits are not flags). */
export function amenityFlagsOfMask(mask: number): AmenityFlag[] {
  const flags: AmenityFlag[] = [];
  for (let i = 0; i < AMENITY_FLAGS.length; i++) if (mask & (1 << i)) flags.push(AMENITY_FLAGS[i]!);
  return flags;
}

/**
 * What a set of selected amenities demands of a location's mask: every bit of `all`, and, when
 * `anyOf` is non-zero, at least one bit of it. Only the parking pair selected together becomes
 * `anyOf`; one parking flag alone is required like any other flag.
 */
export interface AmenityRequirement {
  all: number;
  anyOf: number;
}

export function amenityRequirement(selected: readonly AmenityFilter[]): AmenityRequirement {
  let all = 0;
  for (const value of selected) all |= isAmenityFlag(value) ? AMENITY_BIT[value] : TEXT_AMENITY_BIT[value];
  if ((all & PARKING_BITS) === PARKING_BITS) return { all: all & ~PARKING_BITS, anyOf: PARKING_BITS };
  return { all, anyOf: 0 };
}

/** Sizes combine all-of: every selected size must match. */
export function sizeRequirement(selected: readonly SizeOption[]): number {
  let all = 0;
  for (const size of selected) all |= SIZE_BIT[size];
  return all;
}

/**
 * When a stated clearance lower than the RV drops a location (docs/product.md, "My RV"): only
 * when the visitor asks for covered parking or enclosed units. `always` when they need a covered
 * space (enclosed units, or covered parking alone); `unlessUncovered` when covered and uncovered
 * parking are both selected, which means either, so a location that also has uncovered parking
 * still serves the RV; `never` otherwise.
 */
export type ClearanceRule = "never" | "always" | "unlessUncovered";

export function clearanceRule(selected: readonly AmenityFilter[]): ClearanceRule {
  if (selected.includes("has_enclosed_units")) return "always";
  if (!selected.includes("has_covered_parking")) return "never";
  return selected.includes("has_uncovered_parking") ? "unlessUncovered" : "always";
}
