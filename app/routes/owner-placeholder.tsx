import { requireOwner } from "../../server/auth/guards";
import type { Route } from "./+types/owner-placeholder";

/** Owner screens not built yet: behind the owner guard already (server side). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireOwner(request);
  return null;
}

export { meta, default } from "./placeholder";
