import type { Route } from "./+types/api.stripe-webhook";
import { getDatabase } from "../../server/db";
import { handleStripeWebhook } from "../../server/promotions/stripe";

/** POST /api/stripe/webhook: Stripe's signed events (docs/api.md); the raw body is what is signed. */
export async function action({ request }: Route.ActionArgs) {
  const raw = Buffer.from(await request.arrayBuffer());
  const answer = await handleStripeWebhook(getDatabase(), raw, request.headers.get("stripe-signature"));
  return Response.json(answer.body, { status: answer.status });
}

/** Anything but POST: 405 with `Allow: POST`. */
export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
