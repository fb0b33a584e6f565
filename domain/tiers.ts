/** Listing tiers, best first, with the weight the distance sort uses (docs/product.md section 9). */
export const TIERS = ["Pro", "Preferred", "Basic", "Free"] as const;
export type Tier = (typeof TIERS)[number];

export const TIER_WEIGHT: Record<Tier, number> = { Pro: 4, Preferred: 3, Basic: 2, Free: 1 };

/** Preferred and Pro listings carry the 'Preferred Partner' badge and a highlighted border. */
export function isPreferredPartner(tier: Tier): boolean {
  return TIER_WEIGHT[tier] >= TIER_WEIGHT.Preferred;
}

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
