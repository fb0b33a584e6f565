import type { Route } from "./+types/api.analytics-events";
import { handleEventsRequest } from "../../server/analytics/endpoint";

/** POST /api/analytics/events: the tracker's batches (docs/api.md). */
export function action({ request }: Route.ActionArgs) {
  return handleEventsRequest(request);
}
