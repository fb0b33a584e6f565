import { viewerContext } from "../../../server/auth/console";
import { evidenceFile } from "../../../server/claims/pages";
import type { Route } from "./+types/claim-evidence";

/** One claim evidence file: for its claimant and administrators only (docs/product.md section 10). */
export async function loader({ params, context }: Route.LoaderArgs) {
  return evidenceFile(context.get(viewerContext), params.claimId, params.evidenceId);
}
