import { requireAdmin } from "../../server/auth/guards";
import type { Route } from "./+types/admin-placeholder";

/** Admin screens not built yet: behind the admin guard already (server side). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export { meta, default } from "./placeholder";
