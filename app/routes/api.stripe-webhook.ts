import type { Route } from "./+types/api.stripe-webhook";
import { stripeWebhookAction } from "../../server/promotions/pages";

/** POST /api/stripe/webhook: Stripe's signed events (docs/api.md); the raw body is what is signed. */
export async function action({ request }: Route.ActionArgs) {
  return stripeWebhookAction(request);
}

/** Anything but POST: 405 with `Allow: POST`. */
export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
