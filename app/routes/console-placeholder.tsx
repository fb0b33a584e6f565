import { Construction } from "lucide-react";
import { useMatches } from "react-router";
import { PageHeader } from "../components/console/page-header";
import type { ConsoleHandle } from "../components/console/handle";
import { screenName } from "../lib/screens";
import type { Route } from "./+types/console-placeholder";

/**
 * Console screens not built yet, one module under many route ids (app/routes.ts). No guard here:
 * the console layout's middleware has already run the area's guard before this renders.
 */
export { meta } from "./placeholder";

export const handle: ConsoleHandle = { breadcrumb: (match) => screenName(match.id) };

export default function ConsolePlaceholder(_: Route.ComponentProps) {
  const id = useMatches().at(-1)?.id ?? "";
  return (
    <>
      <PageHeader title={screenName(id)} />
      <div className="mt-6 flex items-start gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
        <Construction aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-500" />
        <p>This part of the site is coming soon.</p>
      </div>
    </>
  );
}
