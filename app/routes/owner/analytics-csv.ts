import { ownerAnalyticsCsv } from "../../../server/analytics/owner-pages";
import { viewerContext } from "../../../server/auth/console";
import type { Route } from "./+types/analytics-csv";

/** The analytics screen's daily rows as a CSV download (docs/api.md, "Owner analytics CSV"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return ownerAnalyticsCsv(request, context.get(viewerContext));
}
