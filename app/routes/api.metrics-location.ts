import type { Route } from "./+types/api.metrics-location";
import { handleLocationMetricsRequest } from "../../server/analytics/metrics-endpoint";

/** GET /api/metrics/locations/{locationId}?from=&to=: a listing's metrics, for its owner and admins. */
export function loader({ request, params }: Route.LoaderArgs) {
  return handleLocationMetricsRequest(request, params.locationId);
}
