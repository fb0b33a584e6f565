import type { Route } from "./+types/api.saved";
import { saveRequest } from "../../server/saved/action";

/** POST /api/saved: save or forget a facility for the session's person (docs/api.md). */
export function action({ request }: Route.ActionArgs) {
  return saveRequest(request);
}

/** GET answers 405 with `Allow: POST`. */
export function loader({ request }: Route.LoaderArgs) {
  return saveRequest(request);
}
