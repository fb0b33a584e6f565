import { redirect } from "react-router";
import { requireOwner } from "../../server/auth/guards";
import type { Route } from "./+types/business-dashboard";

/**
 * The old address of the owner dashboard, which is now the owner console's home (/owner). A
 * visitor still goes to the business login first, with the way back to this address.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireOwner(request);
  throw redirect("/owner");
}
