import type { Route } from "./+types/waitlist-confirm";
import { WaitlistLinkPage } from "../components/waitlist-link";
import { waitlistLinkAction, waitlistLinkPage } from "../../server/waitlist/pages";

export function meta() {
  return [{ title: "Confirm your place on the waitlist" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  return waitlistLinkPage(request, "confirm");
}

export async function action({ request }: Route.ActionArgs) {
  return waitlistLinkAction(request, "confirm");
}

/** The link in a waitlist email (docs/product.md section 17): asks, then acts on the POST. */
export default function WaitlistConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitlistLinkPage kind="confirm" token={loaderData.token} state={loaderData.state} done={actionData?.state} />;
}
