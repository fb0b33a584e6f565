import { Construction } from "lucide-react";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { originFrom, seo } from "../../lib/meta";
import type { Route } from "./+types/index";

export function meta({ matches, location }: Route.MetaArgs) {
  return [
    ...seo({ title: "Admin console", origin: originFrom(matches), path: location.pathname }),
    { name: "robots", content: "noindex" },
  ];
}

export const handle: ConsoleHandle = { breadcrumb: "Overview" };

/** The admin overview; its figures and queues come with the admin screens. */
export default function AdminOverview() {
  return (
    <>
      <PageHeader title="Admin console" description="Claims, listings, users and articles, in one place." />
      <div className="mt-6 flex items-start gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
        <Construction aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-500" />
        <p>The overview is coming soon. Use the menu to reach each part of the console.</p>
      </div>
    </>
  );
}
