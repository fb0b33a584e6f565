import { adminAnalyticsCsv } from "../../../server/analytics/admin-pages";
import type { Route } from "./+types/analytics-csv";

/**
 * One table of the admin analytics screen as a CSV download (docs/api.md, "Admin analytics"). The
 * admin console's middleware has run the guard.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return adminAnalyticsCsv(request);
}
