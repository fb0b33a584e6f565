/**
 * Exports of the catalogue, read in pages by place_id so that the whole table is never in memory:
 * CSV in the import's raw shape (export -> import gives back identical rows), and GeoJSON.
 * The CSV goes through the site's one writer (server/csv.ts), which puts an apostrophe before text
 * a spreadsheet would run as a formula; the importer takes it off again (read-file.ts).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, asc, gt, isNotNull, type SQL } from "drizzle-orm";
import type { Feature, Point } from "geojson";
import type { Database } from "../db/client";
import { locations, type LocationRow } from "../db/schema";
import { amenityFlagsOf } from "./amenities";
import { formatCsvRow, type CsvCell } from "../csv";
import { formatDimensions } from "./parse";
import { RAW_FIELDS, formatLocationRecord, type RawField } from "./record";

/**
 * Columns that hold numbers: written as numbers, so a longitude of -97.5 stays a number in a
 * spreadsheet instead of getting the apostrophe that neutralises text starting with "-".
 */
const NUMBER_FIELDS: ReadonlySet<RawField> = new Set([
  "latitude",
  "longitude",
  "rating",
  "user_ratings_total",
  "image_count",
  "covered_clearance_feet",
]);

function csvCell(field: RawField, text: string): CsvCell {
  return NUMBER_FIELDS.has(field) && text !== "" ? Number(text) : text;
}

export interface ExportOptions {
  /** Rows read per query. */
  pageSize?: number;
  /** Only the rows this condition keeps (the admin catalogue's filter). */
  filter?: SQL;
}

const DEFAULT_PAGE = 1000;

/** Keyset pagination: each page starts after the last place_id of the one before. */
async function* pagesOf(db: Database, pageSize: number, filter?: SQL): AsyncGenerator<LocationRow[]> {
  let after: string | undefined;
  for (;;) {
    const page = await db
      .select()
      .from(locations)
      .where(and(filter, after === undefined ? undefined : gt(locations.placeId, after)))
      .orderBy(asc(locations.placeId))
      .limit(pageSize);
    if (page.length > 0) yield page;
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = last.placeId;
  }
}

/**
 * Streams the text into `out` (left open: it may be stdout). pipeline() minds backpressure and
 * stops at the first error of either side, such as a closed pipe.
 */
async function writeAll(out: NodeJS.WritableStream, text: AsyncIterable<string>): Promise<void> {
  await pipeline(Readable.from(text), out, { end: false });
}

/** The export as CSV text, page by page (header = the raw field names); counts rows into `counted`. */
export async function* csvText(
  db: Database,
  { pageSize = DEFAULT_PAGE, filter }: ExportOptions = {},
  counted: { rows: number } = { rows: 0 },
): AsyncGenerator<string> {
  yield formatCsvRow(RAW_FIELDS);
  for await (const page of pagesOf(db, pageSize, filter)) {
    counted.rows += page.length;
    yield page
      .map((row) => {
        const record = formatLocationRecord(row);
        return formatCsvRow(RAW_FIELDS.map((field) => csvCell(field, record[field])));
      })
      .join("");
  }
}

/** Writes every location (or those `filter` keeps) as CSV; returns the number of rows. */
export async function exportCsv(
  db: Database,
  out: NodeJS.WritableStream,
  options: ExportOptions = {},
): Promise<number> {
  const counted = { rows: 0 };
  await writeAll(out, csvText(db, options, counted));
  return counted.rows;
}

export function toFeature(row: LocationRow & { latitude: number; longitude: number }): Feature<Point> {
  return {
    type: "Feature",
    geometry: { type: "Point", coordinates: [row.longitude, row.latitude] },
    properties: {
      place_id: row.placeId,
      slug: row.slug,
      name: row.name,
      address: row.address,
      city: row.city,
      state: row.state,
      tier: row.tier,
      rating: row.rating,
      user_ratings_total: row.userRatingsTotal,
      dimensions: row.dimensions.length > 0 ? formatDimensions(row.dimensions) : null,
      phone_number: row.phoneNumber,
      website: row.website,
      ...amenityFlagsOf(row),
      parking_options: row.parkingOptions,
      payment_options: row.paymentOptions,
      accessibility_options: row.accessibilityOptions,
    },
  };
}

/** A FeatureCollection of the locations that have coordinates, as text page by page. */
export async function* geoJsonText(
  db: Database,
  { pageSize = DEFAULT_PAGE, filter }: ExportOptions = {},
  counted: { rows: number } = { rows: 0 },
): AsyncGenerator<string> {
  const located = and(filter, isNotNull(locations.latitude), isNotNull(locations.longitude));
  yield '{"type":"FeatureCollection","features":[';
  for await (const page of pagesOf(db, pageSize, located)) {
    const features = page.flatMap(({ latitude, longitude, ...row }) =>
      latitude === null || longitude === null ? [] : [JSON.stringify(toFeature({ ...row, latitude, longitude }))],
    );
    if (features.length === 0) continue;
    yield `${counted.rows === 0 ? "\n" : ",\n"}${features.join(",\n")}`;
    counted.rows += features.length;
  }
  yield "\n]}\n";
}

/** Writes a FeatureCollection of the locations that have coordinates; returns the number of features. */
export async function exportGeoJson(
  db: Database,
  out: NodeJS.WritableStream,
  options: ExportOptions = {},
): Promise<number> {
  const counted = { rows: 0 };
  await writeAll(out, geoJsonText(db, options, counted));
  return counted.rows;
}
