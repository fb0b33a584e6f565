import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Tier } from "../../domain/tiers";

/**
 * The paid plans (docs/product.md section 11, docs/operations.md): read from a JSON file at
 * start-up so prices change without a release. A bad file stops start-up with a message naming
 * the field.
 */
export const PAID_TIERS = ["Basic", "Preferred", "Pro"] as const satisfies readonly Tier[];
export type PaidTier = (typeof PAID_TIERS)[number];
export const INTERVALS = ["month", "year"] as const;
export type Interval = (typeof INTERVALS)[number];

/** Whole cents, at most one million dollars: money is never a float. */
const cents = z
  .number({ error: "must be a number of cents" })
  .int("must be a whole number of cents")
  .min(50, "must be at least 50 cents")
  .max(100_000_000, "must be at most 100000000 cents");

/** A Stripe price id (price_…) or empty for "not sold through Stripe". */
const stripePriceId = z
  .string()
  .max(200, "must be at most 200 characters")
  .refine((v) => v === "" || v.startsWith("price_"), "must be empty or a Stripe price id starting with price_")
  .default("");

const planSchema = z.object({
  tier: z.enum(PAID_TIERS, { error: `must be one of ${PAID_TIERS.join(", ")}` }),
  name: z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters"),
  prices: z.object({ month: cents, year: cents }),
  features: z
    .array(z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"))
    .min(1, "must list at least one feature")
    .max(12, "must list at most 12 features"),
  stripePriceIds: z.object({ month: stripePriceId, year: stripePriceId }).default({ month: "", year: "" }),
});

const plansFileSchema = z.object({
  currency: z.literal("usd", { error: "must be usd" }).default("usd"),
  plans: z
    .array(planSchema)
    .min(1, "must list at least one plan")
    .max(PAID_TIERS.length, `must list at most ${PAID_TIERS.length} plans`)
    .refine((plans) => new Set(plans.map((p) => p.tier)).size === plans.length, "must list each tier once"),
});

export type PromotionPlan = z.infer<typeof planSchema>;
export type PromotionPlans = z.infer<typeof plansFileSchema>;

export class PlansFileError extends Error {
  override name = "PlansFileError";
}

/** Parses the plans file's text; `source` names the file in the message. */
export function parsePromotionPlans(text: string, source = "promotion plans"): PromotionPlans {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PlansFileError(`Invalid ${source}: not JSON (${(error as Error).message})`);
  }
  const result = plansFileSchema.safeParse(json);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(file)"}: ${issue.message}`);
    throw new PlansFileError(`Invalid ${source}:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const DEFAULT_PLANS_FILE = path.resolve("config/promotion-plans.json");

export function loadPromotionPlans(file: string): PromotionPlans {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new PlansFileError(
      `PROMOTION_PLANS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  if (text.length > 100_000) throw new PlansFileError(`PROMOTION_PLANS_FILE: ${file} is larger than 100 kB`);
  return parsePromotionPlans(text, file);
}

export function planFor(plans: PromotionPlans, tier: string): PromotionPlan | undefined {
  return plans.plans.find((p) => p.tier === tier);
}
