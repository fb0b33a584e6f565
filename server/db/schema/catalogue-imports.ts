import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { IMPORT_STATUSES, type StoredImportReport } from "../../../domain/catalogue";
import { users } from "./auth";
import { timestamps } from "./columns";

/**
 * A catalogue import started from the browser (docs/product.md section 12, "Import and export"):
 * the uploaded file is kept on disk while it is checked (a dry run) and, when an administrator
 * applies it, imported in one transaction. The reports are kept for the record.
 */
export const catalogueImports = pgTable(
  "catalogue_imports",
  {
    id: text("id").primaryKey(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByEmail: text("created_by_email"),
    fileName: text("file_name").notNull(),
    format: text("format").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull(),
    /** Records read so far by the running step: the progress bar. */
    rowsRead: integer("rows_read").notNull().default(0),
    checkReport: jsonb("check_report").$type<StoredImportReport>(),
    applyReport: jsonb("apply_report").$type<StoredImportReport>(),
    error: text("error"),
    appliedAt: timestamp("applied_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    check("catalogue_imports_status", sql.raw(`status in (${IMPORT_STATUSES.map((s) => `'${s}'`).join(", ")})`)),
    index("catalogue_imports_created_idx").on(t.createdAt),
  ],
);

export type CatalogueImportRow = typeof catalogueImports.$inferSelect;
