/**
 * The amenity flags of docs/product.md section 3, in a stable order, with the labels the UI shows.
 * Browser-safe: the search filters, the cards and the importer all read this one list.
 */
export const AMENITY_FLAGS = [
  "has_perimeter_fencing",
  "has_surveillance_footage",
  "has_unit_alarms",
  "has_personalized_access_code",
  "anytime_access",
  "has_on_site_staff",
  "has_climate_controlled",
  "has_covered_parking",
  "has_uncovered_parking",
  "has_enclosed_units",
  "dump_station",
  "potable_water",
  "air_station",
  "propane_station",
  "rv_washbay",
  "pull_thru",
  "available_outlet",
  "available_30_or_50_amp_outlet",
] as const;

export type AmenityFlag = (typeof AMENITY_FLAGS)[number];

export const AMENITY_LABELS: Record<AmenityFlag, string> = {
  has_perimeter_fencing: "Perimeter fencing",
  has_surveillance_footage: "Video surveillance",
  has_unit_alarms: "Unit alarms",
  has_personalized_access_code: "Personal access code",
  anytime_access: "24/7 access",
  has_on_site_staff: "On-site staff",
  has_climate_controlled: "Climate controlled",
  has_covered_parking: "Covered parking",
  has_uncovered_parking: "Uncovered parking",
  has_enclosed_units: "Enclosed units",
  dump_station: "Dump station",
  potable_water: "Potable water",
  air_station: "Air station",
  propane_station: "Propane",
  rv_washbay: "RV wash bay",
  pull_thru: "Pull-through spaces",
  available_outlet: "Electric outlet",
  available_30_or_50_amp_outlet: "30/50 amp hookup",
};

/** Text amenities match a filter when they are non-empty (docs/product.md section 5). */
export const TEXT_AMENITIES = ["parking_options", "payment_options", "accessibility_options"] as const;
export type TextAmenity = (typeof TEXT_AMENITIES)[number];

/** What the Amenities modal calls the text amenities: the listing says something about each. */
export const TEXT_AMENITY_LABELS: Record<TextAmenity, string> = {
  parking_options: "Parking details",
  payment_options: "Payment options",
  accessibility_options: "Accessibility details",
};

/**
 * What the `amenity` search parameter accepts (docs/api.md "Search"): the 18 flags, then the
 * three text amenities. A listing must have every selected one.
 */
export const AMENITY_FILTERS = [...AMENITY_FLAGS, ...TEXT_AMENITIES] as const;
export type AmenityFilter = AmenityFlag | TextAmenity;

export function isAmenityFilter(value: string): value is AmenityFilter {
  return (AMENITY_FILTERS as readonly string[]).includes(value);
}

/** The label of a flag or a text amenity. */
export function amenityFilterLabel(value: AmenityFilter): string {
  return isAmenityFlag(value) ? AMENITY_LABELS[value] : TEXT_AMENITY_LABELS[value];
}

export function isAmenityFlag(value: string): value is AmenityFlag {
  return (AMENITY_FLAGS as readonly string[]).includes(value);
}

/** The amenities modal's groups, so 18 checkboxes read as four short lists. */
export const AMENITY_GROUPS: readonly { title: string; flags: readonly AmenityFlag[] }[] = [
  {
    title: "Security",
    flags: [
      "has_perimeter_fencing",
      "has_surveillance_footage",
      "has_unit_alarms",
      "has_personalized_access_code",
      "has_on_site_staff",
    ],
  },
  {
    title: "Parking and units",
    flags: [
      "has_covered_parking",
      "has_uncovered_parking",
      "has_enclosed_units",
      "has_climate_controlled",
      "pull_thru",
    ],
  },
  { title: "Access", flags: ["anytime_access"] },
  {
    title: "Services",
    flags: [
      "dump_station",
      "potable_water",
      "air_station",
      "propane_station",
      "rv_washbay",
      "available_outlet",
      "available_30_or_50_amp_outlet",
    ],
  },
];

/**
 * The search filter's groups: the flags' groups, then the text amenities, which a listing has
 * when it gives any text for them (docs/product.md section 5).
 */
export const AMENITY_FILTER_GROUPS: readonly { title: string; options: readonly AmenityFilter[] }[] = [
  ...AMENITY_GROUPS.map((g) => ({ title: g.title, options: g.flags })),
  { title: "Visiting", options: TEXT_AMENITIES },
];
