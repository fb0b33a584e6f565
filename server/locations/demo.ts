import ngeohash from "ngeohash";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import { placeImageUrl } from "../../domain/images";
import { SIZE_OPTIONS_LIST, sizeOptionDimensions } from "../../domain/sizes";
import { buildLocationSlug } from "../../domain/slug";
import type { SizeOffer } from "../../domain/listings";
import type { Tier } from "../../domain/tiers";
import type { NewLocationRow } from "../db/schema";
import type { Place } from "../geo";
import { FLAG_COLUMN } from "./amenities";
import { createRandom, weightedSampler, type Random } from "./random";
import type { Dimension, Review } from "./types";

/**
 * The demo catalogue: RV storage facilities placed around real US towns, weighted by population,
 * always inside the town's state, and identical for the same seed on every machine. The same
 * factory makes test data, so tests and the demo exercise the same shapes.
 */
export const DEMO_SEED = 20261122;
export const DEMO_ID_PREFIX = "demo_";

export interface DemoGeography {
  /** Populated places to build around. */
  places(): readonly Place[];
  /** Two-letter code of the state containing a point, if any. */
  stateAt(lat: number, lng: number): string | undefined;
  /** The nearest ZIP code to a point in a state, for realistic addresses. */
  nearestZip?(lat: number, lng: number, state: string): { zip?: string } | undefined;
}

export const SIZE_OPTIONS: readonly Dimension[] = SIZE_OPTIONS_LIST.map(sizeOptionDimensions);

const RV_SIZES: readonly Dimension[] = [
  { width: 12, length: 35 },
  { width: 12, length: 40 },
  { width: 12, length: 45 },
  { width: 14, length: 50 },
];

const AREA_CODES: Record<string, readonly string[]> = {
  AL: ["205", "256", "334"],
  AK: ["907"],
  AZ: ["480", "520", "602", "928"],
  AR: ["479", "501", "870"],
  CA: ["209", "530", "559", "619", "661", "707", "760", "909", "916", "951"],
  CO: ["303", "719", "970"],
  CT: ["203", "860"],
  DE: ["302"],
  DC: ["202"],
  FL: ["239", "321", "352", "407", "727", "813", "850", "904", "941"],
  GA: ["229", "478", "706", "770", "912"],
  HI: ["808"],
  ID: ["208"],
  IL: ["217", "309", "618", "815"],
  IN: ["219", "260", "317", "574", "812"],
  IA: ["319", "515", "563", "712"],
  KS: ["316", "620", "785"],
  KY: ["270", "502", "606", "859"],
  LA: ["225", "318", "337", "504"],
  ME: ["207"],
  MD: ["240", "301", "410"],
  MA: ["413", "508", "774", "978"],
  MI: ["231", "269", "517", "616", "810", "989"],
  MN: ["218", "320", "507", "763"],
  MS: ["228", "601", "662"],
  MO: ["314", "417", "573", "636", "816"],
  MT: ["406"],
  NE: ["308", "402"],
  NV: ["702", "775"],
  NH: ["603"],
  NJ: ["609", "732", "856", "908"],
  NM: ["505", "575"],
  NY: ["315", "518", "585", "607", "716", "845"],
  NC: ["252", "336", "704", "828", "910", "919"],
  ND: ["701"],
  OH: ["216", "330", "419", "513", "614", "740", "937"],
  OK: ["405", "580", "918"],
  OR: ["503", "541", "971"],
  PA: ["215", "412", "570", "610", "717", "814"],
  RI: ["401"],
  SC: ["803", "843", "864"],
  SD: ["605"],
  TN: ["423", "615", "731", "865", "901", "931"],
  TX: ["210", "254", "325", "361", "409", "432", "512", "806", "830", "903", "915", "936", "940", "956", "979"],
  UT: ["385", "435", "801"],
  VT: ["802"],
  VA: ["276", "434", "540", "703", "757", "804"],
  WA: ["253", "360", "425", "509"],
  WV: ["304"],
  WI: ["262", "414", "608", "715", "920"],
  WY: ["307"],
};

const SURNAMES = [
  "Miller",
  "Johnson",
  "Garcia",
  "Anderson",
  "Thompson",
  "Walker",
  "Harris",
  "Carter",
  "Bennett",
  "Hughes",
  "Foster",
  "Sullivan",
  "Reyes",
  "Coleman",
  "Parker",
  "Brooks",
  "Hayes",
  "Jensen",
  "Larson",
  "Whitaker",
];
const FIRST_NAMES = [
  "Mike",
  "Sarah",
  "Dave",
  "Linda",
  "Carlos",
  "Jenny",
  "Tom",
  "Rachel",
  "Bob",
  "Karen",
  "Luis",
  "Amy",
  "Greg",
  "Nina",
  "Steve",
  "Maria",
  "Paul",
  "Donna",
  "Kevin",
  "Hannah",
  "Ray",
  "Tina",
  "Jake",
  "Olivia",
];
const LANDMARKS = [
  "Cedar Ridge",
  "Eagle Point",
  "Pine Valley",
  "Red Rock",
  "Silver Creek",
  "Prairie Wind",
  "Lakeside",
  "Canyon View",
  "Oak Hollow",
  "Mesa",
  "Blue Sky",
  "Timberline",
  "Riverbend",
  "Sunset",
  "Highland",
  "Frontier",
  "Big Sky",
  "Stonegate",
  "Willow Creek",
  "Heritage",
];
const STREETS = [
  "Main",
  "Oak",
  "Industrial",
  "Commerce",
  "Airport",
  "Ranch",
  "Mill",
  "Depot",
  "Park",
  "Frontage",
  "Old Mill",
  "Market",
  "Valley View",
  "Railroad",
  "Enterprise",
  "Farm",
  "Cedar",
  "Lake",
  "Hillcrest",
  "Sunset",
];
const STREET_SUFFIXES = ["Rd", "St", "Ave", "Blvd", "Dr", "Way", "Pkwy", "Ln"];
const NUMBERED_ROADS = ["Highway", "State Route", "County Road", "Farm Road"];

function streetName(r: Random): string {
  return r.chance(0.2) ? `${r.pick(NUMBERED_ROADS)} ${r.int(1, 399)}` : `${r.pick(STREETS)} ${r.pick(STREET_SUFFIXES)}`;
}

/** "Miller's", but "Brooks'". */
function possessive(name: string): string {
  return name.endsWith("s") ? `${name}'` : `${name}'s`;
}

const NAME_PATTERNS: readonly ((r: Random, town: string) => string)[] = [
  (_, town) => `${town} RV Storage`,
  (_, town) => `${town} RV & Boat Storage`,
  (r) => `${r.pick(LANDMARKS)} RV Storage`,
  (r) => `${r.pick(LANDMARKS)} RV & Boat Storage`,
  (r) => `${possessive(r.pick(SURNAMES))} RV Storage`,
  (r) => `${r.pick(LANDMARKS)} Self Storage & RV Parking`,
  (_, town) => `Secure RV Storage of ${town}`,
  (r) =>
    `${r.pick(["A-1", "AAA", "Premier", "Guardian", "Safe Harbor", "Fort Knox", "Allstar", "Patriot"])} RV Storage`,
  (r, town) => `${town} ${r.pick(["Covered", "Indoor", "Outdoor"])} RV Storage`,
  (r) => `${r.pick(LANDMARKS)} ${r.pick(["Storage Center", "Storage Depot", "Vehicle Storage"])}`,
];

const AMENITY_ODDS: Record<AmenityFlag, number> = {
  has_perimeter_fencing: 0.85,
  has_surveillance_footage: 0.75,
  has_unit_alarms: 0.2,
  has_personalized_access_code: 0.65,
  anytime_access: 0.45,
  has_on_site_staff: 0.45,
  has_climate_controlled: 0.2,
  has_covered_parking: 0.5,
  has_uncovered_parking: 0.8,
  has_enclosed_units: 0.3,
  dump_station: 0.3,
  potable_water: 0.3,
  air_station: 0.25,
  propane_station: 0.2,
  rv_washbay: 0.2,
  pull_thru: 0.4,
  available_outlet: 0.3,
  available_30_or_50_amp_outlet: 0.2,
};

const HOURS_TEMPLATES: readonly (readonly string[])[] = [
  [
    "Monday: 8:00 AM – 6:00 PM",
    "Tuesday: 8:00 AM – 6:00 PM",
    "Wednesday: 8:00 AM – 6:00 PM",
    "Thursday: 8:00 AM – 6:00 PM",
    "Friday: 8:00 AM – 6:00 PM",
    "Saturday: 9:00 AM – 4:00 PM",
    "Sunday: Closed",
  ],
  [
    "Monday: Open 24 hours",
    "Tuesday: Open 24 hours",
    "Wednesday: Open 24 hours",
    "Thursday: Open 24 hours",
    "Friday: Open 24 hours",
    "Saturday: Open 24 hours",
    "Sunday: Open 24 hours",
  ],
  [
    "Monday: 9:30 AM – 5:30 PM",
    "Tuesday: 9:30 AM – 5:30 PM",
    "Wednesday: 9:30 AM – 5:30 PM",
    "Thursday: 9:30 AM – 5:30 PM",
    "Friday: 9:30 AM – 5:30 PM",
    "Saturday: 9:00 AM – 1:00 PM",
    "Sunday: Closed",
  ],
  [
    "Monday: 6:00 AM – 10:00 PM",
    "Tuesday: 6:00 AM – 10:00 PM",
    "Wednesday: 6:00 AM – 10:00 PM",
    "Thursday: 6:00 AM – 10:00 PM",
    "Friday: 6:00 AM – 10:00 PM",
    "Saturday: 6:00 AM – 10:00 PM",
    "Sunday: 6:00 AM – 10:00 PM",
  ],
  [
    "Monday: 8:30 AM – 5:00 PM",
    "Tuesday: 8:30 AM – 5:00 PM",
    "Wednesday: 8:30 AM – 5:00 PM",
    "Thursday: 8:30 AM – 5:00 PM",
    "Friday: 8:30 AM – 5:00 PM",
    "Saturday: Closed",
    "Sunday: Closed",
  ],
];

const REVIEW_TEXTS: Record<number, readonly string[]> = {
  5: [
    "Clean, well lit and easy to get in and out with a 38 ft fifth wheel.",
    "Staff were friendly and the gate code works every time. Highly recommend.",
    "Great covered spots, our motorhome stays out of the sun all summer.",
    "Secure lot with cameras everywhere. Peace of mind while we're away.",
    "Wide lanes and pull-through spaces make parking a breeze.",
  ],
  4: [
    "Good value for the area. The dump station is a nice bonus.",
    "Solid facility, gravel could be graded more often.",
    "Easy access and fair prices. Office hours are a bit short.",
    "Nice people, spaces are a little tight for big rigs.",
  ],
  3: [
    "It's okay. Fenced and gated but the lighting could be better.",
    "Average storage lot, does the job.",
    "Had to wait a few weeks for a covered spot.",
  ],
  2: ["Gate was broken twice this month.", "Prices went up with little notice."],
  1: ["Could not reach anyone in the office for days."],
};
const RELATIVE_TIMES = [
  "a week ago",
  "2 weeks ago",
  "3 weeks ago",
  "a month ago",
  "2 months ago",
  "3 months ago",
  "5 months ago",
  "8 months ago",
  "a year ago",
  "2 years ago",
];

/**
 * Demo photos are drawn scenes (demo-photo.ts) that the image route renders through the real
 * photo pipeline on first request; the stored URL is the largest JPEG, like an ingested photo's.
 */
export function demoPhotoUrl(placeId: string, index: number): string {
  return placeImageUrl(placeId, index, 1280, "jpg");
}

/**
 * A realistic mix: about 1 listing in 30 pays (0.5% Pro, 1% Preferred, 2% Basic). Paid tiers rank
 * first in the distance sort (docs/product.md section 9), so with a larger share a town's first
 * page would be all paid listings, far away, and the nearest on page two.
 */
export const DEMO_TIER_SHARES = { Pro: 0.005, Preferred: 0.01, Basic: 0.02 } as const;

function pickTier(r: Random): Tier {
  const x = r.next();
  if (x < DEMO_TIER_SHARES.Pro) return "Pro";
  if (x < DEMO_TIER_SHARES.Pro + DEMO_TIER_SHARES.Preferred) return "Preferred";
  if (x < DEMO_TIER_SHARES.Pro + DEMO_TIER_SHARES.Preferred + DEMO_TIER_SHARES.Basic) return "Basic";
  return "Free";
}

function pickDimensions(r: Random): Dimension[] {
  if (r.chance(0.1)) return [];
  const chosen = SIZE_OPTIONS.filter(() => r.chance(0.3));
  if (chosen.length === 0) chosen.push(r.pick(SIZE_OPTIONS));
  if (r.chance(0.6)) chosen.push(r.pick(RV_SIZES));
  return chosen;
}

/** Covered and enclosed spaces' clearances owners state, in feet (a 13.5 ft motorhome is common). */
const CLEARANCES = [11.5, 12, 12.5, 13, 13.5, 14, 14, 14.5, 15, 16] as const;

/** FNV-1a: a 32-bit seed from a place id. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * What owners give on about half of the demo listings (more on paid tiers), so the demo shows
 * prices, the price sort and filter, and clearances (docs/product.md, "My RV" and "Prices"). Drawn
 * from a random stream of the listing's own id, so the rest of the catalogue is the same with or
 * without them. A price is a rate per foot of length (higher for covered or climate-controlled
 * places) plus a little per foot of width, in $5 steps: about $35 (a 10x10 lot space) to $310 a month.
 */
export function demoOwnerFields(
  row: Pick<
    NewLocationRow,
    "placeId" | "tier" | "dimensions" | "hasCoveredParking" | "hasEnclosedUnits" | "hasClimateControlled" | "createdAt"
  >,
): Pick<NewLocationRow, "sizeOffers" | "pricesConfirmedAt" | "coveredClearanceFeet"> {
  const r = createRandom(seedOf(row.placeId) ^ DEMO_SEED);
  const dimensions = row.dimensions ?? [];
  const covered = row.hasCoveredParking === true || row.hasEnclosedUnits === true;
  const coveredClearanceFeet = covered && r.chance(0.55) ? r.pick(CLEARANCES) : null;
  const priced = dimensions.length > 0 && r.chance(row.tier === "Free" ? 0.45 : 0.8);
  if (!priced) return { sizeOffers: [], pricesConfirmedAt: null, coveredClearanceFeet };
  const perFoot = (2 + r.next() * 1.6) * (row.hasCoveredParking ? 1.35 : 1) * (row.hasClimateControlled ? 1.2 : 1);
  const sizeOffers: SizeOffer[] = dimensions.map((d) => ({
    width: d.width,
    length: d.length,
    monthlyPrice: r.chance(0.9) ? Math.round((d.length * perFoot + d.width * 1.5) / 5) * 5 : null,
    availability: r.chance(0.2) ? null : r.pick(["available", "available", "available", "waitlist", "full"] as const),
  }));
  const since = (row.createdAt ?? new Date(Date.UTC(2025, 0, 1))).getTime();
  const confirmed = Math.max(since, Date.UTC(2026, 0, 1) + Math.floor(r.next() * 300) * 86_400_000);
  return { sizeOffers, pricesConfirmedAt: new Date(confirmed), coveredClearanceFeet };
}

const DAY_MS = 86_400_000;

/**
 * When a demo listing was last updated, relative to `now` (the day it is seeded): most within the
 * last nine months, more of them recent, and about 3 in 100 genuinely stale (13 to 30 months ago),
 * so the nightly check's "Not updated for a year" finds a few, not the whole catalogue
 * (docs/product.md section 12). From the listing's own random stream, like demoOwnerFields, so the
 * rest of the catalogue stays the same; never before its creation, never after `now`.
 */
export function demoUpdatedAt(placeId: string, created: Date, now: Date): { updatedAt: Date; stale: boolean } {
  const r = createRandom(seedOf(`${placeId}:updated`) ^ DEMO_SEED);
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const stale = r.chance(0.03);
  const daysAgo = stale ? 400 + Math.floor(r.next() * 500) : 1 + Math.floor(Math.pow(r.next(), 1.6) * 270);
  const at = today - daysAgo * DAY_MS + Math.floor(r.next() * DAY_MS);
  return { updatedAt: new Date(Math.min(now.getTime(), Math.max(created.getTime(), at))), stale };
}

function pickReviews(r: Random, rating: number, total: number): Review[] {
  const n = Math.min(total, r.int(0, 5));
  const reviews: Review[] = [];
  for (let i = 0; i < n; i++) {
    const stars = Math.max(1, Math.min(5, Math.round(rating + (r.next() - 0.5) * 2)));
    reviews.push({
      author: `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES).charAt(0)}.`,
      rating: stars,
      relativeTime: RELATIVE_TIMES[Math.min(RELATIVE_TIMES.length - 1, i * 2 + r.int(0, 1))]!,
      text: r.pick(REVIEW_TEXTS[stars]!),
    });
  }
  return reviews;
}

function demoId(r: Random, index: number): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  let tail = "";
  for (let i = 0; i < 10; i++) tail += alphabet[Math.floor(r.next() * alphabet.length)];
  return `${DEMO_ID_PREFIX}${index.toString(36).padStart(4, "0")}${tail}`;
}

/** Moves a point by a distance (miles) and bearing (radians), good enough at town scale. */
function offset(lat: number, lng: number, miles: number, bearing: number): [number, number] {
  const dLat = (miles * Math.cos(bearing)) / 69;
  const dLng = (miles * Math.sin(bearing)) / (69 * Math.cos((lat * Math.PI) / 180));
  return [Math.round((lat + dLat) * 1e6) / 1e6, Math.round((lng + dLng) * 1e6) / 1e6];
}

/** One demo facility near `town`, or undefined when no point near it falls inside its state. */
export function makeDemoLocation(
  r: Random,
  index: number,
  town: Place,
  geography: Pick<DemoGeography, "stateAt" | "nearestZip">,
  now = new Date(),
): NewLocationRow | undefined {
  let point: [number, number] | undefined;
  for (let attempt = 0; attempt < 12 && !point; attempt++) {
    const candidate = offset(town.lat, town.lng, 1 + r.next() * (attempt < 6 ? 9 : 3), r.next() * 2 * Math.PI);
    if (geography.stateAt(candidate[0], candidate[1]) === town.state) point = candidate;
  }
  if (!point) return undefined;
  const [latitude, longitude] = point;
  const placeId = demoId(r, index);
  const name = r.pick(NAME_PATTERNS)(r, town.name);
  const street = `${r.int(100, 29999)} ${streetName(r)}`;
  const zip = geography.nearestZip?.(latitude, longitude, town.state)?.zip ?? "";
  const address = `${street}, ${town.name}, ${town.state}${zip ? ` ${zip}` : ""}, USA`;
  const tier = pickTier(r);
  const userRatingsTotal = r.chance(0.08) ? 0 : Math.floor(Math.pow(r.next(), 2) * 400) + 1;
  const rating = userRatingsTotal === 0 ? null : Math.round((3.2 + Math.pow(r.next(), 0.6) * 1.8) * 10) / 10;
  const areaCode = r.pick(AREA_CODES[town.state] ?? ["555"]);
  const phoneTail = String(r.int(0, 99)).padStart(2, "0");
  const imageCount = r.int(2, 5);
  const flags = Object.fromEntries(
    AMENITY_FLAGS.map((flag) => [FLAG_COLUMN[flag], r.chance(AMENITY_ODDS[flag] + (tier === "Free" ? 0 : 0.1))]),
  ) as Partial<NewLocationRow>;
  const hours = r.pick(HOURS_TEMPLATES);
  const created = new Date(Date.UTC(2020, 0, 1) + Math.floor(r.next() * 5 * 365) * 86_400_000);
  const row: NewLocationRow = {
    placeId,
    slug: buildLocationSlug({ name, area: town.name, state: town.state, placeId }),
    name,
    shortFormattedAddress: `${street}, ${town.name}`,
    address,
    city: town.name,
    state: town.state,
    latitude,
    longitude,
    geohash: ngeohash.encode(latitude, longitude, 10),
    rating,
    userRatingsTotal,
    dimensions: pickDimensions(r),
    businessStatus: "OPERATIONAL",
    description: `${name} offers ${r.pick(["secure", "affordable", "convenient", "spacious"])} storage for RVs, campers, trailers and boats near ${town.name}, ${town.stateName}. Demo listing: not a real business.`,
    googleMapsUri: null,
    imageCount,
    imageUrls: Array.from({ length: imageCount }, (_, i) => demoPhotoUrl(placeId, i + 1)),
    phoneNumber: `(${areaCode}) 555-01${phoneTail}`,
    internationalPhoneNumber: `+1 ${areaCode}-555-01${phoneTail}`,
    openingHours: [...hours],
    currentOpeningHours: [],
    parkingOptions: r.chance(0.6) ? "Free parking lot" : null,
    paymentOptions: r.chance(0.7)
      ? r.pick(["Credit cards", "Credit cards, Debit cards", "Credit cards, Checks", "Cash only"])
      : null,
    accessibilityOptions: r.chance(0.4) ? "Wheelchair accessible entrance" : null,
    priceLevel: null,
    primaryType: "storage",
    primaryTypeDisplayName: "RV storage facility",
    types: ["storage", "point_of_interest", "establishment"],
    viewport: null,
    website: r.chance(0.75) ? `https://www.example.com/rv-storage/${placeId}` : null,
    reviews: rating === null ? [] : pickReviews(r, rating, userRatingsTotal),
    photos: [],
    addressComponents: [],
    tier,
    isDemo: true,
    ...flags,
    createdAt: created,
    updatedAt: created,
  };
  const owner = demoOwnerFields(row);
  const { updatedAt: edited, stale } = demoUpdatedAt(placeId, created, now);
  // Availability was confirmed 0 to 44 days before the catalogue was made (docs/product.md section
  // 17): about two thirds of the demo listings read as fresh, the rest as "not confirmed recently".
  // Confirming it is an update of the listing; an abandoned (stale) listing confirmed nothing since
  // its last edit.
  const confirmedDay = Math.max(
    created.getTime(),
    Math.floor(now.getTime() / DAY_MS) * DAY_MS - (seedOf(placeId) % 45) * DAY_MS,
  );
  const stated = (owner.sizeOffers ?? []).some((o) => o.availability);
  const statusTime = stale ? Math.min(edited.getTime(), confirmedDay) : confirmedDay;
  const updatedAt = stated && statusTime > edited.getTime() ? new Date(statusTime) : edited;
  const statusAt = new Date(statusTime).toISOString();
  // Prices confirmed count as an update: a listing's update is never older than its prices.
  const confirmed = owner.pricesConfirmedAt;
  const pricesConfirmedAt = confirmed && confirmed > updatedAt ? updatedAt : confirmed;
  const sizeOffers = (owner.sizeOffers ?? []).map((o) => (o.availability ? { ...o, statusAt } : o));
  return { ...row, ...owner, sizeOffers, pricesConfirmedAt, updatedAt };
}

/** The whole demo catalogue: `count` facilities, reproducible from `seed`. */
export function generateDemoCatalogue(
  geography: DemoGeography,
  count: number,
  seed = DEMO_SEED,
  now = new Date(),
): NewLocationRow[] {
  const r = createRandom(seed);
  // Storage lots sit around towns of every size, so weight by population^0.6 rather than
  // linearly: New York gets the most, but small towns still get their share.
  const towns = geography.places().filter((p) => p.population >= 2000);
  const sample = weightedSampler(towns.map((t) => Math.pow(t.population, 0.6)));
  const rows: NewLocationRow[] = [];
  const slugs = new Set<string>();
  for (let attempts = 0; rows.length < count && attempts < count * 4; attempts++) {
    const row = makeDemoLocation(r, rows.length, towns[sample(r)]!, geography, now);
    if (row && !slugs.has(row.slug)) {
      slugs.add(row.slug);
      rows.push(row);
    }
  }
  return rows;
}
