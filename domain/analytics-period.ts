/**
 * The periods of the owner analytics screen (docs/product.md section 10, "Analytics"), shared by the
 * screen's form and the server that parses it. No zod here: this module ships to the browser.
 */
export const ANALYTICS_PRESETS = [7, 30, 90] as const;
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number];
export const DEFAULT_ANALYTICS_DAYS: AnalyticsPreset = 30;
/** The admin analytics screen's presets (docs/product.md section 10, "Platform analytics"): a year too. */
export const ADMIN_ANALYTICS_PRESETS = [7, 30, 90, 365] as const;
/** The longest custom range, in days, both ends included (the same as the metrics API). */
export const MAX_ANALYTICS_DAYS = 366;
/** Raw events, which the traffic sources are counted from, are kept this long (docs/operations.md). */
export const RAW_EVENT_DAYS = 90;

/** The `days` value of a custom range (from / to). */
export const CUSTOM_RANGE = "custom";

/** The "All my listings" value of the listing picker. */
export const ALL_LISTINGS = "all";
