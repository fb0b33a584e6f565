import { stateOutlines } from "../../server/geo/state-outlines";
import type { Route } from "./+types/map-us-states";

/**
 * GET /map/us-states.json: the state outlines the map draws under its markers when tiles cannot
 * load (docs/product.md section 9). Fetched by the map only then, never part of a page's
 * JavaScript; the same for everyone, so any cache may keep it for a day.
 */
export function loader(_: Route.LoaderArgs) {
  return new Response(stateOutlines().json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=86400, stale-while-revalidate=604800",
    },
  });
}
