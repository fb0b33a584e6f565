import BadgeCheck from "lucide-react/icons/badge-check";
import { isPreferredPartner, type Tier } from "../../../domain/tiers";

export function PreferredPartnerBadge({ tier }: { tier: Tier }) {
  if (!isPreferredPartner(tier)) return null;
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      Preferred Partner
    </span>
  );
}

/**
 * On a results card the distance sort put first because of its paid tier (docs/product.md
 * section 9): the visitor sees why it comes before nearer ones.
 */
export function SponsoredBadge() {
  return (
    <span
      className="inline-flex items-center rounded-full border border-slate-300 bg-white px-2 py-0.5 text-xs font-semibold text-slate-700"
      title="Paid placement: shown before nearer listings"
    >
      Sponsored
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

/** An administrator verified the claim of the person who manages this listing (docs/product.md section 10). */
export function VerifiedOwnerBadge({ verified }: { verified: boolean }) {
  if (!verified) return null;
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800"
      title="The business's owner or manager claimed this listing and we verified the claim"
    >
      <BadgeCheck className="size-3.5" aria-hidden="true" />
      Verified owner
    </span>
  );
}
