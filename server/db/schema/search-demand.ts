import { bigint, date, pgTable, primaryKey, text, varchar } from "drizzle-orm/pg-core";

/**
 * Search demand (docs/product.md section 10, "Platform analytics"): how often each place was
 * searched on the results page per UTC day, what the searches found, and how many found nothing
 * within 100 miles. Aggregated counts only: the place is the one the visitor chose, as the results
 * page names it (its slug, e.g. `austin-tx`, `tx`; a "near me" search counts under its nearest
 * town), never typed text, an address, coordinates or who searched. Written in batches by
 * server/search/demand.ts; kept 2 years (docs/operations.md, "Analytics"). Statement-level
 * triggers (migration 0015, ADR 017) add every change to the monthly and platform tables below.
 */
export const searchDemandDaily = pgTable(
  "search_demand_daily",
  {
    date: date("date", { mode: "string" }).notNull(),
    /** The results slug of the place; `?` for searches that named no place we know. */
    placeKey: text("place_key").notNull(),
    /** 'Austin, Texas', 'Texas'; the latest label written wins. */
    placeLabel: text("place_label").notNull(),
    /** Two-letter state code; null for unknown places. */
    state: varchar("state", { length: 2 }),
    searches: bigint("searches", { mode: "number" }).notNull().default(0),
    /** The result counts of those searches added up (with the visitor's filters). */
    results: bigint("results", { mode: "number" }).notNull().default(0),
    /** Searches that returned no result (with the visitor's filters). */
    emptySearches: bigint("empty_searches", { mode: "number" }).notNull().default(0),
    /** Searches with no listing at all within 100 miles (filters aside; a state: none in it). */
    noneWithin100: bigint("none_within_100", { mode: "number" }).notNull().default(0),
  },
  // The key leads with the day: a period is a range scan of it.
  (t) => [primaryKey({ columns: [t.date, t.placeKey] })],
);

/** `search_demand_daily` added up per calendar month (`month` is its first day) and place; kept. */
export const searchDemandMonthly = pgTable(
  "search_demand_monthly",
  {
    month: date("month", { mode: "string" }).notNull(),
    placeKey: text("place_key").notNull(),
    placeLabel: text("place_label").notNull(),
    state: varchar("state", { length: 2 }),
    searches: bigint("searches", { mode: "number" }).notNull().default(0),
    results: bigint("results", { mode: "number" }).notNull().default(0),
    emptySearches: bigint("empty_searches", { mode: "number" }).notNull().default(0),
    noneWithin100: bigint("none_within_100", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.placeKey] })],
);

/** `search_demand_daily` added up over every place per UTC day; kept. */
export const platformSearchesDaily = pgTable("platform_searches_daily", {
  date: date("date", { mode: "string" }).primaryKey(),
  searches: bigint("searches", { mode: "number" }).notNull().default(0),
  results: bigint("results", { mode: "number" }).notNull().default(0),
  emptySearches: bigint("empty_searches", { mode: "number" }).notNull().default(0),
  noneWithin100: bigint("none_within_100", { mode: "number" }).notNull().default(0),
});
