import { viewerContext } from "../../../server/auth/console";
import { ownerLeadsCsv } from "../../../server/leads/pages";
import type { Route } from "./+types/leads-csv";

/** GET /owner/leads.csv: the owner's leads as CSV (docs/api.md). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return ownerLeadsCsv(context.get(viewerContext), request);
}
