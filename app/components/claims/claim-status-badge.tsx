import { CLAIM_STATUS_LABELS, isClaimStatus, type ClaimStatus } from "../../../domain/claims";
import { Badge, type BadgeTone } from "../ui/badge";

const TONES: Record<ClaimStatus, BadgeTone> = {
  pending: "warning",
  approved: "success",
  rejected: "danger",
  withdrawn: "neutral",
};

export function ClaimStatusBadge({ status }: { status: string }) {
  if (!isClaimStatus(status)) return <Badge>{status}</Badge>;
  return <Badge tone={TONES[status]}>{CLAIM_STATUS_LABELS[status]}</Badge>;
}
