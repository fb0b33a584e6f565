import type { Route } from "./+types/waitlist-leave";
import { WaitlistLinkPage } from "../components/waitlist-link";
import { waitlistLinkAction, waitlistLinkPage } from "../../server/waitlist/pages";

export function meta() {
  return [{ title: "Leave the waitlist" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  return waitlistLinkPage(request, "leave");
}

export async function action({ request }: Route.ActionArgs) {
  return waitlistLinkAction(request, "leave");
}

/** The link in a waitlist email (docs/product.md section 17): asks, then acts on the POST. */
export default function WaitlistLeave({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitlistLinkPage kind="leave" token={loaderData.token} state={loaderData.state} done={actionData?.state} />;
}
