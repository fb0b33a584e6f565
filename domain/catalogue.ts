import { formatCount } from "./numbers";

/**
 * Constants of the admin catalogue shared by its screens and the server (docs/product.md
 * section 12). No server imports: the console's browser code reads these.
 */

/** The largest file the browser import takes; the command line takes larger ones (docs/operations.md). */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const IMPORT_ACCEPT = ".csv,.json,.ndjson,.jsonl,text/csv,application/json,application/x-ndjson";

/**
 * checking → checked → applying → applied; `failed` when the file cannot be read or the database
 * refused (nothing is written then).
 */
export const IMPORT_STATUSES = ["checking", "checked", "applying", "applied", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  checking: "Checking",
  checked: "Checked, not applied",
  applying: "Applying",
  applied: "Applied",
  failed: "Failed",
};

/** Rejections kept with a report; the count says how many there were in all. */
export const STORED_REJECTIONS = 500;

export interface StoredImportReport {
  read: number;
  accepted: number;
  inserted: number;
  updated: number;
  rejectedRows: number;
  /** The first STORED_REJECTIONS problems, in file order. */
  rejected: { row: number; placeId?: string; field: string; reason: string }[];
  /** How many problems there were in all. */
  rejectedTotal: number;
  warnings: string[];
}

export const BULK_ACTION_LABELS = {
  hide: "Hide",
  show: "Show",
  delete: "Delete",
  restore: "Restore",
  tier: "Set tier",
} as const;

/** What applying a checked import does, counted in words: "1 new listing is added and 2 existing ones updated". */
export function applySummary(inserted: number, updated: number): string {
  const added = inserted === 1 ? "1 new listing is added" : `${formatCount(inserted)} new listings are added`;
  const changed = updated === 1 ? "1 existing one updated" : `${formatCount(updated)} existing ones updated`;
  if (updated === 0) return `${added}, all at once.`;
  if (inserted === 0)
    return `${updated === 1 ? "1 existing listing is updated" : `${formatCount(updated)} existing listings are updated`}, all at once.`;
  return `${added} and ${changed}, all at once.`;
}
