import type { Route } from "./+types/api.session";
import { personalOf } from "../../server/auth/personal";

/**
 * GET /api/session: who is looking (docs/api.md), for the header and the save buttons of a page a
 * shared cache keeps, which is the same for everybody (app/lib/auth.tsx). Private, never cached.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { personal, headers } = await personalOf(request);
  headers.set("Cache-Control", "private, no-store");
  return Response.json(personal, { headers });
}
