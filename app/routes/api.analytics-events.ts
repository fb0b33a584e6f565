import type { Route } from "./+types/api.analytics-events";
import { handleEventsRequest } from "../../server/analytics/endpoint";

/** POST /api/analytics/events: the tracker's batches (docs/api.md). */
export function action({ request }: Route.ActionArgs) {
  return handleEventsRequest(request);
}

/** GET answers the endpoint's own 405 with `Allow: POST` (without a loader it was a logged 400). */
export function loader({ request }: Route.LoaderArgs) {
  return handleEventsRequest(request);
}
