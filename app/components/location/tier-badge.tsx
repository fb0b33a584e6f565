import { isPreferredPartner, type Tier } from "../../lib/tiers";

export function PreferredPartnerBadge({ tier }: { tier: Tier }) {
  if (!isPreferredPartner(tier)) return null;
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      Preferred Partner
    </span>
  );
}

export function DemoBadge({ isDemo }: { isDemo: boolean }) {
  if (!isDemo) return null;
  return (
    <span
      className="inline-flex items-center rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700"
      title="Sample data: not a real business"
    >
      Demo listing
    </span>
  );
}
