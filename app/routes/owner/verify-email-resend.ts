import { viewerContext } from "../../../server/auth/console";
import { resendVerificationAction } from "../../../server/account/resend-verification";
import type { Route } from "./+types/verify-email-resend";

/** The "Send the link again" button of the owner console's confirmation banner (docs/product.md section 10). */
export async function action({ request, context }: Route.ActionArgs) {
  return resendVerificationAction(request, context.get(viewerContext));
}
