import { Badge, type BadgeTone } from "../ui/badge";

/** The states of docs/product.md section 11 in words. */
const PROMOTION: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: "Waiting for payment", tone: "warning" },
  active: { label: "Active", tone: "success" },
  past_due: { label: "Past due", tone: "danger" },
  ended: { label: "Ended", tone: "neutral" },
  void: { label: "Void", tone: "neutral" },
};

const INVOICE: Record<string, { label: string; tone: BadgeTone }> = {
  open: { label: "Open", tone: "warning" },
  paid: { label: "Paid", tone: "success" },
  void: { label: "Void", tone: "neutral" },
};

export function PromotionStatusBadge({ status, cancelled = false }: { status: string; cancelled?: boolean }) {
  if (status === "active" && cancelled) return <Badge tone="info">Cancelled at period end</Badge>;
  const s = PROMOTION[status] ?? { label: status, tone: "neutral" as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

export function InvoiceStatusBadge({ status }: { status: string }) {
  const s = INVOICE[status] ?? { label: status, tone: "neutral" as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** The listing's tier as a pill: paid tiers in the brand colour. */
export function TierBadge({ tier }: { tier: string }) {
  return <Badge tone={tier === "Free" ? "neutral" : "brand"}>{tier}</Badge>;
}
