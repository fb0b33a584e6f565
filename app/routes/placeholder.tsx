import { useMatches } from "react-router";
import { MessagePage } from "../components/layout/message-page";
import type { Route } from "./+types/placeholder";
import { seo, originFrom } from "../lib/meta";
import { screenName } from "../lib/screens";

export function meta({ matches, location }: Route.MetaArgs) {
  const id = matches.at(-1)?.id ?? "";
  return [
    ...seo({ title: screenName(id), origin: originFrom(matches), path: location.pathname }),
    { name: "robots", content: "noindex" },
  ];
}

export default function Placeholder() {
  const id = useMatches().at(-1)?.id ?? "";
  return <MessagePage title={screenName(id)} text="This part of the site is coming soon." />;
}
