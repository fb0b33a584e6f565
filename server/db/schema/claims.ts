import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { CLAIM_STATUSES } from "../../../domain/claims";
import { timestamps } from "./columns";
import { locations } from "./locations";
import { users } from "./auth";
import { at } from "./columns";

/**
 * A person's request to manage a listing (docs/product.md section 10). `is_transfer` records that
 * the listing already had an owner when the claim was filed. One pending claim per person per
 * listing is enforced by a partial unique index, so two racing submissions cannot both land.
 */
export const claims = pgTable(
  "claims",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    claimantName: text("claimant_name").notNull(),
    claimantRole: text("claimant_role").notNull(),
    businessPhone: text("business_phone").notNull(),
    businessEmail: text("business_email").notNull(),
    message: text("message").notNull().default(""),
    consentAt: at("consent_at").notNull(),
    isTransfer: boolean("is_transfer").notNull().default(false),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: at("decided_at"),
    decisionReason: text("decision_reason"),
    ...timestamps,
  },
  (t) => [
    check("claims_status_check", sql.raw(`${t.status.name} in (${CLAIM_STATUSES.map((s) => `'${s}'`).join(", ")})`)),
    uniqueIndex("claims_one_pending_per_person_idx")
      .on(t.userId, t.locationId)
      .where(sql.raw(`${t.status.name} = 'pending'`)),
    index("claims_status_created_idx").on(t.status, t.createdAt),
    index("claims_location_idx").on(t.locationId, t.status),
    index("claims_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Files a claimant attached as proof. The bytes live in private storage under `storage_key`
 * (server/files), never under a public URL; `content_type` is the type detected from the content.
 */
export const claimEvidence = pgTable(
  "claim_evidence",
  {
    id: text("id").primaryKey(),
    claimId: text("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("claim_evidence_claim_idx").on(t.claimId)],
);

export type ClaimRow = typeof claims.$inferSelect;
export type ClaimEvidenceRow = typeof claimEvidence.$inferSelect;
