import { sql } from "drizzle-orm";
import { bigint, customType, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A full transaction id (PostgreSQL `xid8`), read as text. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

/**
 * The catalogue's change log (docs/operations.md, "What instances share"): a row for every insert,
 * update or delete of a location, written by a trigger on `locations` (migration 0029) in the
 * writing transaction, so no writer can forget it. Search indexes apply the rows they have not
 * seen (by transaction, see `xid`) instead of reading the whole table: after a local write, after
 * another instance's NOTIFY, after a lost connection. Kept CHANGE_LOG_DAYS (server/search/refresh.ts)
 * by a daily job; an index that has not read it for longer rebuilds from the table.
 */
export const locationChanges = pgTable(
  "location_changes",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    placeId: text("place_id").notNull(),
    /**
     * The writing transaction. A reader keeps the oldest transaction still running when it last
     * read (`pg_snapshot_xmin`) and next reads every row from that one on: a change whose
     * transaction committed after a later one's is never skipped, as a bare `seq` would let it be.
     */
    xid: xid8("xid")
      .notNull()
      .default(sql`pg_current_xact_id()`),
    changedAt: timestamp("changed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("location_changes_changed_at_idx").on(t.changedAt), index("location_changes_xid_idx").on(t.xid)],
);
