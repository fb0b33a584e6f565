import { getConfig, type Config } from "../config";

/**
 * How owners pay (docs/product.md section 11): by card through Stripe when both Stripe keys are
 * set, by invoice otherwise (the default, no external service).
 */
export function paymentProvider(
  settings: Pick<Config, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET"> = getConfig(),
): "stripe" | "invoice" {
  return settings.STRIPE_SECRET_KEY && settings.STRIPE_WEBHOOK_SECRET ? "stripe" : "invoice";
}
