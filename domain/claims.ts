/**
 * The words of a listing claim (docs/product.md section 10), shared by the screens and the server.
 * A claim is `pending` until an admin approves or rejects it, or its claimant withdraws it.
 */
export const CLAIM_STATUSES = ["pending", "approved", "rejected", "withdrawn"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export function isClaimStatus(value: unknown): value is ClaimStatus {
  return typeof value === "string" && (CLAIM_STATUSES as readonly string[]).includes(value);
}

export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  pending: "Pending review",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

/** The claimant's role at the business, as offered by the claim form. */
export const CLAIMANT_ROLES = ["Owner", "Manager", "Employee", "Marketing agency", "Other"] as const;
export type ClaimantRole = (typeof CLAIMANT_ROLES)[number];

/** Evidence files: at most this many per claim, each at most this size, of these detected types. */
export const CLAIM_EVIDENCE_MAX_FILES = 3;
export const CLAIM_EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;
export const CLAIM_EVIDENCE_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type ClaimEvidenceType = (typeof CLAIM_EVIDENCE_TYPES)[number];

/** Claims one account may file per UTC day (withdrawn ones count: the limit is on filing). */
export const CLAIMS_PER_DAY = 5;

/** The claim form's text limits (the schema in ./claim-form enforces them; the form shows them). */
export const CLAIM_FIELD_LIMITS = { name: 100, phone: 30, email: 254, message: 2000 } as const;
