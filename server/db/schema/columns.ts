import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** A `timestamp with time zone` column read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** A check's condition: `column` holds one of `values` (the domain's constants, never user input). */
export const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

/** created_at / updated_at, shared by every table that records when a row changed. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
