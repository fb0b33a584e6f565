import { redirect } from "react-router";
import { signOut } from "../../server/auth/forms";
import type { Route } from "./+types/logout";

/** Sign out is a POST (a form in the header); opening /logout just goes home. */
export async function action({ request }: Route.ActionArgs) {
  return redirect("/", { headers: await signOut(request) });
}

export function loader() {
  return redirect("/");
}
