import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import type { LocationRow } from "../db/schema";

/** snake_case flag name -> the Drizzle column key, derived once from the flag list. */
export const FLAG_COLUMN: Record<AmenityFlag, keyof LocationRow> = Object.fromEntries(
  AMENITY_FLAGS.map((flag) => [flag, flag.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())]),
) as Record<AmenityFlag, keyof LocationRow>;

/** The 18 amenity flags of a row, keyed by their product field names. */
export function amenityFlagsOf(row: LocationRow): Record<AmenityFlag, boolean> {
  return Object.fromEntries(AMENITY_FLAGS.map((flag) => [flag, row[FLAG_COLUMN[flag]] === true])) as Record<
    AmenityFlag,
    boolean
  >;
}
